// hostreg-bench: how fast the bytes of page-cached files reach the GPU,
// by the pipeline's route (pread into pinned memory, then a copy) or by
// registering the files' mapped pages with CUDA and copying from them.
//
//   hostreg-bench MODE THREADS CHUNK_MIB < list-of-files
//
// MODE:
//   pread      pread each piece into one of two pinned buffers, copy it to
//              the device (cuMemcpyHtoDAsync), the next read overlapping it
//   preadonly  the reads alone (into pinned memory), no copy
//   reg        mmap the file, cuMemHostRegister(READ_ONLY) each piece,
//              copy it to the device, unregister once the copy is done
//   regonly    register and unregister each piece, no copy
//   regfile    register the whole mapped file once, copy its pieces
//   mmapcopy   memcpy each piece from the mapping into pinned memory, copy
//
// Each thread takes the next file from the list, copies it in pieces of
// CHUNK_MIB to a device buffer of its own on a stream of its own. Prints
// bytes, seconds, GB/s, and the seconds summed over threads in each step.
// Build on the device: nvcc -O2 -o hostreg-bench hostreg-bench.c -lcuda -lpthread
#define _GNU_SOURCE
#include <cuda.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char **files;
static size_t nfiles;
static atomic_size_t next_file;
static atomic_ullong total_bytes;
static const char *mode;
static size_t chunk;
static CUcontext ctx;
static _Atomic double t_read, t_reg, t_unreg, t_copy;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void add(_Atomic double *a, double v) {
    double old = atomic_load(a);
    while (!atomic_compare_exchange_weak(a, &old, old + v)) {
    }
}

#define CK(x)                                                                  \
    do {                                                                       \
        CUresult r_ = (x);                                                     \
        if (r_ != CUDA_SUCCESS) {                                              \
            const char *s_ = "?";                                              \
            cuGetErrorString(r_, &s_);                                         \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_);     \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static void *worker(void *arg) {
    (void)arg;
    CK(cuCtxSetCurrent(ctx));
    CUstream st;
    CK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    CK(cuMemAlloc(&dev, chunk));
    void *pin[2] = {0, 0};
    int copies = strcmp(mode, "preadonly") != 0 && strcmp(mode, "regonly") != 0;
    int preads = !strncmp(mode, "pread", 5) || !strcmp(mode, "mmapcopy");
    if (preads) {
        CK(cuMemHostAlloc(&pin[0], chunk, 0));
        CK(cuMemHostAlloc(&pin[1], chunk, 0));
    }
    CUevent ev[2];
    CK(cuEventCreate(&ev[0], CU_EVENT_DISABLE_TIMING));
    CK(cuEventCreate(&ev[1], CU_EVENT_DISABLE_TIMING));
    int used[2] = {0, 0};
    void *regd[2] = {0, 0};
    long page = sysconf(_SC_PAGESIZE);
    for (;;) {
        size_t i = atomic_fetch_add(&next_file, 1);
        if (i >= nfiles)
            break;
        int fd = open(files[i], O_RDONLY);
        if (fd < 0) {
            perror(files[i]);
            continue;
        }
        struct stat sb;
        fstat(fd, &sb);
        size_t size = sb.st_size;
        char *map = NULL;
        if (!preads || !strcmp(mode, "mmapcopy")) {
            map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
            if (map == MAP_FAILED) {
                perror("mmap");
                exit(1);
            }
        }
        double t0;
        if (!strcmp(mode, "regfile")) {
            t0 = now();
            size_t len = (size + page - 1) / page * page;
            CK(cuMemHostRegister(map, len, CU_MEMHOSTREGISTER_READ_ONLY));
            add(&t_reg, now() - t0);
        }
        int k = 0;
        for (size_t off = 0; off < size; off += chunk, k ^= 1) {
            size_t n = size - off < chunk ? size - off : chunk;
            if (used[k]) {
                t0 = now();
                CK(cuEventSynchronize(ev[k]));
                add(&t_copy, now() - t0);
                used[k] = 0;
                if (regd[k]) {
                    t0 = now();
                    CK(cuMemHostUnregister(regd[k]));
                    add(&t_unreg, now() - t0);
                    regd[k] = 0;
                }
            }
            void *src;
            if (preads) {
                t0 = now();
                if (map) {
                    memcpy(pin[k], map + off, n);
                } else {
                    size_t done = 0;
                    while (done < n) {
                        ssize_t r = pread(fd, (char *)pin[k] + done, n - done, off + done);
                        if (r <= 0) {
                            perror("pread");
                            exit(1);
                        }
                        done += r;
                    }
                }
                add(&t_read, now() - t0);
                src = pin[k];
            } else {
                src = map + off;
                if (strcmp(mode, "regfile")) {
                    size_t len = (n + page - 1) / page * page;
                    t0 = now();
                    CK(cuMemHostRegister(src, len, CU_MEMHOSTREGISTER_READ_ONLY));
                    add(&t_reg, now() - t0);
                    regd[k] = src;
                }
            }
            if (copies)
                CK(cuMemcpyHtoDAsync(dev, src, n, st));
            CK(cuEventRecord(ev[k], st));
            used[k] = 1;
            atomic_fetch_add(&total_bytes, n);
        }
        for (int j = 0; j < 2; j++) {
            if (used[j]) {
                t0 = now();
                CK(cuEventSynchronize(ev[j]));
                add(&t_copy, now() - t0);
                used[j] = 0;
            }
            if (regd[j]) {
                t0 = now();
                CK(cuMemHostUnregister(regd[j]));
                add(&t_unreg, now() - t0);
                regd[j] = 0;
            }
        }
        if (!strcmp(mode, "regfile")) {
            t0 = now();
            CK(cuMemHostUnregister(map));
            add(&t_unreg, now() - t0);
        }
        if (map)
            munmap(map, size);
        close(fd);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: hostreg-bench MODE THREADS CHUNK_MIB < files\n");
        return 2;
    }
    mode = argv[1];
    int threads = atoi(argv[2]);
    chunk = (size_t)atol(argv[3]) << 20;
    size_t cap = 1024;
    files = malloc(cap * sizeof *files);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (nfiles == cap)
            files = realloc(files, (cap *= 2) * sizeof *files);
        files[nfiles++] = strdup(line);
    }
    double t0 = now();
    CK(cuInit(0));
    CUdevice d;
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, d));
    CK(cuCtxSetCurrent(ctx));
    double t1 = now();
    pthread_t th[256];
    for (int i = 0; i < threads; i++)
        pthread_create(&th[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    CK(cuCtxSynchronize());
    double t2 = now();
    double gb = total_bytes / 1e9;
    printf("%s threads %d chunk %zu MiB files %zu: %.2f GB in %.3f s = %.1f GB/s "
           "(cuda %.3f s; summed: read %.2f reg %.2f unreg %.2f copy-wait %.2f s)\n",
           mode, threads, chunk >> 20, nfiles, gb, t2 - t1, gb / (t2 - t1), t1 - t0,
           t_read, t_reg, t_unreg, t_copy);
    return 0;
}
