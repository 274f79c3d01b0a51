#!/usr/bin/env bash
# ad hoc (session 15, call 4): 543e370 against b4eee49 on the walk and on 8 logs of 128 MiB.
set -u
O=$OUT; D=/dev/shm/rules/logs-16G; B=/dev/shm/big
.dev/gpugrep-corpus --kind logs --out $D --size 16G --files 64 > $O/corpus.txt 2>&1
.dev/gpugrep-corpus --kind logs --out $B --size 1G --files 8 >> $O/corpus.txt 2>&1
t() { local tag=$1; shift; timeout 30 /usr/bin/time -f "$tag %e s, user %U sys %S, %M KB, faults %R" "$@" > $O/out 2>>$O/time.txt; echo "$tag md5 $(md5sum < $O/out | cut -c1-12)" >> $O/time.txt; }
for round in 1 2; do
 for a in "-n -F INFO" "-n -F ERROR"; do
  t "r$round walk new  $a" .dev/gpugrep --engine cpu -j16 -h $a -r $D
  t "r$round walk b4ee $a" .dev/gpugrep-prev --engine cpu -j16 -h $a -r $D
 done
 for a in "-n -F ERROR" "-n -F INFO"; do
  t "r$round big new  $a" .dev/gpugrep --engine cpu -j16 -h $a -r $B
  t "r$round big b4ee $a" .dev/gpugrep-prev --engine cpu -j16 -h $a -r $B
  t "r$round big rg   $a" .dev/rg -j16 --no-filename $a $B
 done
done
t "walk rg -n -F ERROR" .dev/rg -j16 --no-filename -n -F ERROR $D
rm -f $O/out
