#!/usr/bin/env bash
# session 25, call 4 (new: 93e8e88, outputs packed while they wait for a
# listing; prev: 79e255d): bom-lit and three more of the BOM directory's
# cases, peak memory and time, 7 rounds alternating prev / new / rg; the
# everyday matrix at 16 threads (issue 15); the GPU suites over the
# changed output path.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 290 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
tail -4 $O/everyday-16.txt >> $S
for r in 1 2 3 4 5 6 7; do
  for b in prev new rg; do
    case $b in prev) c="$D/gpugrep-prev --engine cpu";; new) c="$D/gpugrep --engine cpu";; rg) c="$D/rg --no-config -uu -a";; esac
    /usr/bin/time -f "%e s %M KB" -o $O/t.txt $c -j16 -r -n -F kernel $E/bom > /dev/null; echo "bom-lit $b $(cat $O/t.txt)" >> $S
    /usr/bin/time -f "%e s %M KB" -o $O/t.txt $c -j16 -r -n -w Linux $E/bom > /dev/null; echo "bom-n $b $(cat $O/t.txt)" >> $S
    /usr/bin/time -f "%e s %M KB" -o $O/t.txt $c -j16 -r -c -F kernel $E/bom > /dev/null; echo "bom-c $b $(cat $O/t.txt)" >> $S
  done
done
echo "md5 bom-lit prev $($D/gpugrep-prev -j16 -r -n -F kernel $E/bom | md5sum | cut -c1-8) new $($D/gpugrep -j16 -r -n -F kernel $E/bom | md5sum | cut -c1-8) j1 $($D/gpugrep -j1 -r -n -F kernel $E/bom | md5sum | cut -c1-8)" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential gpu_rule_split gpu_start; do
  timeout 45 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
for t in cli_stats walk_order; do
  GPUGREP_TEST_ENGINE=gpu timeout 45 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu-engine $t $? $(grep 'test result' $O/suite-gpu-$t.log)" >> $S
done
cat $S
