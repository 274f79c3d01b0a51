#!/usr/bin/env bash
# session 24, call 12: the -c cliff of 100 rules on the GPU path: a build
# with two experiment knobs (not committed): XSPLIT1 (a GPU file's confirm
# not split among threads) and XWAIT (a splitting owner waits 50 us for a
# piece, not 1 ms); -c and -n, two rounds.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-100.txt
t() { local name=$1; shift; local s=$(date +%s%N); "$@" > $O/out.txt 2> $O/st.txt; echo "$name $(( ($(date +%s%N)-s)/1000000 )) ms $(md5sum < $O/out.txt | cut -c1-8) $(grep 'stages' $O/st.txt | head -1 | grep -o 'lines and output.*')" >> $S; }
for r in 1 2; do
  for f in -c -n; do
    t "$f plain" $D/gpugrep-x --engine gpu --stats -j16 -h $f -E -f $R -r $L
    t "$f XSPLIT1" env XSPLIT1=1 $D/gpugrep-x --engine gpu --stats -j16 -h $f -E -f $R -r $L
    t "$f XWAIT" env XWAIT=1 $D/gpugrep-x --engine gpu --stats -j16 -h $f -E -f $R -r $L
  done
done
rm -f $O/st.txt $O/out.txt
cat $S
