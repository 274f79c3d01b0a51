#!/usr/bin/env bash
# session 22, call 5: the session's last code (981c74d: auto's gate with
# the CPU's recent pace, a file's offsets merged by a stable sort): GPU
# suites, and -n on the real GPU with 1 MiB chunks (every piece of a
# file cut and merged) against --engine cpu.
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
for a in "-n x" "-n -b -e x -e 99" "-n -C1 -e 12345 -e 777" "-c -e 42 -e x"; do
  g=$(GPUGREP_GPU_CHUNK=1M $D/gpugrep --engine gpu -j16 $a /dev/shm/f.txt | md5sum); c=$($D/gpugrep --engine cpu -j16 $a /dev/shm/f.txt | md5sum)
  echo "chunk 1M '$a' gpu $g cpu $c $([ "$g" = "$c" ] && echo SAME || echo DIFF)" >> $S
done
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential gpu_rule_split gpu_real_world; do
  timeout 150 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
for t in split_file walk_order cli_patterns cli_stats; do
  GPUGREP_TEST_ENGINE=gpu timeout 100 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $? $(grep 'test result' $O/suite-gpu-$t.log)" >> $S
done
cat $S
