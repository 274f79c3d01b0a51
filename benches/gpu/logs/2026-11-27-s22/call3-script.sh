#!/usr/bin/env bash
# session 22, call 3: auto's gate with the CPU's pace over its last 10 ms
# (new) against 0567f01 (prev), 3 rounds alternating: -l of 1,000 words
# over 20,000 and 400,000 files (the CPU is fast: the gate should stay
# shut), -l of 10,000 words made absent (each + "qx") over 20,000 files
# (the CPU is slow: the gate should open); the GPU path's -n of 1,000
# rules over 16 GiB of logs (offsets merged by a stable sort), prev/new.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
W=/dev/shm/a.words-1000.txt; sed 's/$/qx/' /dev/shm/a.words-10000.txt > /dev/shm/absent.txt
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); n=$(gg $b -j16 -r -l -F -f $W /dev/shm/a | wc -l); echo "a $b auto -l $(ms $s) ms $n" >> $S
    s=$(date +%s%N); n=$(gg $b -j16 -r -l -F -f /dev/shm/absent.txt /dev/shm/a | wc -l); echo "a $b auto -l absent $(ms $s) ms $n" >> $S
  done
done
s=$(date +%s%N); n=$($D/gpugrep --engine cpu -j16 -r -l -F -f $W /dev/shm/a | wc -l); echo "a cpu -l $(ms $s) ms $n" >> $S
s=$(date +%s%N); n=$(timeout 60 $D/gpugrep --engine cpu -j16 -r -l -F -f /dev/shm/absent.txt /dev/shm/a | wc -l); echo "a cpu -l absent $(ms $s) ms $n" >> $S
s=$(date +%s%N); n=$($D/gpugrep --engine gpu -j16 -r -l -F -f /dev/shm/absent.txt /dev/shm/a | wc -l); echo "a gpu -l absent $(ms $s) ms $n" >> $S
$D/gpugrep -j16 --debug -r -l -F -f $W /dev/shm/a 2> $O/debug-auto-l-a.txt > /dev/null
$D/gpugrep -j16 --debug --stats -r -l -F -f /dev/shm/absent.txt /dev/shm/a 2> $O/debug-auto-l-absent.txt > /dev/null
rm -rf /dev/shm/a /dev/shm/a.* /dev/shm/absent.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/b 16 400000 >> $S 2>&1
W=/dev/shm/b.words-1000.txt
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); n=$(gg $b -j16 -r -l -F -f $W /dev/shm/b | wc -l); echo "b $b auto -l $(ms $s) ms $n" >> $S
  done
  s=$(date +%s%N); n=$($D/gpugrep --engine cpu -j16 -r -l -F -f $W /dev/shm/b | wc -l); echo "b cpu -l $(ms $s) ms $n" >> $S
done
$D/gpugrep -j16 --debug -r -l -F -f $W /dev/shm/b 2>&1 > /dev/null | grep -v "^/dev/shm" > $O/debug-auto-l-b.txt
rm -rf /dev/shm/b /dev/shm/b.*
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
R=/dev/shm/rules/rules-1000.txt; L=/dev/shm/rules/logs-16G
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); gg $b --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null; echo "c $b gpu -n >null $(ms $s) ms" >> $S
  done
done
$D/gpugrep --engine gpu -j16 -h -n -E -f $R -r $L | md5sum >> $S
$D/gpugrep-prev --engine gpu -j16 -h -n -E -f $R -r $L | md5sum >> $S
$D/gpugrep --engine gpu -j16 --stats -h -n -E -f $R -r $L 2> $O/stats-gpu-n-rules.txt > /dev/null
cat $S
