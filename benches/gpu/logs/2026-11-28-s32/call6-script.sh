#!/usr/bin/env bash
# session 32, call 6 (16 cores): plain lines' numbers written from the
# last one's digits (output::decimal::Counter). prev = 771715f's build
# (the same code as a814d43's),
# new = the change. 16 GiB of CI logs in 64 files, -h into /dev/null, 3
# rounds alternating: 1,000 and 10,000 rules -n (auto), the CPU engine's
# -n -F INFO; md5 of each output.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
L=/dev/shm/logs
$D/gpugrep-prev -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for b in prev new; do
    for n in 1000 10000; do
      echo "auto -n $n rules $b: $(T $D/gpugrep-$b -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
    echo "cpu -n INFO $b: $(T $D/gpugrep-$b --engine cpu -j16 -h -n -F INFO -r $L)" >> $S
  done
done
for b in prev new; do
  $D/gpugrep-$b -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 rules 1000 $b /" >> $S
  $D/gpugrep-$b --engine cpu -j16 -n -F INFO -r $L | md5sum | sed "s/^/md5 cpu INFO (names) $b /" >> $S
done
cat $S
