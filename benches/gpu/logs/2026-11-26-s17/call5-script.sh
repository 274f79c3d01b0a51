#!/usr/bin/env bash
# ad hoc (session 17): call 4's low cases timed in nanoseconds (call 4's
# /usr/bin/time had 10 ms steps): this session's build (.dev/gpugrep,
# 8ac81ca's code = 123c686) against fe1d86a (.dev/gpugrep-prev) and rg,
# -j16, alternating, 15 runs each after a warm-up; peak memory of bom-lit.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=64M \
  MANY_SIZE=400M BIG_SIZE=64M benches/everyday $E --only '^none$' --reps 1 --no-grep > $O/corpora.txt 2>&1
ms() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
cases=("tree|-c -E ([0-9]{1,3}\.){3}[0-9]{1,3}" "tree|-c -i todo" "tree|-c -F include" "tree|-n -F mutex_lock(&"
       "bom|-c -i josé" "bom|-l -w Linux" "bom|-c -i linux" "bom|-n -F kernel" "many|-l FATAL" "many|-c -i error")
for c in "${cases[@]}"; do
  dir=${c%%|*}; a=${c#*|}
  ra=${a/-E /}
  $D/gpugrep --engine cpu -j16 -r $a $E/$dir > /dev/null 2>&1; $D/rg -j16 $ra $E/$dir > /dev/null 2>&1
  for rep in $(seq 15); do
    echo "new  $dir $a $(ms $D/gpugrep --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt
    echo "prev $dir $a $(ms $D/gpugrep-prev --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt
    echo "rg   $dir $a $(ms $D/rg -j16 $ra $E/$dir)" >> $O/low.txt
  done
done
for b in gpugrep gpugrep-prev; do for i in 1 2 3; do /usr/bin/time -f "$b bom-lit %e s %M KB" $D/$b --engine cpu -j16 -r -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt; done; done
for i in 1 2 3; do /usr/bin/time -f "rg bom-lit %e s %M KB" $D/rg -j16 -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt; done
cat $O/mem.txt
