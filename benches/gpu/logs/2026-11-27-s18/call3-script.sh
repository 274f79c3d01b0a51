#!/usr/bin/env bash
# session 18, call 3: the session's code before the matrix (call 4): GPU
# tests touched by the Input change (names printed on the GPU path) and the
# walk order under the GPU engine; peak memory and times against 209839f
# (gpugrep-prev) and rg, -j16.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
nproc > $O/machine.txt
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 150 $D/$t --test-threads=4 > $O/suite-$t.log 2>&1; echo "suite $t $?" >> $O/summary.txt
done
for t in walk_order cli_patterns; do
  GPUGREP_TEST_ENGINE=gpu timeout 150 $D/$t --test-threads=4 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $?" >> $O/summary.txt
done
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=64M \
  MANY_SIZE=400M BIG_SIZE=64M benches/everyday $E --only '^none$' --reps 1 --no-grep > $O/corpora.txt 2>&1
mcases=("bom|-n -F kernel" "bom|-c -F kernel" "bom|-n -w Linux" "bom|-o -E [A-Z][a-z]+ing" "many|-c -F ERROR" "tree|-n -F mutex_lock(&" "tree|-c -F include")
for r in 1 2 3 4 5; do for c in "${mcases[@]}"; do
  dir=${c%%|*}; a=${c#*|}
  for b in gpugrep gpugrep-prev; do /usr/bin/time -f "$b|$dir $a|%e|%M" $D/$b --engine cpu -j16 -r $a $E/$dir > /dev/null 2>> $O/mem.txt; done
  /usr/bin/time -f "rg|$dir $a|%e|%M" $D/rg -j16 $a $E/$dir > /dev/null 2>> $O/mem.txt
done; done
ms() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
cases=("bom|-n -F kernel" "bom|-c -i josé" "bom|-l -w Linux" "bom|-c -i linux" "bom|-n -w Linux"
       "tree|-c -i todo" "tree|-n -F mutex_lock(&" "many|-l FATAL" "many|-c -F ERROR")
for c in "${cases[@]}"; do
  dir=${c%%|*}; a=${c#*|}
  $D/gpugrep --engine cpu -j16 -r $a $E/$dir > /dev/null 2>&1; $D/rg -j16 $a $E/$dir > /dev/null 2>&1
  for rep in $(seq 15); do
    echo "new  $dir $a $(ms $D/gpugrep --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt
    echo "prev $dir $a $(ms $D/gpugrep-prev --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt
    echo "rg   $dir $a $(ms $D/rg -j16 $a $E/$dir)" >> $O/low.txt
  done
done
python3 benches/gpu/logs/2026-11-27-s18/medians.py $O/low.txt > $O/medians.txt 2>&1
cat $O/summary.txt $O/medians.txt
awk -F'|' '$4 ~ /^[0-9]+$/ {k=$1" "$2; n[k]++; m[k]+=$4} END {for (k in n) printf "%-45s %.0f KB\n", k, m[k]/n[k]}' $O/mem.txt | sort -k2
