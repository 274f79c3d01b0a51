#!/usr/bin/env bash
# session 23, call 1: -n line counts from the GPU (count_terminators, new:
# the working tree after eed3c70) against eed3c70 (prev): --engine gpu -n
# over 16 GiB of logs (64 files of 256 MiB, each split), 1,000 rules and
# two literals, 3 rounds alternating; md5 new = prev = cpu; one log with
# 1 MiB chunks (every file cut into many pieces) against the CPU engine;
# the kernel's differential test and compute-sanitizer on it.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
GPUGREP_DIFF_LINES_CASES=150 timeout 120 $D/gpu_differential gpu_line_counts --nocapture > $O/diff-lines.log 2>&1; echo "diff lines $? $(grep -E 'line counts:|test result' $O/diff-lines.log | tr '\n' ' ')" >> $S
GPUGREP_DIFF_LINES_CASES=12 timeout 150 compute-sanitizer --tool memcheck $D/gpu_differential gpu_line_counts --nocapture > $O/sanitizer-lines.log 2>&1; echo "sanitizer lines $? $(grep -E 'ERROR SUMMARY|test result' $O/sanitizer-lines.log | tr '\n' ' ')" >> $S
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
R=/dev/shm/rules/rules-1000.txt; L=/dev/shm/rules/logs-16G
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); gg $b --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null; echo "rules $b gpu -n >null $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L > /dev/null; echo "lits $b gpu -n >null $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b --engine gpu -j16 -h -n -F -e 'status 187' -r $L > /dev/null; echo "sparse $b gpu -n >null $(ms $s) ms" >> $S
  done
done
for b in prev new; do echo "rules $b md5 $(gg $b --engine gpu -j16 -h -n -E -f $R -r $L | md5sum)" >> $S; done
echo "rules cpu md5 $($D/gpugrep --engine cpu -j16 -h -n -E -f $R -r $L | md5sum)" >> $S
for b in prev new; do echo "lits $b md5 $(gg $b --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L | md5sum)" >> $S; done
echo "lits cpu md5 $($D/gpugrep --engine cpu -j16 -h -n -F -e INFO -e WARN -r $L | md5sum)" >> $S
F=$(find $L -name '*.log' | sort | head -1)
for a in "-n -F ERROR" "-n -b -F WARN" "-n -C1 -F FATAL" "-n -v -F INFO" "-n -o -F FATAL"; do
  g=$(GPUGREP_GPU_CHUNK=1M $D/gpugrep --engine gpu -j16 $a $F | md5sum); c=$($D/gpugrep --engine cpu -j16 $a $F | md5sum)
  echo "one file chunk 1M '$a' gpu $g cpu $c $([ "$g" = "$c" ] && echo SAME || echo DIFF)" >> $S
done
$D/gpugrep --engine gpu -j16 --stats -h -n -E -f $R -r $L 2> $O/stats-new-rules-n.txt > /dev/null
$D/gpugrep-prev --engine gpu -j16 --stats -h -n -E -f $R -r $L 2> $O/stats-prev-rules-n.txt > /dev/null
cat $S
