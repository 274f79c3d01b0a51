#!/usr/bin/env bash
# session 32, call 4 (16 cores): a pack's exact marks walked in order by
# the plain-line search (Matcher::line_starts, Searcher::next_marked_line).
# old = 7d75261, prev = fc7c7be (plain lines, calls 2-3), new = this
# change. 16 GiB of CI logs in 64 files, -h -n into /dev/null, 1,000 and
# 10,000 rules (auto), 3 rounds alternating; md5 of every output (also
# with file names); gpu_rule_split, split_file, gpu_end_to_end on the GPU.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { case $1 in old) echo $D/gpugrep-old;; prev) echo $D/gpugrep-prev;; *) echo $D/gpugrep;; esac; }
L=/dev/shm/logs
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for b in old prev new; do
    for n in 1000 10000; do
      echo "auto -n $n rules $b: $(T $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in old new; do
  for n in 1000 10000; do
    $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L | md5sum | sed "s/^/md5 rules $n $b /" >> $S
  done
  $(B $b) -j16 -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 rules 1000 (names) $b /" >> $S
done
rm -rf /dev/shm/logs
export GPUGREP_BIN=$D/gpugrep
for t in gpu_rule_split split_file gpu_end_to_end; do
  timeout 150 $D/$t --test-threads=12 > $O/$t.txt 2>&1; echo "rc $?" >> $O/$t.txt
  grep -h "test result\|rc \|FAILED\|panicked" $O/$t.txt | sed "s/^/$t: /" >> $S
done
cat $S
