import os, sys, threading
d, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(d, exist_ok=True)
block = (b"the quick brown fox jumps over the lazy dog 0123456789\n" * (size // 56 + 1))[:size]
def w(k):
    for i in range(k, n, 16):
        with open(f"{d}/f{i:05}", "wb") as f: f.write(block)
ts = [threading.Thread(target=w, args=(k,)) for k in range(16)]
[t.start() for t in ts]; [t.join() for t in ts]
