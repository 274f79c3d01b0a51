#!/usr/bin/env bash
# session 33, call 1 (16 cores): where issue 17's time outside the search
# goes. Build: 369973b plus timestamps (GPUGREP_EXP_MARKS: main, run,
# compiled, gpu scope joined, flow dropped, searched, dropped, exit) and
# two switches, experiment only: GPUGREP_EXP_FORGET (the run's shared
# state and item lists leaked, not dropped) and GPUGREP_EXP_UEXIT (stdout
# flushed, then _exit: no atexit handlers, CUDA's included).
# A = marks, B = + forget, C = + forget + _exit. 16 GiB of CI logs in 64
# files, 1,000 and 10,000 rules, auto, -h into /dev/null; 3 rounds
# alternating; perf (realtime clock) of A's -n; md5 A / C.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt; M=$O/marks.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
V() { case $1 in A) echo "GPUGREP_EXP_MARKS=1";; B) echo "GPUGREP_EXP_MARKS=1 GPUGREP_EXP_FORGET=1";; C) echo "GPUGREP_EXP_MARKS=1 GPUGREP_EXP_FORGET=1 GPUGREP_EXP_UEXIT=1";; esac; }
T() { # label, variant, args...
  local label=$1 v=$2; shift 2
  echo "== $label $v start $(date +%s.%N)" >> $M
  env $(V $v) /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt $D/gpugrep "$@" > /dev/null 2>> $M
  echo "== $label $v end $(date +%s.%N)" >> $M
  echo "$label $v: $(cat $O/t.txt)" >> $S; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for v in A B C; do
    for n in 1000 10000; do
      T "-n $n" $v -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L
    done
  done
done
for r in 1 2; do
  for v in A C; do
    for n in 1000 10000; do
      T "-c $n" $v -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r $L
    done
  done
done
for v in A C; do
  env $(V $v) $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L 2>/dev/null | md5sum | sed "s/^/md5 -n 1000 $v /" >> $S
  env $(V $v) $D/gpugrep -j16 -n -E -f /dev/shm/rules/rules-1000.txt -r $L 2>/dev/null | wc -c | sed "s/^/bytes -n 1000 names $v /" >> $S
done
for n in 1000 10000; do
  echo "== perf $n start $(date +%s.%N)" >> $M
  GPUGREP_EXP_MARKS=1 P record -k realtime -F 1999 -e cpu-clock -o /tmp/p$n.data -- $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L > /dev/null 2>> $M
  echo "== perf $n end $(date +%s.%N)" >> $M
  P script -i /tmp/p$n.data -F comm,tid,time,sym,dso 2>/dev/null | xz -T4 -3 > $O/script-n$n.txt.xz
done
cat $S
