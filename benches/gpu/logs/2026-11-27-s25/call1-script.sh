#!/usr/bin/env bash
# session 25, call 1 (5e14c61): where `-n` of 1,000 rules spends its time
# (issue 17): 16 GiB of logs, --engine gpu with GPUGREP_GPU_TRACE=1
# --debug --stats (each chunk's and file's timeline); -c and -n timings of
# 100 and 1,000 rules (auto, gpu; the 100-rule -c after 834ff42's
# confirm_threads rule), cpu md5s.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 100 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G
R1=/dev/shm/rules/rules-1000.txt; R0=/dev/shm/rules/rules-100.txt
GPUGREP_GPU_TRACE=1 $D/gpugrep --engine gpu --debug --stats -j16 -h -n -E -f $R1 -r $L 2> $O/trace-n-1000.txt | wc -l >> $S
GPUGREP_GPU_TRACE=1 $D/gpugrep --engine gpu --debug --stats -j16 -h -c -E -f $R1 -r $L 2> $O/trace-c-1000.txt > /dev/null
for r in 1 2 3; do
  for e in auto gpu; do
    s=$(date +%s%N); $D/gpugrep --engine $e -j16 -h -n -E -f $R1 -r $L > /dev/null; echo "1000 -n $e $(ms $s) ms" >> $S
    s=$(date +%s%N); $D/gpugrep --engine $e -j16 -h -c -E -f $R1 -r $L > /dev/null; echo "1000 -c $e $(ms $s) ms" >> $S
    s=$(date +%s%N); $D/gpugrep --engine $e -j16 -h -c -E -f $R0 -r $L > $O/c100-$e.txt; echo "100 -c $e $(ms $s) ms" >> $S
  done
done
s=$(date +%s%N); $D/gpugrep --engine cpu -j16 -h -c -E -f $R0 -r $L > $O/c100-cpu.txt; echo "100 -c cpu $(ms $s) ms" >> $S
$D/gpugrep --engine gpu --stats -j16 -h -c -E -f $R0 -r $L 2> $O/stats-c-100.txt > /dev/null
echo "md5 100 -c auto $(md5sum < $O/c100-auto.txt | cut -c1-8) gpu $(md5sum < $O/c100-gpu.txt | cut -c1-8) cpu $(md5sum < $O/c100-cpu.txt | cut -c1-8)" >> $S
echo "md5 1000 -n gpu $($D/gpugrep --engine gpu -j16 -h -n -E -f $R1 -r $L | md5sum | cut -c1-8) cpu $($D/gpugrep --engine cpu -j16 -h -n -E -f $R1 -r $L | md5sum | cut -c1-8)" >> $S
rm -f $O/c100-*.txt
cat $S
