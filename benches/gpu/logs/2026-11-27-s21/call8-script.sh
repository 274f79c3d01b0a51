#!/usr/bin/env bash
# session 21, call 8: the session's last code (a file given to the CPU
# left unread): GPU suites, and that path on the real GPU with the match
# cap lowered (GPUGREP_GPU_FILE_MARKS), against --engine cpu.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 -c '
import random
r = random.Random(5)
with open("/dev/shm/f.txt", "w") as f:
    for i in range(3000000):
        f.write("line %d %s\n" % (i, "x" if r.random() < 0.3 else "y"))
'
for m in 1000 100000; do
  a=$(GPUGREP_GPU_FILE_MARKS=$m GPUGREP_GPU_CHUNK=1M $D/gpugrep --engine gpu --stats -n x /dev/shm/f.txt 2>$O/stats-$m.txt | md5sum)
  b=$($D/gpugrep --engine cpu -n x /dev/shm/f.txt | md5sum)
  echo "marks $m gpu $a cpu $b $([ "$a" = "$b" ] && echo SAME || echo DIFF)" >> $S
  grep -h "given to\|fallback" $O/stats-$m.txt >> $S
done
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_rule_split gpu_differential; do
  timeout 150 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
for t in cli_stats split_file; do
  GPUGREP_TEST_ENGINE=gpu timeout 110 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $? $(grep 'test result' $O/suite-gpu-$t.log)" >> $S
done
cat $S
