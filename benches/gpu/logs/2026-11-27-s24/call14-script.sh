#!/usr/bin/env bash
# session 24, call 14: call 13's new -c (6.5-7.3 s) against call 12's
# XSPLIT1 build (1.7-2.0 s there) on one machine, alternating, --stats.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-100.txt
t() { local name=$1; shift; local s=$(date +%s%N); "$@" > /dev/null 2> $O/st.txt; echo "$name $(( ($(date +%s%N)-s)/1000000 )) ms $(grep 'stages' $O/st.txt | head -1 | grep -o 'lines and output.*')" >> $S; }
for r in 1 2; do
  t "new -c" $D/gpugrep --engine gpu --stats -j16 -h -c -E -f $R -r $L
  t "x XSPLIT1 -c" env XSPLIT1=1 $D/gpugrep-x --engine gpu --stats -j16 -h -c -E -f $R -r $L
  t "x plain -c" $D/gpugrep-x --engine gpu --stats -j16 -h -c -E -f $R -r $L
done
$D/gpugrep --engine gpu --debug --stats -j16 -h -c -E -f $R -r $L 2> $O/debug-new.txt > /dev/null
cat $S
