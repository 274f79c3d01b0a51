#!/usr/bin/env bash
# session 21, call 2: (1) the CPU engine's -n over 20,000 files of 860 KB
# (call 1: 12.45 s, against 5.78 s over 400,000 files of 43 KB), perf;
# (2) one 16 GiB BOM file, with files that start with a BOM now split
# (new) against call 1's 48 s; (3) 20,000 LF files without BOM.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export LD_LIBRARY_PATH=$D/perflib
{ nproc; nvidia-smi -L; cat /proc/sys/kernel/perf_event_paranoid; $D/perf --version; } > $O/machine.txt 2>&1
S=$O/summary.txt
t() { # LABEL CMD... : time into summary, output lines counted
  local l=$1; shift
  local s=$(date +%s%N)
  local n=$("$@" 2>>$O/err.txt | wc -l)
  echo "$l $(( ($(date +%s%N) - s) / 1000000 )) ms lines $n" >> $S
}
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
W=/dev/shm/a.words-1000.txt
for r in 1 2; do
  t "a cpu -n new" $D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a
  t "a cpu -n prev" $D/gpugrep-prev --engine cpu -j16 -r -n -F -f $W /dev/shm/a
  t "a cpu -c new" $D/gpugrep --engine cpu -j16 -r -c -F -f $W /dev/shm/a
done
s=$(date +%s%N); $D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a > /dev/null; echo "a cpu -n >/dev/null $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $S
t "a cpu -n map all (GPUGREP_SPLIT_MIN=64K)" env GPUGREP_SPLIT_MIN=65536 $D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a
t "a cpu -n -j8" $D/gpugrep --engine cpu -j8 -r -n -F -f $W /dev/shm/a
t "a rg -n" $D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/a
$D/perf stat -e task-clock,context-switches,cpu-migrations,page-faults -o $O/perf-stat-n.txt $D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a | wc -l >> $S 2>&1
$D/perf record -F 499 -g -o /dev/shm/perf.data $D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a 2>>$O/err.txt | wc -l >> $S
$D/perf report -i /dev/shm/perf.data --stdio --no-children --percent-limit 0.7 2>&1 | head -400 > $O/perf-report-n.txt
$D/perf report -i /dev/shm/perf.data --stdio --no-children --sort comm,dso --percent-limit 0.5 -g none 2>&1 | head -60 >> $O/perf-report-n.txt
rm -f /dev/shm/perf.data
rm -rf /dev/shm/a
echo "--- c: one file" >> $S
python3 benches/gpu/gen-prose.py $D/words /dev/shm/cp 16 256 --no-bom >> $S 2>&1
mkdir -p /dev/shm/c; printf '\xef\xbb\xbf' > /dev/shm/c/big.txt
for f in /dev/shm/cp/d*/f*; do cat $f >> /dev/shm/c/big.txt; rm $f; done
W=/dev/shm/cp.words-1000.txt
for a in "-c" "-w -c" "-i -c" "-n" "-l"; do
  t "c cpu $a new" $D/gpugrep --engine cpu -j16 -r $a -F -f $W /dev/shm/c
  t "c gpu $a" $D/gpugrep --engine gpu -j16 -r $a -F -f $W /dev/shm/c
  t "c auto $a" $D/gpugrep -j16 -r $a -F -f $W /dev/shm/c
done
/usr/bin/time -f "%e s %M KB" -o $O/c-mem.txt $D/gpugrep --engine cpu -j16 -r -c -F -f $W /dev/shm/c >> $S
cat $O/c-mem.txt >> $S
rm -rf /dev/shm/c /dev/shm/cp
echo "--- b: LF, no BOM" >> $S
env OUT=/tmp/bout SETS=1000 CASES="-c|-w -c|-i -c|-l" C=/dev/shm/b SIZE_GIB=16 FILES=20000 GEN_FLAGS="--lf --no-bom" bash benches/gpu/realworld.sh > $O/b-20k-lf.txt 2>&1
cat $S
