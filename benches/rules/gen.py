#!/usr/bin/env python3
"""Real-shaped rule packs for `gpugrep -E -f` (issue 17), deterministic.

    benches/rules/gen.py [--out DIR] [--seed S] [N ...]   (default 100 1000 10000)

writes DIR/rules-N.txt: N POSIX extended regular expressions, one a line,
in the subset GNU grep -E, ripgrep, ugrep and Hyperscan all read the same
way (no back-references, no look-around, `[0-9]` rather than `\\d`; `\\w`,
`\\S` and `\\s` are GNU extensions every tool here has). Three families, as
in real CI log scanning:

* CI failure signatures (40 %): `error: .* not found`, `FAILED .*test_\\w+`,
  `exit code [1-9][0-9]*`, hashes, IPs, URLs, each specialised with words
  from the corpus generator's `logs` vocabulary or made-up names, so a
  pack has a realistic mix of rules that hit often, rarely and never;
* log templates turned into regexes (40 %): a Drain-style template whose
  `<*>` fields become `\\S+`;
* secret-scanner regexes (20 %): AWS keys `AKIA[0-9A-Z]{16}`, prefixed
  tokens (`ghp_`, `xoxb-`, `sk_live_`, ...), private-key headers, and
  `<vendor>_(api|secret)_key = '<hex>'` assignments for made-up vendors
  (written here, not fetched from any scanner's configuration).

Every pack of a seed is a prefix of the larger ones' families, so results
across sizes are comparable. Output is the same for the same seed.
"""
import argparse
import os
import random

COMPONENTS = ["builder", "cargo", "rustc", "linker", "runner", "scheduler", "cache",
              "fetch", "kernel", "net", "db", "auth", "storage", "gpu", "deploy"]
CRATES = ["serde", "tokio", "regex", "memchr", "aho-corasick", "clap", "anyhow", "libc",
          "rand", "bytes", "hyper", "syn", "quote", "log", "futures", "tracing", "mio",
          "rayon", "gpugrep", "cudarc", "zstd", "flate2", "rustls", "openssl-sys"]
MODS = ["engine", "cpu", "gpu", "pattern", "literal", "regex", "output", "input", "cli",
        "search", "count", "ignore", "utf8", "sjis"]
FNS = ["matches_literal", "counts_lines", "handles_empty_file", "case_insensitive",
       "word_boundary", "multiple_patterns", "binary_detection", "large_file",
       "crlf_lines", "invert_match", "long_lines", "unicode_classes",
       "timeout_handling", "suspend_resume"]
IDENTS = ["PM_SUSPEND", "CPU_SUSPEND", "ACPI_SUSPEND", "PM_RESUME", "CPU_ONLINE",
          "IRQ_WAKE", "DMA_MAP", "PCI_D3HOT", "EFI_RUNTIME", "NMI_WATCHDOG",
          "EAGAIN", "ETIMEDOUT", "ECONNRESET", "SIGTERM"]
VERBS = ["failed", "refused", "timed out", "aborted", "rejected", "dropped", "stalled",
         "crashed", "panicked", "retried", "evicted", "expired", "corrupted", "denied"]
NOUNS = ["connection", "request", "lease", "lock", "socket", "session", "token",
         "checksum", "manifest", "artifact", "snapshot", "segment", "replica", "quota",
         "handshake", "transaction", "heartbeat", "upload", "download", "mount"]
SYL = ["ka", "lo", "mi", "tr", "ve", "xo", "zu", "pra", "den", "gul", "nor", "qi",
       "bel", "sto", "fan", "rix", "tem", "dar", "vi", "on", "sh", "el", "ur", "ast"]

SECRETS_FIXED = [
    r"AKIA[0-9A-Z]{16}",
    r"ASIA[0-9A-Z]{16}",
    r"ghp_[0-9a-zA-Z]{36}",
    r"gho_[0-9a-zA-Z]{36}",
    r"github_pat_[0-9a-zA-Z_]{82}",
    r"glpat-[0-9a-zA-Z_-]{20}",
    r"xox[baprs]-[0-9a-zA-Z-]{10,48}",
    r"sk_live_[0-9a-zA-Z]{24}",
    r"rk_live_[0-9a-zA-Z]{24}",
    r"AIza[0-9A-Za-z_-]{35}",
    r"-----BEGIN (RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----",
    r"SG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43}",
    r"npm_[0-9a-zA-Z]{36}",
    r"https://hooks\.slack\.com/services/T[0-9A-Z]{8}/B[0-9A-Z]{8}/[0-9a-zA-Z]{24}",
    r"(postgres|mysql|mongodb)://[a-z0-9_]+:[^@ ]+@[a-z0-9.-]+",
    r"eyJ[0-9A-Za-z_-]{10,}\.eyJ[0-9A-Za-z_-]{10,}\.[0-9A-Za-z_-]{10,}",
]


def name(rng, parts=(2, 4)):
    return "".join(rng.choice(SYL) for _ in range(rng.randint(*parts)))


def esc(s):
    out = []
    for c in s:
        out.append("\\" + c if c in ".[]()*+?{}|^$\\" else c)
    return "".join(out)


def ci_signature(rng):
    k = rng.randrange(16)
    crate = rng.choice(CRATES) if rng.random() < 0.5 else name(rng)
    if k == 0:
        return r"error: package `%s` .* not found" % esc(crate)
    if k == 1:
        return r"FAILED .*%s::test_\w+" % rng.choice(MODS)
    if k == 2:
        return r"test %s::%s::%s \.\.\. FAILED" % (rng.choice(MODS), rng.choice(MODS),
                                                rng.choice(FNS) if rng.random() < 0.3 else name(rng))
    if k == 3:
        return r"%s exited with status [1-9][0-9]*" % rng.choice(COMPONENTS + [name(rng)])
    if k == 4:
        return r"exit code [1-9][0-9]* in %s" % name(rng)
    if k == 5:
        return r"error\[E0%d[0-9]{2}\]: %s" % (rng.randrange(10), rng.choice(
            ["mismatched types", "cannot find value `%s`" % name(rng),
             "borrow of moved value", "unresolved import `%s`" % name(rng)]))
    if k == 6:
        return r"commit [0-9a-f]{%d} .*%s" % (rng.choice([7, 12, 40]), name(rng))
    if k == 7:
        return r"(connection timeout|retrying request) to 10\.%d\.[0-9]+\.[0-9]+" % rng.randrange(4)
    if k == 8:
        return r"https?://%s\.(example\.com|internal)/[^ ]*" % name(rng)
    if k == 9:
        return r"failed: timeout after [0-9]{%d,} ms .*%s" % (rng.randint(3, 5), rng.choice(COMPONENTS))
    if k == 10:
        return r"%s: .*%s (failed|errored)" % (rng.choice(COMPONENTS), name(rng))
    if k == 11:
        return r"out of memory allocating [0-9]+ bytes in %s" % name(rng)
    if k == 12:
        return r"%s[0-9]* = -?[0-9]+ \(%s\)" % (rng.choice(IDENTS), name(rng))
    if k == 13:
        return r"sha256:[0-9a-f]{64} .*%s" % name(rng)
    if k == 14:
        return r"panicked at '[^']*%s[^']*', src/[a-z_/]+\.rs:[0-9]+" % name(rng)
    return r"ERROR %s: %s %s" % (rng.choice(COMPONENTS), rng.choice(NOUNS), rng.choice(VERBS))


def template(rng):
    words = []
    for _ in range(rng.randint(3, 7)):
        r = rng.random()
        if r < 0.3:
            words.append("<*>")
        elif r < 0.5:
            words.append(rng.choice(NOUNS))
        elif r < 0.65:
            words.append(rng.choice(VERBS))
        elif r < 0.75:
            words.append(rng.choice(COMPONENTS) + ":")
        else:
            words.append(name(rng, (1, 3)))
    if all(w == "<*>" for w in words):
        words[0] = name(rng)
    if rng.random() < 0.2:
        words.append("(<*> ms)")
    return " ".join(esc(w).replace(r"<\*>", r"\S+") for w in words)


def secret(rng, i):
    if i < len(SECRETS_FIXED) and rng.random() < 0.9:
        return SECRETS_FIXED[i]
    vendor = name(rng)
    k = rng.randrange(4)
    if k == 0:
        return r"%s_(api|secret)_key *[=:] *['" % vendor + '"' + r"]?[0-9a-f]{32}"
    if k == 1:
        return r"%s_[0-9a-zA-Z]{%d}" % (vendor[:4], rng.choice([20, 24, 32, 40]))
    if k == 2:
        return r"%s-(token|key)-[0-9A-Z]{%d}" % (vendor.upper()[:6], rng.choice([16, 24]))
    return r"%s://[a-z0-9_]+:[^@ ]+@[a-z0-9.-]+" % vendor


def pack(n, seed):
    rng = random.Random(seed)
    rules, seen = [], set()
    secrets = 0
    while len(rules) < n:
        r = rng.random()
        if r < 0.4:
            rule = ci_signature(rng)
        elif r < 0.8:
            rule = template(rng)
        else:
            rule = secret(rng, secrets)
            secrets += 1
        if rule not in seen:
            seen.add(rule)
            rules.append(rule)
    return rules


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("sizes", nargs="*", type=int, default=[100, 1000, 10000])
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for n in a.sizes:
        path = os.path.join(a.out, "rules-%d.txt" % n)
        with open(path, "w") as f:
            f.write("".join(r + "\n" for r in pack(n, a.seed)))
        print(path)


if __name__ == "__main__":
    main()
