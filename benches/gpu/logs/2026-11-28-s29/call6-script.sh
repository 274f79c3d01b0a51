#!/usr/bin/env bash
# session 29, call 6 (H100): the session's final build on a real GPU:
# gpu_end_to_end, and split_file (its GPU pieces' test takes --engine gpu;
# the others the map's verdict both ways).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
timeout 150 $D/gpu_end_to_end --test-threads=12 > $O/e2e.txt 2>&1; echo "rc $?" >> $O/e2e.txt
timeout 60 $D/split_file --test-threads=8 > $O/split.txt 2>&1; echo "rc $?" >> $O/split.txt
grep -h "test result\|rc \|FAILED\|panicked" $O/e2e.txt $O/split.txt >> $S
cat $S
