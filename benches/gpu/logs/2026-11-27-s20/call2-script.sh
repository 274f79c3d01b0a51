#!/usr/bin/env bash
# session 20, call 2: GPU suites, and the split/walk/pattern tests under
# the GPU engine, at 66c6fc4.
set -u
O=$OUT; D=$PWD/.dev
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 200 $D/$t --test-threads=8 > $O/suite-$t.log 2>&1; echo "suite $t $?" >> $O/summary.txt
done
for t in walk_order cli_patterns split_file cli_stats; do
  GPUGREP_TEST_ENGINE=gpu timeout 150 $D/$t --test-threads=8 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $?" >> $O/summary.txt
done
cat $O/summary.txt; grep -h 'test result' $O/suite-*.log
