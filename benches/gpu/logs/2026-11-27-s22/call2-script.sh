#!/usr/bin/env bash
# session 22, call 2 (0567f01): floors of issue 16's rows and where the
# rule pack's -n goes. (a) 20,000 BOM files, 1,000 words: dense -n into
# `wc -l` and into /dev/null for gpu/cpu/rg, and the consumer alone (the
# same 12 GB of output from a file through `cat | wc -l`); (b) 400,000
# files: -l under auto/cpu/gpu/rg, auto's --stats and --debug, and
# open+read+close of every file (openat-bench.c, 16 threads); (c) 16 GiB
# of logs, 1,000 rules, --engine gpu -n >/dev/null: time, --stats, and a
# perf profile of a frame-pointer build.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export LD_LIBRARY_PATH=$D/perflib
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; df -h /dev/shm | tail -1; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# (a)
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
W=/dev/shm/a.words-1000.txt
$D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a > /dev/shm/out.txt
echo "output bytes $(stat -c %s /dev/shm/out.txt)" >> $S
for r in 1 2; do
  s=$(date +%s%N); n=$(cat /dev/shm/out.txt | wc -l); echo "a cat out|wc -l $(ms $s) ms $n" >> $S
  s=$(date +%s%N); cat /dev/shm/out.txt | cat > /dev/null; echo "a cat out|cat >null $(ms $s) ms" >> $S
  s=$(date +%s%N); cat /dev/shm/out.txt > /dev/null; echo "a cat out >null $(ms $s) ms" >> $S
  for e in gpu cpu auto; do
    s=$(date +%s%N); n=$($D/gpugrep --engine $e -j16 -r -n -F -f $W /dev/shm/a | wc -l); echo "a $e -n |wc $(ms $s) ms $n" >> $S
    s=$(date +%s%N); $D/gpugrep --engine $e -j16 -r -n -F -f $W /dev/shm/a > /dev/null; echo "a $e -n >null $(ms $s) ms" >> $S
  done
  s=$(date +%s%N); n=$($D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/a | wc -l); echo "a rg -n |wc $(ms $s) ms $n" >> $S
  s=$(date +%s%N); $D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/a > /dev/null; echo "a rg -n >null $(ms $s) ms" >> $S
done
$D/gpugrep --engine gpu -j16 --stats -r -n -F -f $W /dev/shm/a 2> $O/stats-gpu-n-a-null.txt > /dev/null
rm -rf /dev/shm/a /dev/shm/a.* /dev/shm/out.txt
# (b)
python3 benches/gpu/gen-prose.py $D/words /dev/shm/b 16 400000 >> $S 2>&1
W=/dev/shm/b.words-1000.txt
for r in 1 2; do
  for e in cpu auto gpu; do
    s=$(date +%s%N); n=$($D/gpugrep --engine $e -j16 -r -l -F -f $W /dev/shm/b | wc -l); echo "b $e -l $(ms $s) ms $n" >> $S
  done
  s=$(date +%s%N); n=$($D/rg --no-config -uu -a -j16 -l -F -f $W /dev/shm/b | wc -l); echo "b rg -l $(ms $s) ms $n" >> $S
  $D/oa 0 16 /dev/shm/b >> $S 2>&1
  $D/oa 1 16 /dev/shm/b >> $S 2>&1
done
$D/gpugrep -j16 --stats --debug -r -l -F -f $W /dev/shm/b 2> $O/stats-auto-l-b.txt > /dev/null
s=$(date +%s%N); n=$(find /dev/shm/b -type f | wc -l); echo "b find -type f $(ms $s) ms $n" >> $S
rm -rf /dev/shm/b /dev/shm/b.*
# (c)
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
R=/dev/shm/rules/rules-1000.txt; L=/dev/shm/rules/logs-16G
for r in 1 2; do
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null; echo "c gpu -n >null $(ms $s) ms" >> $S
  s=$(date +%s%N); $D/gpugrep-fp --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null; echo "c gpu-fp -n >null $(ms $s) ms" >> $S
  s=$(date +%s%N); n=$($D/gpugrep --engine gpu -j16 -h -c -E -f $R -r $L | awk '{s+=$1} END {print s}'); echo "c gpu -c $(ms $s) ms $n" >> $S
done
$D/gpugrep --engine gpu -j16 --stats -h -n -E -f $R -r $L 2> $O/stats-gpu-n-rules.txt > /dev/null
$D/perf record -F 499 -g -o /dev/shm/perf.data $D/gpugrep-fp --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null 2>>$O/err.txt
$D/perf report -i /dev/shm/perf.data --stdio --no-children --percent-limit 0.5 2>&1 | head -500 > $O/perf-rules-n.txt
$D/perf report -i /dev/shm/perf.data --stdio --children --sort sym --percent-limit 1 -g none 2>&1 | head -150 >> $O/perf-rules-n.txt
$D/perf report -i /dev/shm/perf.data --stdio --no-children --sort comm,dso --percent-limit 0.5 -g none 2>&1 | head -60 >> $O/perf-rules-n.txt
rm -f /dev/shm/perf.data
cat $S
