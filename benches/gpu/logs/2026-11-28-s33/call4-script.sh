#!/usr/bin/env bash
# session 33, call 4 (16 cores): call 3's change plus a pack's marked
# lines numbered on the way to their ends (count::count_then_find,
# Searcher::next_marked_line), against 369973b ("old"). 16 GiB of CI logs
# in 64 files, 1,000 and 10,000 rules, auto, -h into /dev/null: 5 rounds
# alternating (-n), 1 (-c); md5 of several option sets; flat profile of
# the new -n of 1,000 rules; gpu_rule_split, split_file, gpu_end_to_end.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { case $1 in old) echo $D/gpugrep-old;; *) echo $D/gpugrep;; esac; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3 4 5; do
  for b in old new; do
    for n in 1000 10000; do
      echo "-n $n $b: $(T $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in old new; do
  for n in 1000 10000; do
    echo "-c $n $b: $(T $(B $b) -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
  done
done
for b in old new; do
  for n in 1000 10000; do
    $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L | md5sum | sed "s/^/md5 -h -n $n $b /" >> $S
  done
  $(B $b) -j16 -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -n 1000 (names) $b /" >> $S
  $(B $b) -j16 -n -v -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -n -v 1000 $b /" >> $S
  $(B $b) -j16 -n -b -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -n -b 1000 $b /" >> $S
  $(B $b) --engine gpu -j16 -n -e INFO -e WARN -r $L | md5sum | sed "s/^/md5 gpu -n INFO|WARN $b /" >> $S
  echo "gpu -n INFO|WARN $b: $(T $(B $b) --engine gpu -j16 -n -e INFO -e WARN -r $L)" >> $S
done
P record -F 997 -e cpu-clock -o /tmp/flat.data -- $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null 2>> $O/perf-err.txt
P report -i /tmp/flat.data --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -60 > $O/flat-n1000.txt
rm -rf /dev/shm/logs
export GPUGREP_BIN=$D/gpugrep
for t in gpu_rule_split split_file gpu_end_to_end; do
  timeout 120 $D/$t --test-threads=12 > $O/$t.txt 2>&1; echo "rc $?" >> $O/$t.txt
  grep -h "test result\|rc \|FAILED\|panicked" $O/$t.txt | sed "s/^/$t: /" >> $S
done
cat $S
