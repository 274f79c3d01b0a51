#!/usr/bin/env python3
"""Per-kernel average duration (ms) and invocations from an `ncu --csv
--print-summary per-kernel --metrics gpu__time_duration.sum` log."""
import csv, sys
rows = [l for l in open(sys.argv[1], errors="replace") if l.startswith('"')]
out = []
for r in csv.DictReader(rows):
    if r.get("Metric Name") == "gpu__time_duration.sum":
        scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}.get(r.get("Metric Unit"), float("nan"))
        avg = float(r["Average"].replace(",", "")) * scale
        out.append(f'{r["Kernel Name"]} x{r["Invocations"]} {avg:.3f} ms')
print("; ".join(out))
