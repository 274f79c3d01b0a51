#!/usr/bin/env bash
# session 18, call 5: pieces of a split file sized by thread count (2 MiB
# at 16 threads; gpugrep) against the 4 MiB of call 4's build
# (gpugrep-prev) and rg, -j16, over big/ (8 logs, 1 GiB), 5 rounds alternating.
set -u
O=$OUT; D=$PWD/.dev; B=/dev/shm/big
nproc > $O/machine.txt
$D/gpugrep-corpus --kind logs --out $B --size 1G --files 8 > $O/corpus.txt 2>&1
for a in "-n -F ERROR" "-n -F INFO" "-c -F INFO"; do
  for g in gpugrep gpugrep-prev; do echo "$g $a $($D/$g --engine cpu -j16 -r $a $B | md5sum)" >> $O/md5.txt; done
  echo "rg $a $($D/rg -j1 --sort path $a $B | md5sum)" >> $O/md5.txt
done
for r in 1 2 3 4 5; do for a in "-n -F ERROR" "-n -F INFO" "-c -F INFO"; do
  for g in gpugrep gpugrep-prev; do /usr/bin/time -f "$g|$a|%e|%M" $D/$g --engine cpu -j16 -r $a $B > /dev/null 2>> $O/mem.txt; done
  /usr/bin/time -f "rg|$a|%e|%M" $D/rg -j16 $a $B > /dev/null 2>> $O/mem.txt
done; done
cat $O/md5.txt
awk -F'|' '{k=$1" "$2; n[k]++; t[k]+=$3; m[k]+=$4} END {for (k in n) printf "%-32s %.3f s %.0f KB\n", k, t[k]/n[k], m[k]/n[k]}' $O/mem.txt | sort -k2
