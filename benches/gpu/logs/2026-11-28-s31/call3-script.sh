#!/usr/bin/env bash
# session 31, call 3 (H100 host): call 2's change plus a selected line at
# a line start taken without looking back (Searcher::next_matching_line)
# and line numbers written two digits at a time (output::decimal).
# old = c281fa9. (a) issue 17's -n (16 GiB of CI logs, 64 files, 1,000
# rules, auto), 4 rounds alternating; (b) the dense literal pair on the
# GPU path; (c) the CPU engine's dense -n -F INFO; md5 of each output;
# (d) perf flat profile of new; (e) gpu_rule_split, split_file.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
R=/dev/shm/rules/rules-1000.txt
$D/gpugrep -j16 -h -c -E -f $R -r /dev/shm/logs > /dev/null
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { [[ $1 == old ]] && echo $D/gpugrep-old || echo $D/gpugrep; }
for r in 1 2 3 4; do
  for b in old new; do
    echo "logs auto -n 1000 rules $b: $(T $(B $b) -j16 -h -n -E -f $R -r /dev/shm/logs)" >> $S
  done
done
for r in 1 2; do
  for b in old new; do
    echo "logs gpu -n INFO|WARN $b: $(T $(B $b) --engine gpu -j16 -h -n -F -e INFO -e WARN -r /dev/shm/logs)" >> $S
    echo "logs cpu -n INFO $b: $(T $(B $b) --engine cpu -j16 -h -n -F INFO -r /dev/shm/logs)" >> $S
  done
done
for b in old new; do
  $(B $b) -j16 -h -n -E -f $R -r /dev/shm/logs | md5sum | sed "s/^/md5 rules $b /" >> $S
  $(B $b) --engine gpu -j16 -h -n -F -e INFO -e WARN -r /dev/shm/logs | md5sum | sed "s/^/md5 pair $b /" >> $S
  $(B $b) --engine cpu -j16 -h -n -F INFO -r /dev/shm/logs | md5sum | sed "s/^/md5 cpu INFO $b /" >> $S
done
$D/gpugrep -j16 -h -n --stats -E -f $R -r /dev/shm/logs 2>&1 >/dev/null | grep "gpu stages" >> $S
P record -F 997 -e cpu-clock -o /tmp/flat.data -- $D/gpugrep -j16 -h -n -E -f $R -r /dev/shm/logs > /dev/null 2>> $O/perf-err.txt
P report -i /tmp/flat.data --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -60 > $O/flat-n-new.txt
rm -rf /dev/shm/logs
export GPUGREP_BIN=$D/gpugrep
timeout 90 $D/gpu_rule_split --test-threads=12 > $O/rule_split.txt 2>&1; echo "rc $?" >> $O/rule_split.txt
timeout 60 $D/split_file --test-threads=8 > $O/split.txt 2>&1; echo "rc $?" >> $O/split.txt
grep -h "test result\|rc \|FAILED\|panicked" $O/rule_split.txt $O/split.txt >> $S
cat $S
