#!/usr/bin/env bash
# session 33, call 5 (16 cores): issue 17's -n row against its anchors at
# the session's last code (6312ae6): benches/rules.sh with FLAG=-n over 16
# GiB of CI logs in 64 files, 1,000 rules, one run each (gpugrep --engine
# gpu and auto, rg -j16, Hyperscan's hsgrep with 16 threads; every tool's
# printed line count compared).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
BIN=$D WORK=/dev/shm/rules-bench THREADS=16 SIZES=1000 GNU_SIZES= CPU=0 RUNS=1 TOOL_TIMEOUT=100 FLAG=-n \
  timeout 520 bash benches/rules.sh 16G > $O/rules-n.txt 2> $O/rules-n.err
echo "rc $?" >> $O/rules-n.txt
cat $O/rules-n.txt
