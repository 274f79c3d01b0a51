#!/usr/bin/env bash
# session 23, call 6: what a GPU run's exit costs, and whether the staging
# ring's size is it: one literal over a one-line file, and -c / -n of
# 1,000 rules over 16 GiB of logs, with the default ring (1 GiB) and
# smaller ones; wall time against --stats' seconds.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
echo "one line INFO" > /dev/shm/small
for r in 1 2 3; do
  for g in 1G 64M; do
    s=$(date +%s%N); $D/gpugrep --engine gpu --gpu-staging $g -c -F INFO /dev/shm/small > /dev/null; echo "small staging $g $(ms $s) ms" >> $S
  done
done
$D/gpugrep --engine gpu --debug --stats -c -F INFO /dev/shm/small > /dev/null 2> $O/debug-small.txt
mkdir -p /dev/shm/rules && python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
R=/dev/shm/rules/rules-1000.txt; L=/dev/shm/rules/logs-16G
for r in 1 2; do
  for g in 1G 512M 256M; do
    s=$(date +%s%N); $D/gpugrep --engine gpu --gpu-staging $g -j16 --stats -h -c -E -f $R -r $L 2> $O/st.txt > /dev/null; echo "rules -c staging $g wall $(ms $s) ms; $(grep seconds $O/st.txt)" >> $S
    s=$(date +%s%N); $D/gpugrep --engine gpu --gpu-staging $g -j16 --stats -h -n -E -f $R -r $L 2> $O/st.txt > /dev/null; echo "rules -n staging $g wall $(ms $s) ms; $(grep seconds $O/st.txt)" >> $S
  done
done
cat $S
