#!/usr/bin/env bash
# session 25, call 3: dense output's buffers kept (new: the working tree
# after 5e14c61: the shelf keeps as many parts as the printer's bound
# holds, piece printers' and recorders' buffers reused) against 5e14c61
# (prev): 16 GiB of logs, 16 threads, 3 rounds alternating, wall, user,
# system time and page faults; md5 new = prev.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R1=/dev/shm/rules/rules-1000.txt
t() { local name=$1 b=$2; shift 2; local bin=$D/gpugrep; [ $b = prev ] && bin=$D/gpugrep-prev
  /usr/bin/time -f "%e s user %U sys %S minflt %R" -o $O/t.txt $bin -j16 -h "$@" -r $L > /dev/null; echo "$name $b $(cat $O/t.txt)" >> $S; }
for r in 1 2 3; do
  for b in prev new; do
    t rules-n $b -n -E -f $R1
    t rules-n-gpu $b --engine gpu -n -E -f $R1
    t lits-n-gpu $b --engine gpu -n -F -e INFO -e WARN
    t cpu-n-INFO $b --engine cpu -n -F INFO
  done
done
for b in prev new; do
  bin=$D/gpugrep; [ $b = prev ] && bin=$D/gpugrep-prev
  echo "md5 $b rules-n $($bin -j16 -h -n -E -f $R1 -r $L | md5sum | cut -c1-8) lits-n-gpu $($bin --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L | md5sum | cut -c1-8) cpu-n-INFO $($bin --engine cpu -j16 -h -n -F INFO -r $L | md5sum | cut -c1-8)" >> $S
done
$D/gpugrep --stats --debug -j16 -h -n -E -f $R1 -r $L 2> $O/stats-rules-n-new.txt > /dev/null
cat $S
