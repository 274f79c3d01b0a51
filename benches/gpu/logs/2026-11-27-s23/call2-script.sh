#!/usr/bin/env bash
# session 23, call 2: the GPU suites at the working tree of call 1 (line
# counts from the GPU), and where a GPU run's time goes outside its
# --stats seconds: a rule pack's compile, CUDA's start, the exit.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
mkdir -p /dev/shm/rules && python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
R=/dev/shm/rules/rules-1000.txt; : > /dev/shm/empty; echo "one line INFO" > /dev/shm/small
for r in 1 2 3; do
  for e in cpu gpu; do
    s=$(date +%s%N); $D/gpugrep --engine $e -c -E -f $R /dev/shm/empty > /dev/null; echo "compile rules-1000 $e empty $(ms $s) ms" >> $S
    s=$(date +%s%N); $D/gpugrep --engine $e -c -F INFO /dev/shm/small > /dev/null; echo "one literal $e small $(ms $s) ms" >> $S
  done
done
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G
for r in 1 2; do
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 --stats -h -n -E -f $R -r $L 2> $O/stats-$r.txt > /dev/null; echo "rules gpu -n --stats wall $(ms $s) ms; $(grep seconds $O/stats-$r.txt)" >> $S
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 --stats -h -c -E -f $R -r $L 2> $O/stats-c-$r.txt > /dev/null; echo "rules gpu -c --stats wall $(ms $s) ms; $(grep seconds $O/stats-c-$r.txt)" >> $S
done
rm -rf /dev/shm/rules/logs-16G
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential gpu_rule_split gpu_real_world; do
  timeout 150 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
for t in split_file cli_stats walk_order; do
  GPUGREP_TEST_ENGINE=gpu timeout 60 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $? $(grep 'test result' $O/suite-gpu-$t.log)" >> $S
done
cat $S
