#!/usr/bin/env bash
# session 34, call 1 (16 cores): -n of a pack's exact marks numbered from
# the GPU's mark gaps (kernels/tally.cu: mark_gaps; 8702310 +
# calls1-2-mark-gaps.patch, its first part, built), against 8702310
# ("prev"). The new kernel under compute-sanitizer (memcheck, racecheck);
# 16 GiB of CI logs in 64 files, 1,000 and 10,000 rules, auto, -h -n into
# /dev/null, 4 rounds alternating; -c once each; md5; --stats; a flat
# profile of the new -n of 1,000 rules.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
for tool in memcheck racecheck; do
  GPUGREP_DIFF_GAPS_CASES=6 timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 $D/gpu_differential gpu_mark_gaps > $O/$tool.txt 2>&1
  echo "$tool rc $?" >> $S
  grep -E "ERROR SUMMARY|test result|mark gaps:" $O/$tool.txt >> $S
done
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { case $1 in prev) echo $D/gpugrep-prev;; *) echo $D/gpugrep;; esac; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3 4; do
  for b in prev new; do
    for n in 1000 10000; do
      echo "-n $n $b: $(T $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in prev new; do
  echo "-c 1000 $b: $(T $(B $b) -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L)" >> $S
done
for b in prev new; do
  for n in 1000 10000; do
    $(B $b) -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L | md5sum | sed "s/^/md5 -h -n $n $b /" >> $S
  done
  $(B $b) -j16 -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -n 1000 names $b /" >> $S
done
$D/gpugrep --stats -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L 2>&1 >/dev/null | grep -E "gpu lines|seconds|fell|cpu:" >> $S
if [ -x $D/perf ]; then
  export LD_LIBRARY_PATH=$D/lib
  $D/perf record -F 997 -g -o $O/perf.data $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null 2> $O/perf-err.txt
  $D/perf report -i $O/perf.data --no-children --sort sym --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -40 > $O/flat-n1000.txt
  rm -f $O/perf.data
  unset LD_LIBRARY_PATH
fi
cat $S
echo "== flat"; head -25 $O/flat-n1000.txt 2>/dev/null
