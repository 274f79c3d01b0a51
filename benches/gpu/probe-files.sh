#!/usr/bin/env bash
# Device side of benches/probe-files.py: unpacks .dev/bom.tar.xz (the flat
# BOM+CRLF directory) into /dev/shm/p, makes a nested copy (20 subdirs) and
# a plain copy (no BOM, LF), and runs the probe with 16 threads.
set -eu
D=$PWD/.dev
P=/dev/shm/p
mkdir -p $P
[[ -d $P/bom ]] || tar -C $P -xJf $D/bom.tar.xz
python3 - "$P" <<'PY'
import os, sys
p = sys.argv[1]
src = os.path.join(p, "bom")
names = sorted(os.listdir(src))
for i, n in enumerate(names):
    data = open(os.path.join(src, n), "rb").read()
    d = os.path.join(p, "bomnest", f"d{i % 20}")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, n), "wb").write(data)
    os.makedirs(os.path.join(p, "plain"), exist_ok=True)
    plain = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    open(os.path.join(p, "plain", n), "wb").write(plain.replace(b"\r\n", b"\n"))
PY
python3 benches/probe-files.py --gpugrep $D/gpugrep --rg $D/rg --threads ${THREADS:-16} \
    --reps ${REPS:-7} $P/bom $P/bomnest $P/plain
