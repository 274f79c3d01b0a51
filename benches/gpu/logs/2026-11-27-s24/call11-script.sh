#!/usr/bin/env bash
# session 24, call 11: the -c cliff of 100 rules on the GPU path (call 10:
# -c 9.5-10.5 s, lines and output 112-148 s over 16 threads; -n 2.0 s,
# 22 s): files whole in one chunk (256 MiB chunks) against cut ones, -l,
# --count-matches, and --debug of -c and -n.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-100.txt
t() { local name=$1; shift; local s=$(date +%s%N); "$@" > /dev/null 2> $O/st.txt; echo "$name $(( ($(date +%s%N)-s)/1000000 )) ms $(grep 'stages' $O/st.txt | head -1)" >> $S; }
t "-c chunk 256M" env GPUGREP_GPU_CHUNK=256M $D/gpugrep --engine gpu --stats -j16 -h -c -E -f $R -r $L
t "-c default" $D/gpugrep --engine gpu --stats -j16 -h -c -E -f $R -r $L
t "-l" $D/gpugrep --engine gpu --stats -j16 -l -E -f $R -r $L
t "--count-matches" $D/gpugrep --engine gpu --stats -j16 -h --count-matches -E -f $R -r $L
t "-c -j1 (4 files)" $D/gpugrep --engine gpu --stats -j1 -h -c -E -f $R $(find $L -name '*.log' | sort | head -4)
t "-n -j1 (4 files)" $D/gpugrep --engine gpu --stats -j1 -h -n -E -f $R $(find $L -name '*.log' | sort | head -4)
$D/gpugrep --engine gpu --debug -j16 -h -c -E -f $R -r $L 2> $O/debug-c.txt > /dev/null
rm -f $O/st.txt
cat $S
