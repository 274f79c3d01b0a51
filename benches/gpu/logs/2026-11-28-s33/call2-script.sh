#!/usr/bin/env bash
# session 33, call 2 (16 cores): the staging ring unpinned (and the CUDA
# context released with it) as soon as the pipeline is done, in a thread
# of its own, rather than by the process's exit. Build: call 1's plus
# GPUGREP_EXP_UNPIN (experiment only) and marks "pipeline done", "unpin
# begin", "unregistered", "unpin end". A = marks + forget, D = A + unpin
# early. 16 GiB of CI logs in 64 files, 1,000 and 10,000 rules, auto, -h
# into /dev/null; 3 rounds alternating (-n), 2 (-c); md5 A / D.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt; M=$O/marks.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
V() { case $1 in A) echo "GPUGREP_EXP_MARKS=1 GPUGREP_EXP_FORGET=1";; D) echo "GPUGREP_EXP_MARKS=1 GPUGREP_EXP_FORGET=1 GPUGREP_EXP_UNPIN=1";; esac; }
T() { # label, variant, args...
  local label=$1 v=$2; shift 2
  echo "== $label $v start $(date +%s.%N)" >> $M
  env $(V $v) /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt $D/gpugrep "$@" > /dev/null 2>> $M
  echo "== $label $v end $(date +%s.%N)" >> $M
  echo "$label $v: $(cat $O/t.txt)" >> $S; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3 4; do
  for v in A D; do
    for n in 1000 10000; do
      T "-n $n" $v -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L
    done
  done
done
for r in 1 2; do
  for v in A D; do
    for n in 1000 10000; do
      T "-c $n" $v -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r $L
    done
  done
done
for v in A D; do
  env $(V $v) $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L 2>/dev/null | md5sum | sed "s/^/md5 -n 1000 $v /" >> $S
done
cat $S
