#!/usr/bin/env bash
# session 35, call 1 (16 cores): the readers' copy taken from a map that
# the printers read again (membw's mc and mcr) against pread and a
# separate map's touch (pt, both); then -h -n and -c of 1,000 rules, the
# session's starting build, 3 runs each.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; free -g; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules
$D/membw 16 $(find $L -type f | sort) >> $S 2>&1
$D/membw 16 $(find $L -type f | sort) >> $S 2>&1
T() { /usr/bin/time -f "%e s %M KB %U user %S sys" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
for r in 1 2 3; do
  echo "-n 1000 head: $(T $D/gpugrep-head -j16 -h -n -E -f $R/rules-1000.txt -r $L)" >> $S
  echo "-c 1000 head: $(T $D/gpugrep-head -j16 -h -c -E -f $R/rules-1000.txt -r $L)" >> $S
done
$D/gpugrep-head -j16 -h -n -E -f $R/rules-1000.txt -r $L --stats 2> $O/stats-n.txt > /dev/null
cat $S
