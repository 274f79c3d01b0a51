#!/usr/bin/env bash
# session 27, call 5 (H100, nvidia-h100-x1): the final build (G3, the new
# tally, auto's one-byte rule for -l/-L/-q only): the GPU suites;
# racecheck and synccheck of gpu_multi and gpu_tally; realworld.sh's -c
# and -v -c rows with 1,000 and 10,000 words.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
for t in gpu_differential gpu_end_to_end gpu_rule_split gpu_fold gpu_ignore_case gpu_start gpu_real_world cli_stats; do
  timeout 150 $D/$t --test-threads=12 > $O/t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/t.log)" >> $S
  { echo "== $t"; grep -v "^test .* ok$" $O/t.log; } >> $O/suites.log
done
GPUGREP_TEST_ENGINE=gpu timeout 120 $D/split_file --test-threads=12 > $O/t.log 2>&1; echo "suite gpu-engine split_file $? $(grep 'test result' $O/t.log)" >> $S
{ echo "== gpu-engine split_file"; grep -v "^test .* ok$" $O/t.log; } >> $O/suites.log; rm -f $O/t.log
for tool in racecheck synccheck; do
  GPUGREP_DIFF_SMALL=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $D/gpu_differential gpu_multi gpu_tally > $O/$tool.txt 2>&1; echo "rc $?" >> $O/$tool.txt
  echo "$tool $(grep -h 'ERROR SUMMARY\|HAZARD\|^rc' $O/$tool.txt | tr '\n' ' ')" >> $S
done
mkdir -p $O/rw
OUT=$O/rw D=$D SETS="10000 1000" CASES="-c|-v -c" SIZE_GIB=16 FILES=20000 C=/dev/shm/rw bash benches/gpu/realworld.sh > $O/realworld.txt 2>&1
for f in $O/rw/rw-stats-*; do echo "== $f"; cat $f; done > $O/stats.txt 2>&1; rm -rf $O/rw
cat $O/realworld.txt >> $S
cat $S
