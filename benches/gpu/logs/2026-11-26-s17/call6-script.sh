#!/usr/bin/env bash
# ad hoc (session 17): call 5 found the session's build slower than
# fe1d86a on bom -c -i and bimodal on tree ipv4 at -j16. Which change:
# fe1d86a (prev), the lead widened only (widen), widened + files opened
# in their held directory (new = 123c686); rg. 15 alternating runs each.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=64M \
  MANY_SIZE=64M BIG_SIZE=64M benches/everyday $E --only '^none$' --reps 1 --no-grep > $O/corpora.txt 2>&1
ms() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
cases=("tree|-c -E ([0-9]{1,3}\.){3}[0-9]{1,3}" "bom|-c -i josé" "bom|-c -i linux" "bom|-c -F josé" "tree|-c -F include")
for c in "${cases[@]}"; do
  dir=${c%%|*}; a=${c#*|}; ra=${a/-E /}
  for b in gpugrep gpugrep-widen gpugrep-prev; do $D/$b --engine cpu -j16 -r $a $E/$dir > /dev/null 2>&1; done
  for rep in $(seq 15); do
    for b in gpugrep gpugrep-widen gpugrep-prev; do echo "$b $dir $a $(ms $D/$b --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt; done
    echo "rg $dir $a $(ms $D/rg -j16 $ra $E/$dir)" >> $O/low.txt
  done
done
