#!/usr/bin/env python3
"""Draws benches/results.tsv as an SVG bar chart: benches/speed.svg.

One group of bars per workload, one bar per tool, time on a log scale
(shorter is faster), each bar labelled with its seconds. The machine each
workload ran on is part of its title: numbers from different machines are
never on one axis row. Only the standard library: the SVG is written by hand.

    python3 benches/chart.py [--tsv benches/results.tsv] [--out benches/speed.svg]

results.tsv: a header line, then tab-separated rows
    workload  tool  seconds  machine  date  commit
(`#` lines are comments). Workloads and tools are drawn in the order they
first appear. Run it again after adding rows from a new benchmark run.
"""

import argparse
import csv
import html
import math
import sys
from pathlib import Path

# One colour per tool, the same in every group (Okabe-Ito, readable by
# people with colour-vision deficiency); unknown tools get grey.
COLOURS = {
    "gpugrep auto": "#0072B2",
    "gpugrep cpu": "#56B4E9",
    "gpugrep gpu": "#009E73",
    "rg": "#E69F00",
    "GNU grep": "#D55E00",
    "zgrep": "#CC79A7",
    "ugrep": "#F0E442",
    "Hyperscan": "#000000",
}

WIDTH = 960
LEFT = 150  # tool names
RIGHT = 80  # room for the value labels
BAR = 16
GAP = 4
GROUP_TITLE = 34
GROUP_GAP = 14
TOP = 70
BOTTOM = 60


def read_rows(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    for row in csv.DictReader(lines, delimiter="\t"):
        try:
            seconds = float(row["seconds"])
        except (KeyError, TypeError, ValueError):
            sys.exit(f"chart.py: bad seconds in row {row}")
        if seconds <= 0:
            sys.exit(f"chart.py: seconds must be positive in row {row}")
        rows.append({**row, "seconds": seconds})
    if not rows:
        sys.exit(f"chart.py: no rows in {path}")
    return rows


def groups(rows):
    """(workload title, [(tool, seconds)]) in first-seen order."""
    order, by = [], {}
    for r in rows:
        key = (r["workload"], r["machine"])
        if key not in by:
            order.append(key)
            by[key] = []
        by[key].append((r["tool"], r["seconds"]))
    return [(f"{w} — {m}", by[(w, m)]) for (w, m) in order]


def nice_ticks(lo, hi):
    """Powers of ten, with 2 and 5 between them when the range is short."""
    first, last = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    steps = (1, 2, 5) if last - first <= 3 else (1,)
    return [m * 10**e for e in range(first, last + 1) for m in steps if lo <= m * 10**e <= hi]


def tick_label(seconds):
    return f"{seconds:g} s" if seconds >= 1 else f"{seconds * 1000:g} ms"


def label(seconds):
    if seconds >= 10:
        return f"{seconds:.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.0f} ms"


def draw(rows, title):
    gs = groups(rows)
    lo = min(r["seconds"] for r in rows)
    hi = max(r["seconds"] for r in rows)
    lo = 10 ** math.floor(math.log10(lo))
    hi = 10 ** math.ceil(math.log10(hi))
    plot_w = WIDTH - LEFT - RIGHT

    def x(seconds):
        return LEFT + plot_w * (math.log10(seconds) - math.log10(lo)) / (
            math.log10(hi) - math.log10(lo)
        )

    height = TOP + BOTTOM
    for _, bars in gs:
        height += GROUP_TITLE + len(bars) * (BAR + GAP) + GROUP_GAP
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{WIDTH / 2}" y="28" text-anchor="middle" font-size="17" font-weight="bold">'
        f"{html.escape(title)}</text>",
        f'<text x="{WIDTH / 2}" y="48" text-anchor="middle" fill="#555">'
        "wall-clock seconds, log scale — shorter is faster</text>",
    ]
    plot_top, plot_bottom = TOP - 8, height - BOTTOM + 4
    for t in nice_ticks(lo, hi):
        tx = x(t)
        out.append(
            f'<line x1="{tx:.1f}" y1="{plot_top}" x2="{tx:.1f}" y2="{plot_bottom}" '
            'stroke="#ddd" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{tx:.1f}" y="{plot_bottom + 16}" text-anchor="middle" fill="#333">'
            f"{html.escape(tick_label(t))}</text>"
        )
    y = TOP
    for name, bars in gs:
        out.append(
            f'<text x="{LEFT}" y="{y + 18}" font-weight="bold">{html.escape(name)}</text>'
        )
        y += GROUP_TITLE
        fastest = min(s for _, s in bars)
        for tool, seconds in bars:
            colour = COLOURS.get(tool, "#999999")
            w = max(x(seconds) - LEFT, 1.0)
            weight = ' font-weight="bold"' if seconds == fastest else ""
            out.append(
                f'<text x="{LEFT - 8}" y="{y + BAR - 4}" text-anchor="end"{weight}>'
                f"{html.escape(tool)}</text>"
            )
            out.append(
                f'<rect x="{LEFT}" y="{y}" width="{w:.1f}" height="{BAR}" fill="{colour}" '
                'stroke="#333" stroke-width="0.5"/>'
            )
            out.append(
                f'<text x="{LEFT + w + 5:.1f}" y="{y + BAR - 4}" fill="#222"{weight}>'
                f"{html.escape(label(seconds))}</text>"
            )
            y += BAR + GAP
        y += GROUP_GAP
    out.append(
        f'<line x1="{LEFT}" y1="{plot_top}" x2="{LEFT}" y2="{plot_bottom}" stroke="#333"/>'
    )
    out.append(
        f'<text x="{WIDTH / 2}" y="{height - 14}" text-anchor="middle" fill="#555" font-size="11">'
        "Numbers from benches/RESULTS.md (benches/results.tsv); "
        "the fastest tool of each workload in bold.</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tsv", default=here / "results.tsv", type=Path)
    ap.add_argument("--out", default=here / "speed.svg", type=Path)
    ap.add_argument("--title", default="gpugrep against rg, GNU grep, ugrep and zgrep")
    args = ap.parse_args()
    svg = draw(read_rows(args.tsv), args.title)
    args.out.write_text(svg, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
