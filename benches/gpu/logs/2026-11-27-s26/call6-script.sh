#!/usr/bin/env bash
# session 26, call 6 (H100, nvidia-h100-x1): the multi kernel alone at
# ee38192 ("base") and 3d6e550 ("D", the session's kernel) on prose with
# 1,000 and 10,000 real words, plain and folded; the GPU suites at 3d6e550.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for v in base D base D; do
  echo "== $v" >> $O/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0" >> $O/bench.txt
  $D/kb-$v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns" >> $O/bench.txt
done
rm -rf $W
export GPUGREP_BIN=$D/gpugrep
for t in gpu_differential gpu_end_to_end gpu_rule_split gpu_fold gpu_ignore_case gpu_start; do
  timeout 150 $D/$t --test-threads=12 > $O/t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/t.log)" >> $S
  { echo "== $t"; grep -v "^test .* ok$" $O/t.log; } >> $O/suites.log
done
GPUGREP_TEST_ENGINE=gpu timeout 120 $D/split_file --test-threads=12 > $O/t.log 2>&1; echo "suite gpu-engine split_file $? $(grep 'test result' $O/t.log)" >> $S
{ echo "== gpu-engine split_file"; grep -v "^test .* ok$" $O/t.log; } >> $O/suites.log; rm -f $O/t.log
cat $S
