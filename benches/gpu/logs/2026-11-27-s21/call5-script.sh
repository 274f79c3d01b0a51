#!/usr/bin/env bash
# session 21, call 5: GPU suites, and the walk/pattern/split/stats tests
# under the GPU engine, at the session's code (BOM files split, the walk's
# front rule).
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential gpu_rule_split gpu_real_world; do
  timeout 150 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $?" >> $O/summary.txt
done
for t in split_file walk_order cli_patterns cli_stats; do
  GPUGREP_TEST_ENGINE=gpu timeout 110 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $?" >> $O/summary.txt
done
cat $O/summary.txt; grep -h 'test result' $O/suite-*.log
