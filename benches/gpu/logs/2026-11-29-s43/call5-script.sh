#!/usr/bin/env bash
# session 43, call 5 (16 cores): do the windows (08fbfc2, "new") cost the
# -x packs anything against 80dfb53 ("c2")? 4 rounds alternating.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
C=/dev/shm/ci; $D/gpugrep-corpus --kind logs --size 16G --files 64 --out $C > $X/ci.txt 2>&1
new=$D/gpugrep; c2=$D/gg-c2
for r in 1 2 3 4; do
  for v in c2 new; do
    for n in 1000 10000; do
      timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt ${!v} --engine cpu -j16 -h -x -c -E -f $D/rules/rules-$n.txt -r $C > $X/ans.txt 2>&1
      echo "$n -x -c cpu $v: $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
    done
  done
done
rm -rf $C
cat $S
