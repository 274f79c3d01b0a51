#!/usr/bin/env bash
# session 25, call 7: issue 17's table at the session's code: benches/rules.sh
# over 16 GiB of logs, -c, 100 / 1,000 / 10,000 rules, gpugrep gpu / auto /
# cpu, Hyperscan (hsgrep, 16 threads), rg -j16; one run each (60 s cap).
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
BIN=$D THREADS=16 WORK=/dev/shm/rules RUNS=1 TOOL_TIMEOUT=60 SIZES="100 1000 10000" GNU_SIZES="" UG= \
  timeout 560 benches/rules.sh 16G > $O/rules-16G.txt 2>&1
echo "rules.sh rc $?" >> $O/rules-16G.txt
cat $O/rules-16G.txt
