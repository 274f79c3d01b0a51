#!/usr/bin/env bash
# session 25, call 8 (new: 984e4c5, the session's code; old: 5e14c61):
# dense -n over 16 GiB of logs, 3 rounds alternating, wall, user, system
# time and page faults, md5 new = old; the GPU suites over the lanes'
# changed offset lists (gpu_end_to_end, gpu_differential, split_file under
# the GPU engine).
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R1=/dev/shm/rules/rules-1000.txt
t() { local name=$1 b=$2; shift 2; local bin=$D/gpugrep; [ $b = old ] && bin=$D/gpugrep-old
  /usr/bin/time -f "%e s user %U sys %S minflt %R" -o $O/t.txt $bin -j16 -h "$@" -r $L > /dev/null; echo "$name $b $(cat $O/t.txt)" >> $S; }
for r in 1 2 3; do
  for b in old new; do
    t rules-n $b -n -E -f $R1
    t rules-n-gpu $b --engine gpu -n -E -f $R1
    t lits-n-gpu $b --engine gpu -n -F -e INFO -e WARN
    t cpu-n-INFO $b --engine cpu -n -F INFO
  done
done
for b in old new; do
  bin=$D/gpugrep; [ $b = old ] && bin=$D/gpugrep-old
  echo "md5 $b rules-n $($bin -j16 -h -n -E -f $R1 -r $L | md5sum | cut -c1-8) lits-n-gpu $($bin --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L | md5sum | cut -c1-8)" >> $S
done
rm -rf /dev/shm/rules
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 150 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
GPUGREP_TEST_ENGINE=gpu timeout 120 $D/split_file --test-threads=12 > $O/suite-gpu-split_file.log 2>&1; echo "suite gpu-engine split_file $? $(grep 'test result' $O/suite-gpu-split_file.log)" >> $S
cat $S
