#!/usr/bin/env bash
# session 43, call 3 (16 cores): is the CPU engine's 1,000-rule -c slower
# at 80dfb53 ("new") than at 467ddf5 ("base")? d339589 ("c1": -x change
# without the per-thread caches' refactor) beside; 5 rounds alternating.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
C=/dev/shm/ci; $D/gpugrep-corpus --kind logs --size 16G --files 64 --out $C > $X/ci.txt 2>&1
base=$D/gg-base; new=$D/gpugrep; c1=$D/gg-c1
R=$D/rules/rules-1000.txt
for r in 1 2 3 4 5; do
  for v in base c1 new; do
    timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt ${!v} --engine cpu -j16 -h -c -E -f $R -r $C > $X/ans.txt 2>&1
    echo "1000 -c cpu $v: $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
  done
done
rm -rf $C
cat $S
