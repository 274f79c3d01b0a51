#!/usr/bin/env bash
# session 45, call 1 (16 cores): rule packs under -w with the dense-aware
# line finder and the mixed pack's finder relaxed and trimmed (new) against
# ec88be9 (base) and rg; templates -c; how the templates' -c scales from 4
# to 16 threads (user time, flat profiles).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; lscpu | head -20; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(head -c 100 $X/err.txt | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "templates -w -c cpu $v" ${!v} --engine cpu -j16 -h -w -c -E -f $T -r $L
  done
  t "templates -w -c rg" $D/rg -j16 -w -c --no-filename -f $T $L
  for v in base new; do
    t "templates -c cpu $v" ${!v} --engine cpu -j16 -h -c -E -f $T -r $L
  done
  t "templates -c rg" $D/rg -j16 -c --no-filename -f $T $L
done
for v in base new; do
  t "gitleaks -w -c cpu $v" ${!v} --engine cpu -j16 -h -w -c -P -f $G -r $L
  t "templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $L
done
echo "16G done after $SECONDS s" >> $S
# One file of each of the 16 types (4 GiB): user time at -j4 and -j16.
F=$(ls $L/*-0.log)
for j in 4 16; do
  t "templates -c cpu new -j$j, 16 files" $new --engine cpu -j$j -h -c -E -f $T $F
  t "templates -c rg -j$j, 16 files" $D/rg -j$j -c --no-filename -f $T $F
done
for j in 4 16; do
  P record -F 499 -e cpu-clock -o $X/p$j.data -- $new --engine cpu -j$j -h -c -E -f $T $F > /dev/null 2>> $O/perf-err.txt
  P report -i $X/p$j.data --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -40 > $O/flat-c-j$j.txt
done
echo "all done after $SECONDS s" >> $S
cat $S
