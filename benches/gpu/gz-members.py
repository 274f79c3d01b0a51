import gzip, sys, multiprocessing as mp
src, dst = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
step = 16 << 20
parts = [data[i:i + step] for i in range(0, len(data), step)]
with mp.Pool(16) as p:
    out = p.map(lambda b: None, []) if False else p.map(gzip.compress, parts, 1)
with open(dst, 'wb') as f:
    for o in out: f.write(o)
