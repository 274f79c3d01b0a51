#!/usr/bin/env bash
# session 20, call 7: GPU suites, and the split/walk/pattern tests under
# the GPU engine, at ffdfc5b (the session's last code).
set -u
O=$OUT; D=$PWD/.dev
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 200 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $?" >> $O/summary.txt
done
for t in walk_order cli_patterns split_file cli_stats; do
  GPUGREP_TEST_ENGINE=gpu timeout 150 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $?" >> $O/summary.txt
done
cat $O/summary.txt; grep -h 'test result' $O/suite-*.log
