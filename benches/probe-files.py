#!/usr/bin/env python3
"""Per-file cost probe (issue 15): time, page faults and context switches
of gpugrep's CPU engine and ripgrep on directories of many small files.

    benches/probe-files.py --gpugrep BIN --rg BIN [--reps N] DIR...

For each DIR, thread count (1 and --threads) and search, runs both tools
--reps times and prints the best wall time, the median user and system
time, minor page faults and voluntary context switches (from wait4's
rusage), and the answers' agreement (output sizes). Also measures what
one fresh anonymous page costs to fault in on this machine, since the
number of faults is where the tools differ most (rg touches fewer pages).
Written to run unchanged on the dev VM and the GPU host (python3 only).
"""
import argparse
import mmap
import os
import statistics
import subprocess
import time

SEARCHES = [
    ("c-i-utf8", ["-r", "-c", "-i", "josé"]),
    ("c-absent", ["-r", "-c", "-F", "qqqzzzxj"]),
    ("l-the", ["-r", "-l", "-F", "the"]),
]


def fault_cost_us(mib=256):
    """Microseconds per first touch of an anonymous 4 KiB page."""
    m = mmap.mmap(-1, mib << 20)
    pages = (mib << 20) // 4096
    t = time.perf_counter()
    for i in range(pages):
        m[i * 4096] = 1
    dt = time.perf_counter() - t
    # The same loop over pages already present: the loop's own cost.
    t = time.perf_counter()
    for i in range(pages):
        m[i * 4096] = 2
    base = time.perf_counter() - t
    m.close()
    return (dt - base) / pages * 1e6


def run(argv):
    with open(os.devnull, "wb") as null:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=null)
        out = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
    return wall, ru, len(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpugrep", required=True)
    ap.add_argument("--rg", required=True)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    print(f"fault cost: {fault_cost_us():.2f} us per fresh 4 KiB page")
    print("dir\tsearch\tj\ttool\tbest_ms\tuser_ms\tsys_ms\tminflt\tvcsw\tout_bytes")
    for d in a.dirs:
        for name, args in SEARCHES:
            for j in sorted({1, a.threads}):
                tools = {
                    "gpugrep": [a.gpugrep, "--engine", "cpu", "-j", str(j)],
                    "rg": [a.rg, "--no-config", "-uu", "-a", "-j", str(j)],
                }
                for tool, base in tools.items():
                    # rg searches directories recursively (its -r is --replace).
                    targs = args if tool == "gpugrep" else [x for x in args if x != "-r"]
                    rows = [run(base + targs + [d]) for _ in range(a.reps)]
                    best = min(r[0] for r in rows)
                    med = lambda f: statistics.median(f(r[1]) for r in rows)
                    print(
                        f"{os.path.basename(d)}\t{name}\t{j}\t{tool}\t{best * 1e3:.1f}"
                        f"\t{med(lambda u: u.ru_utime) * 1e3:.0f}\t{med(lambda u: u.ru_stime) * 1e3:.0f}"
                        f"\t{med(lambda u: u.ru_minflt):.0f}\t{med(lambda u: u.ru_nvcsw):.0f}\t{rows[0][2]}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
