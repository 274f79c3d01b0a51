#!/usr/bin/env python3
"""Real rule packs and real logs for issue 17's benchmark (benches/rules.sh).

    benches/rules/real.py --gitleaks GITLEAKS_TOML --loghub LOGHUB_DIR
                          --out DIR [--size 256M] [--shape one|mix|small]

writes, from public sources fetched beforehand (not kept in this repository):

* DIR/rules-gitleaks.txt: every `regex = '''...'''` of gitleaks' default
  configuration (github.com/gitleaks/gitleaks, config/gitleaks.toml): secret
  scanners' rules in RE2/Go syntax, searched with `-P` (the `regex` crate's
  syntax, as ripgrep's and Hyperscan's);
* DIR/rules-templates.txt: loghub's event templates (github.com/logpai/loghub,
  every `*_templates.csv`), each escaped as an extended regular expression
  with its `<*>` fields as `\\S+`, duplicates dropped (`-E`);
* DIR/loghub-SIZE/: loghub's 16 sample logs (`*_2k.log`, 2,000 real lines of
  each system), each repeated into 4 files of SIZE/64: real lines, real
  vocabulary, at scale (`--shape one`, the default: one system a file);
* DIR/loghub-SIZE-mix/ (`--shape mix`): 16 files of SIZE/16, each the 16
  systems in turn, SIZE/256 of each (16 MiB of 4 GiB): the system changes
  within a file, as in a combined log;
* DIR/loghub-SIZE-small/ (`--shape small`): files of 1 MiB, the system
  changing from one file to the next (many small logs).

Each part is its log repeated in whole lines, so every line is a real one.
"""
import argparse
import csv
import glob
import os
import re


def size_bytes(s):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * units[s[-1]] if s[-1] in units else int(s)


def gitleaks(toml):
    text = open(toml, encoding="utf-8").read()
    return re.findall(r"^regex = '''(.*)'''$", text, re.M)


def templates(loghub):
    rules, seen = [], set()
    for f in sorted(glob.glob(os.path.join(loghub, "*templates.csv"))):
        for row in csv.DictReader(open(f, encoding="utf-8", errors="replace")):
            t = row["EventTemplate"].strip()
            parts = [re.sub(r"([\\.\[\](){}*+?|^$])", r"\\\1", p) for p in t.split("<*>")]
            r = r"\S+".join(parts)
            if t and r not in seen:
                seen.add(r)
                rules.append(r)
    return rules


def sample_logs(loghub):
    """(system name, its sample log ending with a newline), by name."""
    logs = []
    for f in sorted(glob.glob(os.path.join(loghub, "*_2k.log"))):
        b = open(f, "rb").read()
        if not b.endswith(b"\n"):
            b += b"\n"
        logs.append((os.path.basename(f).replace("_2k.log", ""), b))
    return logs


def repeated(log, size):
    """`log` repeated to about `size` bytes, cut after a whole line."""
    b = log * (size // len(log) + 1)
    return b[: b.rindex(b"\n", 0, max(size, b.index(b"\n") + 1)) + 1]


def corpus(loghub, out, size, shape):
    logs = sample_logs(loghub)
    os.makedirs(out, exist_ok=True)
    n = len(logs)
    if shape == "one":
        for name, b in logs:
            whole = b * max(1, size // (n * 4) // len(b))
            for i in range(4):
                with open(os.path.join(out, f"{name}-{i}.log"), "wb") as w:
                    w.write(whole)
    elif shape == "mix":
        parts = [repeated(b, size // (n * n)) for _, b in logs]
        for k in range(n):
            with open(os.path.join(out, f"mix-{k:02}.log"), "wb") as w:
                for i in range(n):
                    w.write(parts[(k + i) % n])
    else:
        parts = [repeated(b, 1 << 20) for _, b in logs]
        for k in range(max(1, size >> 20)):
            with open(os.path.join(out, f"small-{k:06}.log"), "wb") as w:
                w.write(parts[k % n])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gitleaks", required=True)
    ap.add_argument("--loghub", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", default="256M")
    ap.add_argument("--shape", choices=["one", "mix", "small"], default="one")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, rules in [("gitleaks", gitleaks(a.gitleaks)), ("templates", templates(a.loghub))]:
        with open(os.path.join(a.out, f"rules-{name}.txt"), "w", encoding="utf-8") as w:
            w.write("\n".join(rules) + "\n")
        print(f"rules-{name}.txt: {len(rules)} rules")
    suffix = "" if a.shape == "one" else f"-{a.shape}"
    target = os.path.join(a.out, f"loghub-{a.size}{suffix}")
    if not os.path.isdir(target):
        corpus(a.loghub, target, size_bytes(a.size), a.shape)
    print(target)


if __name__ == "__main__":
    main()
