#!/usr/bin/env python3
"""Summarises benches/run's TSV: cases, geomean of rg's time over
gpugrep's, the lowest rows, peak memory against rg's, failed checks.
--below X --commands: print CASE<TAB>gpugrep command<TAB>rg command for
rows below X (for benches/cpu-time.py; LC_ALL=C.UTF-8 as benches/everyday sets)."""
import csv, math, re, sys

args = sys.argv[1:]
path = args[0]
below = float(args[args.index('--below') + 1]) if '--below' in args else None
rows = list(csv.DictReader(open(path), delimiter='\t'))
g, rg, pk, rpk, chk, cmd, rcmd = {}, {}, {}, {}, {}, {}, {}
strip = lambda c: 'LC_ALL=C.UTF-8 ' + re.sub(r'^timeout \d+ ', '', c.strip())
for r in rows:
    if r['tool'].startswith('gpugrep'):
        g[r['case']] = float(r['median_s']); pk[r['case']] = int(r['peak_kb'] or 0)
        chk[r['case']] = r['check']; cmd[r['case']] = strip(r['command'])
    elif r['tool'] == 'rg':
        rg[r['case']] = float(r['median_s']); rpk[r['case']] = int(r['peak_kb'] or 0)
        rcmd[r['case']] = strip(r['command'])
rat = {c: rg[c] / g[c] for c in g if c in rg and g[c] > 0}
if '--commands' in args:
    for c, x in sorted(rat.items(), key=lambda t: t[1]):
        if below is not None and x < below:
            print(f"{c}\t{cmd[c]}\t{rcmd[c]}")
    sys.exit(0)
gm = math.exp(sum(math.log(x) for x in rat.values()) / len(rat))
print(f"cases {len(rat)} geomean {gm:.2f}")
for c, x in sorted(rat.items(), key=lambda t: t[1])[:10]:
    print(f"  {c} {x:.2f} gpugrep {g[c]:.3f} rg {rg[c]:.3f} peak {pk[c]/1024:.1f}/{rpk.get(c,0)/1024:.1f} MB check {chk[c]}")
mem = sorted(((pk[c] / rpk[c], c) for c in rat if rpk.get(c)), reverse=True)[:3]
print("highest peak memory vs rg:", ", ".join(f"{c} {m:.2f}x" for m, c in mem))
print("checks not ok:", [c for c in chk if chk[c] != 'ok'])
