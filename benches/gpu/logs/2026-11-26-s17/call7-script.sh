#!/usr/bin/env bash
# ad hoc (session 17): call 6 again with the lead widening reverted:
# gpugrep = files opened in their held directory only (widen reverted),
# gpugrep-widen = 123c686 (widened + held directory), gpugrep-prev =
# fe1d86a; rg. 15 alternating runs each, -j16.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=64M \
  MANY_SIZE=64M BIG_SIZE=64M benches/everyday $E --only '^none$' --reps 1 --no-grep > $O/corpora.txt 2>&1
ms() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
cases=("tree|-c -E ([0-9]{1,3}\.){3}[0-9]{1,3}" "tree|-c -i todo" "many|-l FATAL" "bom|-c -i josé" "bom|-c -i linux" "bom|-c -F josé" "tree|-c -F include")
for c in "${cases[@]}"; do
  dir=${c%%|*}; a=${c#*|}; ra=${a/-E /}
  for b in gpugrep gpugrep-widen gpugrep-prev; do $D/$b --engine cpu -j16 -r $a $E/$dir > /dev/null 2>&1; done
  for rep in $(seq 15); do
    for b in gpugrep gpugrep-widen gpugrep-prev; do echo "$b $dir $a $(ms $D/$b --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt; done
    echo "rg $dir $a $(ms $D/rg -j16 $ra $E/$dir)" >> $O/low.txt
  done
done
