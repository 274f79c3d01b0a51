#!/usr/bin/env bash
# session 26, call 9: compute-sanitizer racecheck and synccheck of the multi
# kernel at the session's code (its new per-warp candidate queue in shared
# memory), through gpu_differential's multi test on small sets.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
nvidia-smi -L > $O/machine.txt 2>&1
for tool in racecheck synccheck; do
  GPUGREP_DIFF_SMALL=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $D/gpu_differential gpu_multi > $O/$tool.txt 2>&1; echo "rc $?" >> $O/$tool.txt
done
