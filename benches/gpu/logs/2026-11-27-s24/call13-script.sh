#!/usr/bin/env bash
# session 24, call 13: a GPU file's marks confirmed by its own thread where
# lines are counted or files named and the file is below a thread's share
# of the run's bytes (new: the working tree) against df808d3 (prev): 100
# rules over 16 GiB of logs (64 files), -c / --count-matches / -n, gpu and
# auto, 2 rounds; one 4 GiB file (still split); 1,000 rules -c auto; md5.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-100.txt
cat $(find $L -name '*.log' | sort | head -16) > /dev/shm/one.log
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
t() { local name=$1 b=$2; shift 2; local s=$(date +%s%N); gg $b "$@" > $O/out.txt 2>/dev/null; echo "$name $b $(( ($(date +%s%N)-s)/1000000 )) ms $(md5sum < $O/out.txt | cut -c1-8)" >> $S; }
for r in 1 2; do
  for b in prev new; do
    t "100 gpu -c" $b --engine gpu -j16 -h -c -E -f $R -r $L
    t "100 auto -c" $b -j16 -h -c -E -f $R -r $L
    t "100 gpu --count-matches" $b --engine gpu -j16 -h --count-matches -E -f $R -r $L
    t "100 gpu -n" $b --engine gpu -j16 -h -n -E -f $R -r $L
    t "100 gpu -c one 4G file" $b --engine gpu -j16 -c -E -f $R /dev/shm/one.log
    t "1000 auto -c" $b -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L
  done
done
t "100 cpu -c" new --engine cpu -j16 -h -c -E -f $R -r $L
rm -f $O/out.txt
cat $S
