#!/usr/bin/env bash
# session 24, call 10: 100 rules on the GPU path over 16 GiB of logs
# (call 9: 11.1 s, lines and output 148.6 s over 16 threads, lanes busy
# 1.1 s): the per-chunk trace, and the same with a 4 GiB staging ring
# (whether the ring, freed only as files are printed, holds the workers).
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-100.txt
s=$(date +%s%N); GPUGREP_GPU_TRACE=1 $D/gpugrep --engine gpu --debug --stats -j16 -h -c -E -f $R -r $L > /dev/null 2> $O/trace-16G.txt; echo "gpu trace $(( ($(date +%s%N)-s)/1000000 )) ms" >> $S
for g in 4G 1G; do
  s=$(date +%s%N); $D/gpugrep --engine gpu --gpu-staging $g --stats -j16 -h -c -E -f $R -r $L > /dev/null 2> $O/st.txt; echo "gpu staging $g $(( ($(date +%s%N)-s)/1000000 )) ms $(grep 'stages' $O/st.txt)" >> $S
done
s=$(date +%s%N); $D/gpugrep --engine gpu --stats -j16 -h -n -E -f $R -r $L > /dev/null 2> $O/st.txt; echo "gpu -n $(( ($(date +%s%N)-s)/1000000 )) ms $(grep 'stages' $O/st.txt)" >> $S
rm -f $O/st.txt
cat $S
