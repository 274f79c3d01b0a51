#!/usr/bin/env bash
# session 34, call 6 (16 cores): issue 17's -c rows against the anchors at
# the session's last code (0621161's search code): benches/rules.sh over
# 16 GiB of CI logs in 64 files, 1,000 and 10,000 rules, one run each
# (gpugrep --engine gpu and auto, Hyperscan's hsgrep with 16 threads,
# rg -j16 with a 70 s limit; every tool's count compared).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
BIN=$D WORK=/dev/shm/rules-bench THREADS=16 SIZES="1000 10000" GNU_SIZES= CPU=0 RUNS=1 TOOL_TIMEOUT=70 FLAG=-c \
  timeout 560 bash benches/rules.sh 16G > $O/rules-c.txt 2> $O/rules-c.err
echo "rc $?" >> $O/rules-c.txt
cat $O/rules-c.txt
