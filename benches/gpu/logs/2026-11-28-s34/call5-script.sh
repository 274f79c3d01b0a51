#!/usr/bin/env bash
# session 34, call 5 (16 cores): a rule pack's literal DFA (the CPU
# engine's `RuleSet`) built on a thread of its own instead of in the
# compile, against 8702310 ("prev"). 16 GiB of CI logs in 64 files,
# 1,000 rules, auto, -h into /dev/null: -c and -n, 8 rounds alternating;
# the compile alone (an empty input), 5 runs each; 10,000 rules -c, 2
# rounds; the CPU engine's -c of 1,000 rules over 4 of the files (1 GiB),
# 3 rounds; --debug of both; md5.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules
T() { /usr/bin/time -f "%e s %M KB %U user %S sys" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { case $1 in prev) echo $D/gpugrep-prev;; *) echo $D/gpugrep;; esac; }
$D/gpugrep -j16 -h -c -E -f $R/rules-1000.txt -r $L > /dev/null
for r in 1 2 3 4 5 6 7 8; do
  for b in prev new; do
    echo "-c 1000 $b: $(T $(B $b) -j16 -h -c -E -f $R/rules-1000.txt -r $L)" >> $S
    echo "-n 1000 $b: $(T $(B $b) -j16 -h -n -E -f $R/rules-1000.txt -r $L)" >> $S
  done
done
: > /dev/shm/empty
for r in 1 2 3 4 5; do
  for b in prev new; do
    echo "compile 1000 $b: $(T $(B $b) -j16 -c -E -f $R/rules-1000.txt /dev/shm/empty)" >> $S
  done
done
for r in 1 2; do
  for b in prev new; do
    echo "-c 10000 $b: $(T $(B $b) -j16 -h -c -E -f $R/rules-10000.txt -r $L)" >> $S
  done
done
F=$(find $L -type f | sort | head -4)
for r in 1 2 3; do
  for b in prev new; do
    echo "cpu -c 1000 $b: $(T $(B $b) --engine cpu -j16 -h -c -E -f $R/rules-1000.txt $F)" >> $S
  done
done
for b in prev new; do
  $(B $b) -j16 -h -n -E -f $R/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -h -n 1000 $b /" >> $S
  $(B $b) --engine cpu -j16 -n -E -f $R/rules-1000.txt $F | md5sum | sed "s/^/md5 cpu -n 1000 $b /" >> $S
  $(B $b) --debug -j16 -h -c -E -f $R/rules-1000.txt -r $L 2>&1 >/dev/null | grep -E "started after|ready after|staging|packer" | sed "s/^/$b /" >> $S
done
cat $S
