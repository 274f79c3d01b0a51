#!/usr/bin/env bash
# session 24, call 9: why 100 rules took the GPU path 9.8 s in call 8
# (2.4 s in the eleventh session): --debug --stats of gpu and cpu over the
# 16 GiB of logs, and of gpu over one log.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-100.txt
s=$(date +%s%N); $D/gpugrep --engine gpu --debug --stats -j16 -h -c -E -f $R -r $L > /dev/null 2> $O/gpu-16G.txt; echo "gpu $(( ($(date +%s%N)-s)/1000000 )) ms" >> $S
s=$(date +%s%N); $D/gpugrep --engine cpu --stats -j16 -h -c -E -f $R -r $L > /dev/null 2> $O/cpu-16G.txt; echo "cpu $(( ($(date +%s%N)-s)/1000000 )) ms" >> $S
F=$(find $L -name '*.log' | sort | head -1)
GPUGREP_GPU_TRACE=1 $D/gpugrep --engine gpu --debug --stats -j16 -c -E -f $R $F > /dev/null 2> $O/gpu-1.txt

cat $S
