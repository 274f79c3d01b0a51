#!/usr/bin/env bash
# session 33, call 7 (16 cores): main's allocator keeps freed memory a
# second while a GPU pipeline runs (run::on_gpu_pipeline), as built,
# against e03e3a9 ("prev"). 16 GiB of CI logs in 64 files, 1,000 and
# 10,000 rules, auto, -h -n into /dev/null, 3 rounds alternating; md5;
# the --debug line.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { case $1 in prev) echo $D/gpugrep-prev;; *) echo $D/gpugrep;; esac; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for b in prev new; do
    for n in 1000 10000; do
      echo "-n $n $b: $(T $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in prev new; do
  $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -n 1000 $b /" >> $S
done
$D/gpugrep --debug -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L 2>&1 >/dev/null | grep "freed memory" >> $S
cat $S
