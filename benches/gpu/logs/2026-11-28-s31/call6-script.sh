#!/usr/bin/env bash
# session 31, call 6 (H100/H200): the session's final build (013f35a) on the
# GPU: the changed count_terminators under compute-sanitizer (memcheck,
# racecheck: it now also ORs a NUL flag over the block), then the GPU
# suites (gpu_differential, gpu_rule_split with the new sparse and NUL
# tests, split_file, gpu_end_to_end).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
for tool in memcheck racecheck; do
  GPUGREP_DIFF_LINES_CASES=6 timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 $D/gpu_differential gpu_line_counts > $O/$tool.txt 2>&1
  echo "$tool rc $?" >> $S
  grep -E "ERROR SUMMARY|test result" $O/$tool.txt >> $S
done
timeout 120 $D/gpu_differential --test-threads=4 > $O/diff.txt 2>&1; echo "rc $?" >> $O/diff.txt
timeout 60 $D/gpu_rule_split --test-threads=12 > $O/rule_split.txt 2>&1; echo "rc $?" >> $O/rule_split.txt
timeout 40 $D/split_file --test-threads=8 > $O/split.txt 2>&1; echo "rc $?" >> $O/split.txt
timeout 150 $D/gpu_end_to_end --test-threads=12 > $O/e2e.txt 2>&1; echo "rc $?" >> $O/e2e.txt
grep -h "test result\|rc \|FAILED\|panicked\|mismatches" $O/diff.txt $O/rule_split.txt $O/split.txt $O/e2e.txt >> $S
cat $S
