#!/usr/bin/env bash
# session 32, call 2 (16 cores): plain lines (Searcher::search_plain, the
# printer's buffer written by the searcher) and line numbers eight digits
# at once (output::decimal::push_decimal). old = 7d75261. 16 GiB of CI logs
# in 64 files, -h into /dev/null, 3 rounds alternating: issue 17's -n
# (1,000 and 10,000 rules, auto), the CPU engine's dense -n -F INFO, the
# GPU path's dense -n of a literal pair and sparse -n; md5 of each output
# old/new; GPU suites (gpu_end_to_end, gpu_rule_split, split_file).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { [[ $1 == old ]] && echo $D/gpugrep-old || echo $D/gpugrep; }
L=/dev/shm/logs
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for b in old new; do
    for n in 1000 10000; do
      echo "auto -n $n rules $b: $(T $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
    echo "cpu -n INFO $b: $(T $(B $b) --engine cpu -j16 -h -n -F INFO -r $L)" >> $S
    echo "gpu -n INFO|WARN $b: $(T $(B $b) --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L)" >> $S
    echo "gpu -n 'status 187' $b: $(T $(B $b) --engine gpu -j16 -h -n -F 'status 187' -r $L)" >> $S
  done
done
for b in old new; do
  for n in 1000 10000; do
    $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L | md5sum | sed "s/^/md5 rules $n $b /" >> $S
  done
  $(B $b) --engine cpu -j16 -n -F INFO -r $L | md5sum | sed "s/^/md5 cpu INFO (names) $b /" >> $S
  $(B $b) --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L | md5sum | sed "s/^/md5 gpu pair $b /" >> $S
  $(B $b) --engine gpu -j16 -n -F 'status 187' -r $L | md5sum | sed "s/^/md5 gpu sparse (names) $b /" >> $S
done
$D/gpugrep -j16 -h -n --stats -E -f /dev/shm/rules/rules-1000.txt -r $L 2>&1 >/dev/null | grep "gpu stages" >> $S
rm -rf /dev/shm/logs
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_rule_split split_file; do
  timeout 120 $D/$t --test-threads=12 > $O/$t.txt 2>&1; echo "rc $?" >> $O/$t.txt
  grep -h "test result\|rc \|FAILED\|panicked" $O/$t.txt | sed "s/^/$t: /" >> $S
done
cat $S
