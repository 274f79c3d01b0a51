#!/usr/bin/env python3
"""Host-side ceilings of the streaming pipeline, measured with the CUDA driver
API through ctypes (no Rust, no CuPy needed): how fast page-cached files can
reach the GPU by each route the pipeline could take.

  copy-mmap   T threads memcpy from file maps into a registered 1 GiB ring
  copy-pread  T threads pread into the same ring
  register    T threads cuMemHostRegister(READ_ONLY) each file's map, then
              unregister (no transfer)
  zero-copy   T threads: register a file's map, cuMemcpyHtoDAsync straight
              from it on the thread's stream, synchronise, unregister
  ring-dma    the copy-pread route with the ring's slots sent to the GPU
              as they fill (what the pipeline does today)
  cache-dma   each thread preads into two small buffers of UNIT bytes (env,
              default 1 MiB) in turn and sends each to the GPU as soon as it
              is full: the staging stays in the CPU's cache, so each byte
              crosses DRAM once (read), not three times

Usage: ceilings.py DIR [THREADS ...]   (DIR holds the corpus files)
Prints one line per route and thread count: GB/s over all files' bytes.
"""
import ctypes
import os
import sys
import threading
import time

cu = ctypes.CDLL("libcuda.so.1")
libc = ctypes.CDLL("libc.so.6", use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PROT_READ, PROT_WRITE, MAP_SHARED, MAP_PRIVATE, MAP_ANON = 1, 2, 1, 2, 0x20
READ_ONLY = 8
SLOT = 64 << 20


def check(r, what):
    if r != 0:
        raise RuntimeError(f"{what}: CUDA error {r}")


check(cu.cuInit(0), "cuInit")
dev = ctypes.c_int()
check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
ctx = ctypes.c_void_p()
t0 = time.perf_counter()
check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "ctx")
check(cu.cuCtxSetCurrent(ctx), "set ctx")
print(f"context: {time.perf_counter() - t0:.3f} s", flush=True)


def mmap_file(path):
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDONLY)
    addr = libc.mmap(None, size, PROT_READ, MAP_SHARED, fd, 0)
    os.close(fd)
    if addr in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), path)
    return addr, size


def dev_alloc(n):
    p = ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(n)), "alloc")
    return p.value


def stream():
    s = ctypes.c_void_p()
    check(cu.cuStreamCreate(ctypes.byref(s), 1), "stream")
    return s


def run(files, threads, work):
    """Calls work(i, path) for every file on `threads` threads; GB/s."""
    total = sum(os.path.getsize(f) for f in files)
    nxt = [0]
    lock = threading.Lock()

    def body(i):
        check(cu.cuCtxSetCurrent(ctx), "set ctx")
        state = {}
        while True:
            with lock:
                k = nxt[0]
                nxt[0] += 1
            if k >= len(files):
                break
            work(i, files[k], state)
        if "done" in state:
            state["done"]()

    t = time.perf_counter()
    ts = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    for x in ts:
        x.start()
    for x in ts:
        x.join()
    dt = time.perf_counter() - t
    return total / dt / 1e9, dt


def main():
    d = sys.argv[1]
    counts = [int(x) for x in sys.argv[2:]] or [1, 8, 16]
    files = sorted(os.path.join(d, f) for f in os.listdir(d))
    tmax = max(counts)
    ring_bytes = SLOT * tmax
    ring = libc.mmap(None, ring_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0)
    ctypes.memset(ring, 1, ring_bytes)
    check(cu.cuMemHostRegister_v2(ctypes.c_void_p(ring), ctypes.c_size_t(ring_bytes), 0), "ring")
    devbuf = [dev_alloc(SLOT) for _ in range(tmax)]
    streams = [stream() for _ in range(tmax)]

    def copy_mmap(i, path, st):
        addr, size = mmap_file(path)
        off = 0
        while off < size:
            n = min(SLOT, size - off)
            ctypes.memmove(ring + i * SLOT, addr + off, n)
            off += n
        libc.munmap(ctypes.c_void_p(addr), size)

    def copy_pread(i, path, st):
        fd = os.open(path, os.O_RDONLY)
        buf = (ctypes.c_char * SLOT).from_address(ring + i * SLOT)
        mv = memoryview(buf).cast("B")
        off = 0
        while True:
            n = os.preadv(fd, [mv], off)
            if n <= 0:
                break
            off += n
        os.close(fd)

    def ring_dma(i, path, st):
        copy_pread(i, path, st)
        size = min(os.path.getsize(path), SLOT)
        check(cu.cuMemcpyHtoDAsync_v2(ctypes.c_uint64(devbuf[i]), ctypes.c_void_p(ring + i * SLOT),
                                       ctypes.c_size_t(size), streams[i]), "dma")
        check(cu.cuStreamSynchronize(streams[i]), "sync")

    def register(i, path, st):
        addr, size = mmap_file(path)
        check(cu.cuMemHostRegister_v2(ctypes.c_void_p(addr), ctypes.c_size_t(size), READ_ONLY), "reg")
        check(cu.cuMemHostUnregister(ctypes.c_void_p(addr)), "unreg")
        libc.munmap(ctypes.c_void_p(addr), size)

    def zero_copy(i, path, st):
        addr, size = mmap_file(path)
        check(cu.cuMemHostRegister_v2(ctypes.c_void_p(addr), ctypes.c_size_t(size), READ_ONLY), "reg")
        off = 0
        while off < size:
            n = min(SLOT, size - off)
            check(cu.cuMemcpyHtoDAsync_v2(ctypes.c_uint64(devbuf[i]), ctypes.c_void_p(addr + off),
                                           ctypes.c_size_t(n), streams[i]), "dma")
            off += n
        check(cu.cuStreamSynchronize(streams[i]), "sync")
        check(cu.cuMemHostUnregister(ctypes.c_void_p(addr)), "unreg")
        libc.munmap(ctypes.c_void_p(addr), size)

    unit = int(os.environ.get("UNIT", str(1 << 20)))
    events = [[ctypes.c_void_p(), ctypes.c_void_p()] for _ in range(tmax)]
    for evs in events:
        for e in evs:
            check(cu.cuEventCreate(ctypes.byref(e), 2), "event")

    def cache_dma(i, path, st):
        fd = os.open(path, os.O_RDONLY)
        bufs = [memoryview((ctypes.c_char * unit).from_address(ring + i * SLOT + h * unit)).cast("B")
                for h in (0, 1)]
        k = st.get("k", 0)
        off = 0
        while True:
            h = k & 1
            if k >= 2:
                check(cu.cuEventSynchronize(events[i][h]), "wait")
            n = os.preadv(fd, [bufs[h]], off)
            if n <= 0:
                break
            dst = devbuf[i] + (k * unit) % (SLOT - unit)
            check(cu.cuMemcpyHtoDAsync_v2(ctypes.c_uint64(dst), ctypes.c_void_p(ring + i * SLOT + h * unit),
                                           ctypes.c_size_t(n), streams[i]), "dma")
            check(cu.cuEventRecord(events[i][h], streams[i]), "record")
            off += n
            k += 1
        st["k"] = k
        st["done"] = lambda: check(cu.cuStreamSynchronize(streams[i]), "sync")
        os.close(fd)

    routes = [("copy-mmap", copy_mmap), ("copy-pread", copy_pread), ("register", register),
              ("zero-copy", zero_copy), ("ring-dma", ring_dma),
              ("cache-dma", cache_dma)]
    only = os.environ.get("ROUTES")
    total = sum(os.path.getsize(f) for f in files)
    print(f"{len(files)} files, {total / 2**30:.1f} GiB", flush=True)
    for name, work in routes:
        if only and name not in only.split(","):
            continue
        for t in counts:
            gbs, dt = run(files, t, work)
            print(f"{name:10} threads {t:2}: {gbs:6.1f} GB/s ({dt:.3f} s)", flush=True)


main()
