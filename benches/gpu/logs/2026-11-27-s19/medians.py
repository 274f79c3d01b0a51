#!/usr/bin/env python3
"""Medians of a low.txt written by call5-7 (tool, corpus, args, microseconds)."""
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    d[(' '.join(p[1:-1]), p[0])].append(int(p[-1]) / 1000)
tools = sorted({t for _, t in d}, key=lambda t: (t == 'rg', t))
for k in sorted({k for k, _ in d}):
    m = {t: statistics.median(d[(k, t)]) for t in tools if (k, t) in d}
    print(f"{k:40s} " + '  '.join(f"{t} {v:5.1f} ms ({m['rg'] / v:.2f}x rg)" for t, v in m.items() if t != 'rg') + f"  rg {m['rg']:5.1f} ms")
