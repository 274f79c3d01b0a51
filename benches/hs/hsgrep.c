/*
 * hsgrep: Hyperscan's answer to `grep -E -c -f RULES` (issue 17's rule-pack
 * benchmark, benches/rules.sh): the number of lines, over every file, that
 * at least one rule matches; with -n, `grep -h -n`'s output instead: each
 * matching line with its number, a file's lines together and in order
 * (files in the order the threads finish them, as rg -j prints).
 *
 *     hsgrep [-j THREADS] [-i] [-n] -f RULES PATH...      (directories recursed)
 *
 * Every rule is compiled into one block-mode database with
 * HS_FLAG_SINGLEMATCH (a rule reports once per scan) and HS_FLAG_MULTILINE
 * (^ and $ at line ends, as grep's). Each line is scanned on its own and
 * the scan stops at the first match, which gives grep -c's per-line
 * semantics exactly (a whole-buffer scan would let classes such as
 * `[^@ ]+` or `\s` match across lines). THREADS workers take files from a
 * shared index; each file is mapped. Prints the total count on stdout and
 * the compile time on stderr. Build: cc -O2 -pthread hsgrep.c -lhs -lstdc++ -lm
 * (benches/rules.sh links libhs statically so the binary can be carried).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <hs/hs.h>
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
static size_t nfiles, capfiles;
static atomic_size_t next_file;
static hs_database_t *db;
static hs_scratch_t *proto;
static int numbered;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* A file's printed lines, written to stdout whole. */
struct out { char *buf; size_t len, cap; };

static void put(struct out *o, const char *p, size_t n) {
    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2;
        o->buf = realloc(o->buf, o->cap);
        if (!o->buf) { perror("realloc"); exit(2); }
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static int add_file(const char *path, const struct stat *st, int type, struct FTW *f) {
    (void)st; (void)f;
    if (type != FTW_F) return 0;
    if (nfiles == capfiles) {
        capfiles = capfiles ? 2 * capfiles : 1024;
        files = realloc(files, capfiles * sizeof *files);
        if (!files) { perror("realloc"); exit(2); }
    }
    files[nfiles++] = strdup(path);
    return 0;
}

static int on_match(unsigned id, unsigned long long from, unsigned long long to,
                    unsigned flags, void *ctx) {
    (void)id; (void)from; (void)to; (void)flags;
    *(int *)ctx = 1;
    return 1; /* stop: the line is selected */
}

static void *worker(void *arg) {
    unsigned long long *total = arg;
    hs_scratch_t *s = NULL;
    struct out o = {0};
    if (hs_clone_scratch(proto, &s) != HS_SUCCESS) { fprintf(stderr, "hsgrep: scratch\n"); exit(2); }
    for (;;) {
        size_t i = atomic_fetch_add(&next_file, 1);
        if (i >= nfiles) break;
        int fd = open(files[i], O_RDONLY);
        if (fd < 0) { perror(files[i]); continue; }
        struct stat st;
        if (fstat(fd, &st) != 0 || st.st_size == 0) { close(fd); continue; }
        const char *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (p == MAP_FAILED) { perror(files[i]); continue; }
        madvise((void *)p, st.st_size, MADV_SEQUENTIAL);
        const char *end = p + st.st_size, *line = p;
        unsigned long long number = 0;
        o.len = 0;
        while (line < end) {
            const char *nl = memchr(line, '\n', end - line);
            const char *le = nl ? nl : end;
            int hit = 0;
            number++;
            hs_scan(db, line, (unsigned)(le - line), 0, s, on_match, &hit);
            *total += hit;
            if (hit && numbered) {
                char num[24];
                put(&o, num, (size_t)snprintf(num, sizeof num, "%llu:", number));
                put(&o, line, (size_t)(le - line));
                put(&o, "\n", 1);
            }
            line = le + 1;
        }
        munmap((void *)p, st.st_size);
        if (o.len) {
            pthread_mutex_lock(&out_lock);
            fwrite(o.buf, 1, o.len, stdout);
            pthread_mutex_unlock(&out_lock);
        }
    }
    hs_free_scratch(s);
    free(o.buf);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = 1, caseless = 0, opt;
    const char *rules = NULL;
    while ((opt = getopt(argc, argv, "j:inf:")) != -1) {
        if (opt == 'j') threads = atoi(optarg);
        else if (opt == 'i') caseless = 1;
        else if (opt == 'n') numbered = 1;
        else if (opt == 'f') rules = optarg;
        else { fprintf(stderr, "usage: hsgrep [-j N] [-i] [-n] -f RULES PATH...\n"); return 2; }
    }
    if (!rules || optind >= argc || threads < 1) { fprintf(stderr, "usage: hsgrep [-j N] [-i] [-n] -f RULES PATH...\n"); return 2; }
    FILE *f = fopen(rules, "r");
    if (!f) { perror(rules); return 2; }
    char **exprs = NULL; unsigned *flags = NULL, *ids = NULL; size_t n = 0, cap = 0;
    char *buf = NULL; size_t bcap = 0; ssize_t len;
    while ((len = getline(&buf, &bcap, f)) >= 0) {
        if (len > 0 && buf[len - 1] == '\n') buf[--len] = 0;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            exprs = realloc(exprs, cap * sizeof *exprs);
            flags = realloc(flags, cap * sizeof *flags);
            ids = realloc(ids, cap * sizeof *ids);
            if (!exprs || !flags || !ids) { perror("realloc"); return 2; }
        }
        exprs[n] = strdup(buf);
        flags[n] = HS_FLAG_SINGLEMATCH | HS_FLAG_MULTILINE | (caseless ? HS_FLAG_CASELESS : 0);
        ids[n] = (unsigned)n;
        n++;
    }
    fclose(f);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    hs_compile_error_t *err = NULL;
    if (hs_compile_multi((const char *const *)exprs, flags, ids, (unsigned)n, HS_MODE_BLOCK, NULL, &db, &err) != HS_SUCCESS) {
        fprintf(stderr, "hsgrep: %s:%d: %s\n", rules, err->expression + 1, err->message);
        return 2;
    }
    if (hs_alloc_scratch(db, &proto) != HS_SUCCESS) { fprintf(stderr, "hsgrep: scratch\n"); return 2; }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "hsgrep: compiled %zu expressions in %.3f s\n", n,
            (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    for (int i = optind; i < argc; i++)
        if (nftw(argv[i], add_file, 64, FTW_PHYS) != 0) { perror(argv[i]); return 2; }
    pthread_t *tid = calloc(threads, sizeof *tid);
    unsigned long long *counts = calloc(threads, sizeof *counts);
    for (int i = 0; i < threads; i++) pthread_create(&tid[i], NULL, worker, &counts[i]);
    unsigned long long total = 0;
    for (int i = 0; i < threads; i++) { pthread_join(tid[i], NULL); total += counts[i]; }
    if (!numbered) printf("%llu\n", total);
    return 0;
}
