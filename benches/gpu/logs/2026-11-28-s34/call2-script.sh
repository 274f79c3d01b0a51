#!/usr/bin/env bash
# session 34, call 2 (16 cores): where the printers' time goes once the
# GPU counts the gaps: four builds, 3 rounds alternating, -h -n of 1,000
# and 10,000 rules over 16 GiB of CI logs in 64 files, auto, into
# /dev/null. prev = 8702310; prev-pf = prev with the marks' walk
# prefetching the line 6 marks ahead (calls2-prefetch-prev.patch); new =
# 8702310 + the mark gaps (calls1-2-mark-gaps.patch, its first part); pf =
# new with the same prefetch (its second part). md5 of each.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { case $1 in new) echo $D/gpugrep;; *) echo $D/gpugrep-$1;; esac; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for b in prev prev-pf new pf; do
    for n in 1000 10000; do
      echo "-n $n $b: $(T $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in prev prev-pf new pf; do
  $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -h -n 1000 $b /" >> $S
done
cat $S
