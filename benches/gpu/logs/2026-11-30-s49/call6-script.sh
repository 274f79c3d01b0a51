#!/usr/bin/env bash
# session 49, call 6: which finder the race keeps (--stats' new line) for
# the e-mail-or-URL alternation over 1 GiB of loghub at 16 and 2 threads,
# three runs each, with rg beside.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
L=/dev/shm/real/loghub-1G
P='\w+@\w+\.\w+|https?://[^ ]+'
TIMEFORMAT=%R
for j in 16 2; do
  for k in 1 2 3; do
    t=$( { time $D/gpugrep --stats --engine cpu -j$j -c -E "$P" -r $L > $X/g.txt 2>$X/e.txt; } 2>&1 )
    r=$( { time $D/rg -j$j -c "$P" $L > $X/r.txt 2>&1; } 2>&1 )
    echo "-j$j: gpugrep $t rg $r: $(grep 'race' $X/e.txt)" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
