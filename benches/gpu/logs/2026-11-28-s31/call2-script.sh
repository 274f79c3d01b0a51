#!/usr/bin/env bash
# session 31, call 2 (H100 host): printed lines of a file the GPU saw whole
# need no NUL watch (count_terminators flags each 64 KiB block that holds
# a NUL; FileOffsets::holds_no_nul). old = c281fa9, new = the change.
# (a) issue 17's -n: 16 GiB of CI logs in 64 files, 1,000 rules, -h -n
# into /dev/null, auto, 3 rounds alternating; md5 of the outputs;
# (b) the dense literal pair on the GPU path (-n -F -e INFO -e WARN);
# (c) perf flat profile of new -n; (d) GPU tests of the change.
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
for r in 1 2 3; do
  for b in old new; do
    bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
    echo "logs auto -n 1000 rules $b: $(T $bin -j16 -h -n -E -f $R -r /dev/shm/logs)" >> $S
  done
done
for r in 1 2; do
  for b in old new; do
    bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
    echo "logs gpu -n INFO|WARN $b: $(T $bin --engine gpu -j16 -h -n -F -e INFO -e WARN -r /dev/shm/logs)" >> $S
  done
done
for b in old new; do
  bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
  $bin -j16 -h -n -E -f $R -r /dev/shm/logs | md5sum | sed "s/^/md5 rules $b /" >> $S
  $bin --engine gpu -j16 -h -n -F -e INFO -e WARN -r /dev/shm/logs | md5sum | sed "s/^/md5 pair $b /" >> $S
done
$D/gpugrep -j16 -h -n --stats -E -f $R -r /dev/shm/logs 2>&1 >/dev/null | grep "gpu stages" >> $S
P record -F 997 -e cpu-clock -o /tmp/flat.data -- $D/gpugrep -j16 -h -n -E -f $R -r /dev/shm/logs > /dev/null 2>> $O/perf-err.txt
P report -i /tmp/flat.data --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -60 > $O/flat-n-new.txt
rm -rf /dev/shm/logs
export GPUGREP_BIN=$D/gpugrep
timeout 60 $D/gpu_differential gpu_line_counts_match_naive_counts > $O/diff-lines.txt 2>&1; echo "rc $?" >> $O/diff-lines.txt
timeout 90 $D/gpu_rule_split --test-threads=12 > $O/rule_split.txt 2>&1; echo "rc $?" >> $O/rule_split.txt
timeout 60 $D/split_file --test-threads=8 > $O/split.txt 2>&1; echo "rc $?" >> $O/split.txt
timeout 150 $D/gpu_end_to_end --test-threads=12 > $O/e2e.txt 2>&1; echo "rc $?" >> $O/e2e.txt
grep -h "test result\|rc \|FAILED\|panicked\|mismatches" $O/diff-lines.txt $O/rule_split.txt $O/split.txt $O/e2e.txt >> $S
cat $S
