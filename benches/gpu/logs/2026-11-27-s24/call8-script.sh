#!/usr/bin/env bash
# session 24, call 8: issue 17's table at the session's code (auto opens
# CUDA beside a rule pack's compile): benches/rules.sh over 16 GiB of
# logs, -c, 100 / 1,000 / 10,000 rules, gpugrep gpu / auto / cpu,
# Hyperscan (hsgrep, 16 threads), rg -j16; one run each (60 s cap).
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
BIN=$D THREADS=16 WORK=/dev/shm/rules RUNS=1 TOOL_TIMEOUT=60 SIZES="100 1000 10000" GNU_SIZES="" UG= \
  timeout 560 benches/rules.sh 16G > $O/rules-16G.txt 2>&1
echo "rules.sh rc $?" >> $O/rules-16G.txt
cat $O/rules-16G.txt
