#!/usr/bin/env python3
"""benches/cpu-time.py: where a command's time goes, beside another's.

Runs each named command in turn, ROUNDS rounds alternating, output thrown
away, and prints per command the median and range of wall time, user and
system CPU time and minor page faults (from wait4's rusage), and peak
memory where /usr/bin/time is there (a child started from Python itself
would report Python's high-water mark). For the host machines that have no
perf or strace: system time and page faults told apart from the wall clock.

usage: benches/cpu-time.py [--rounds N] NAME='COMMAND' [NAME='COMMAND' ...]
COMMAND is run by /bin/sh.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time

TIME = "/usr/bin/time"


def run_once(command):
    peak = tempfile.NamedTemporaryFile(mode="r")
    argv = ["/bin/sh", "-c", command]
    if os.access(TIME, os.X_OK):
        argv = [TIME, "-f", "%M", "-o", peak.name] + argv
    start = time.perf_counter()
    child = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    return {
        "wall": wall,
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "faults": usage.ru_minflt,
        # The last line: a failed command's status comes first.
        "peak_mb": float((peak.read().split() or ["nan"])[-1]) / 1024,
        "rc": child.returncode,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("commands", nargs="+", help="NAME='COMMAND'")
    args = parser.parse_args()
    named = [c.split("=", 1) for c in args.commands]
    runs = {name: [] for name, _ in named}
    for _ in range(args.rounds):
        for name, command in named:
            runs[name].append(run_once(command))
    print("name\twall_s\tuser_s\tsys_s\tfaults\tpeak_mb\trc")
    for name, _ in named:
        cells = [name]
        for key in ("wall", "user", "sys", "faults", "peak_mb"):
            vals = [r[key] for r in runs[name]]
            med = statistics.median(vals)
            fmt = {"faults": "{:.0f}", "peak_mb": "{:.1f}"}.get(key, "{:.3f}")
            cells.append(
                f"{fmt.format(med)} ({fmt.format(min(vals))}-{fmt.format(max(vals))})"
            )
        cells.append(",".join(sorted({str(r["rc"]) for r in runs[name]})))
        print("\t".join(cells))


if __name__ == "__main__":
    main()
