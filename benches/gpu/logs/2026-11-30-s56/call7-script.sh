#!/usr/bin/env bash
# session 56, call 7: call 6's wrong -n lines, narrowed: the marks shipped
# as the bitmap or as offsets (a scratch build, GG_SHIP), and the
# templates without their 3 literal-less rules (no automaton kernel).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
[ -d $W/loghub-16G ] || python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
B=/dev/shm/big8; mkdir -p $B
[ -n "$(ls $B)" ] || for f in $(ls $W/loghub-16G | grep -E 'Proxifier|Linux' | head -8); do cp $W/loghub-16G/$f $B/; done
R=$W/rules-templates.txt; R2=$D/templates-noauto.txt
G=$D/gg-ship
echo "truth -c: $($G --engine cpu -j16 -h -c -E -f $R -r $B | awk '{s+=$1} END {print s}'); without the 3: $($G --engine cpu -j16 -h -c -E -f $R2 -r $B | awk '{s+=$1} END {print s}') after $SECONDS s" >> $S
n() { local l=$1; shift; echo "$l: $(env "$@" -h -n -r $B | wc -l)" >> $S; }
for i in 1 2; do
  n "ship default" $G --engine gpu -j16 -E -f $R
  n "ship bitmap" GG_SHIP=bitmap $G --engine gpu -j16 -E -f $R
  n "ship offsets chunk 16M" GG_SHIP=offsets GPUGREP_GPU_CHUNK=16M $G --engine gpu -j16 -E -f $R
  n "no automaton rules" $G --engine gpu -j16 -E -f $R2
  n "no automaton rules, ship bitmap" GG_SHIP=bitmap $G --engine gpu -j16 -E -f $R2
done
echo "all done after $SECONDS s" >> $S
cat $S
