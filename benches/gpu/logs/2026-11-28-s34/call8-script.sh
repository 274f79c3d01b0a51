#!/usr/bin/env bash
# session 34, call 8 (16 cores): the marks' walk prefetching the line 6
# marks ahead (calls2-prefetch-prev.patch on a1615d1: "pf") against
# a1615d1 ("head"), 6 rounds alternating, -h -n of 1,000 and 10,000 rules
# over 16 GiB of CI logs in 64 files, auto, into /dev/null; md5.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules
T() { /usr/bin/time -f "%e s %M KB %U user %S sys" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
$D/gpugrep-head -j16 -h -c -E -f $R/rules-1000.txt -r $L > /dev/null
for r in 1 2 3 4 5 6; do
  for b in head pf; do
    for n in 1000 10000; do
      echo "-n $n $b: $(T $D/gpugrep-$b -j16 -h -n -E -f $R/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in head pf; do
  $D/gpugrep-$b -j16 -h -n -E -f $R/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -h -n 1000 $b /" >> $S
done
cat $S
