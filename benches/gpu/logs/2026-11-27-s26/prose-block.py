"""The 64 MiB prose pool of benches/gpu/gen-prose.py and its 1,000- and
10,000-word pattern lists, written to OUT_DIR (for the kernel bench).

    python3 prose-block.py WORDS OUT_DIR [--lf]
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gp", os.path.join(here, "../../gen-prose.py"))
gp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gp)
words, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
used, unused = gp.vocabulary(words)
with open(os.path.join(out, "prose.txt"), "wb") as f:
    f.write(gp.pool(used, "--lf" not in sys.argv))
for n in (1000, 10000):
    gp.patterns(used, unused, n, os.path.join(out, f"words-{n}.txt"))
