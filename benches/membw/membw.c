// membw: what 16 threads of this host move through memory, for the floor of
// printed lines on the GPU path (issue 17). Per test, T threads; seconds and
// GB/s of the bytes each test names:
//   read   each thread sums its own 1 GiB of anonymous memory (touched first)
//   copy   each thread copies its 1 GiB into another (GB/s of bytes copied)
//   pread  the threads share the files given, each file pread into a 64 MiB
//          buffer of its own thread (the pipeline's readers' route)
//   touch  the threads share the files, each mapped and read through (the
//          printers' first touch of a file's bytes)
//   both   half the threads pread every file, the other half touch every
//          file, at once (GB/s of the two together)
//   touchp touch, the map populated in the mmap call (MAP_POPULATE: the
//          page tables filled at once, not a fault at a time)
//   pt     each file pread into the thread's buffer, then mapped and read
//          through by the same thread (both routes, one thread a file)
//   mc     each file mapped and copied into the thread's buffer 64 MiB at a
//          time (the readers' copy taken from a map instead of pread)
//   mcr    mc, and each 64 MiB piece read again from the same map after the
//          next one is copied (printers reading pages the copy faulted in)
// Build: cc -O2 -pthread -o membw benches/membw/membw.c
// Run:   membw THREADS FILE...
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GIB (1ull << 30)
#define BUF (64ull << 20)

static int threads, nfiles;
static char **files;
static volatile int next_file, next_touch;
static const char *test;
static uint64_t sink[256];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t sum(const uint64_t *p, size_t words) {
    uint64_t a = 0, b = 0, c = 0, d = 0;
    for (size_t i = 0; i + 4 <= words; i += 4) {
        a += p[i]; b += p[i + 1]; c += p[i + 2]; d += p[i + 3];
    }
    return a + b + c + d;
}

static char *mem[256], *mem2[256];
static uint64_t moved[256];

static void *work(void *arg) {
    int t = (int)(intptr_t)arg;
    if (!strcmp(test, "read")) {
        sink[t] = sum((uint64_t *)mem[t], GIB / 8);
        moved[t] = GIB;
    } else if (!strcmp(test, "copy")) {
        memcpy(mem2[t], mem[t], GIB);
        moved[t] = GIB;
    } else {
        char *buf = mem[t];
        int reads = !strcmp(test, "pread") || (!strcmp(test, "both") && t % 2 == 0) ||
                    !strcmp(test, "pt");
        int copies = !strcmp(test, "mc") || !strcmp(test, "mcr");
        for (;;) {
            int f = __sync_fetch_and_add(reads ? &next_file : &next_touch, 1);
            if (f >= nfiles) break;
            int fd = open(files[f], O_RDONLY);
            if (fd < 0) continue;
            struct stat st;
            fstat(fd, &st);
            if (copies) {
                char *m = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
                if (m != MAP_FAILED) {
                    int again = !strcmp(test, "mcr");
                    for (off_t at = 0; at < st.st_size; at += BUF) {
                        size_t n = st.st_size - at < (off_t)BUF ? st.st_size - at : BUF;
                        memcpy(buf, m + at, n);
                        moved[t] += n;
                        if (again && at >= (off_t)BUF) {
                            sink[t] += sum((const uint64_t *)(m + at - BUF), BUF / 8);
                            moved[t] += BUF;
                        }
                    }
                    if (again && st.st_size > 0) {
                        off_t last = (st.st_size - 1) / BUF * BUF;
                        sink[t] += sum((const uint64_t *)(m + last), (st.st_size - last) / 8);
                        moved[t] += st.st_size - last;
                    }
                    munmap(m, st.st_size);
                }
            } else if (reads) {
                for (off_t at = 0; at < st.st_size; at += BUF) {
                    ssize_t n = pread(fd, buf, BUF, at);
                    if (n <= 0) break;
                    moved[t] += n;
                }
            }
            if ((!reads && !copies) || !strcmp(test, "pt")) {
                int flags = MAP_PRIVATE | (!strcmp(test, "touchp") ? MAP_POPULATE : 0);
                char *m = mmap(0, st.st_size, PROT_READ, flags, fd, 0);
                if (m != MAP_FAILED) {
                    sink[t] += sum((const uint64_t *)m, st.st_size / 8);
                    moved[t] += st.st_size;
                    munmap(m, st.st_size);
                }
            }
            close(fd);
        }
    }
    return 0;
}

static void run(const char *name) {
    test = name;
    next_file = 0;
    next_touch = 0;
    memset(moved, 0, sizeof moved);
    pthread_t th[256];
    double t0 = now();
    for (int t = 0; t < threads; t++) pthread_create(&th[t], 0, work, (void *)(intptr_t)t);
    for (int t = 0; t < threads; t++) pthread_join(th[t], 0);
    double s = now() - t0;
    uint64_t total = 0;
    for (int t = 0; t < threads; t++) total += moved[t];
    printf("%-6s %2d threads %6.3f s %7.2f GB/s (%.2f GB)\n", name, threads, s, total / s / 1e9, total / 1e9);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "membw THREADS FILE...\n"); return 2; }
    threads = atoi(argv[1]);
    if (threads < 1 || threads > 256) return 2;
    files = argv + 2;
    nfiles = argc - 2;
    for (int t = 0; t < threads; t++) {
        mem[t] = mmap(0, GIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        mem2[t] = mmap(0, GIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem[t] == MAP_FAILED || mem2[t] == MAP_FAILED) { perror("mmap"); return 1; }
        memset(mem[t], 1, GIB);
        memset(mem2[t], 2, GIB);
    }
    for (int r = 0; r < 2; r++) {
        run("read");
        run("copy");
        if (nfiles) {
            run("pread"); run("touch"); run("touchp"); run("both");
            run("pt"); run("mc"); run("mcr");
        }
    }
    return 0;
}
