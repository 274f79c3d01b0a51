#!/usr/bin/env bash
# session 34, call 3 (16 cores): do the pipeline's lanes wait for a core
# under -n? An experiment build (8702310 + call3-nice-experiment.patch:
# GPUGREP_EXP_NICE_{WORKERS,READERS,LANES} set the nice value of the
# printing workers, the readers and the lanes, each thread its own).
# 16 GiB of CI logs in 64 files, -h -n of 1,000 and 10,000 rules, auto,
# into /dev/null, 3 rounds alternating: A as built; B workers +5; C workers
# and readers +5 (the lanes ahead of both); D readers +5 (the printing
# ahead of the readers); -c of 1,000 rules once each; md5 of A and C.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
V() { case $1 in A) echo "";; B) echo "GPUGREP_EXP_NICE_WORKERS=5";; C) echo "GPUGREP_EXP_NICE_WORKERS=5 GPUGREP_EXP_NICE_READERS=5";; D) echo "GPUGREP_EXP_NICE_READERS=5";; esac; }
G=$D/gpugrep-exp
$G -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for v in A B C D; do
    for n in 1000 10000; do
      echo "-n $n $v: $(T env $(V $v) $G -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for v in A B C D; do
  echo "-c 1000 $v: $(T env $(V $v) $G -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L)" >> $S
done
for v in A C; do
  env $(V $v) $G -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -h -n 1000 $v /" >> $S
done
cat $S
