#!/usr/bin/env bash
# session 36, call 5 (16 cores): an experiment, not committed code. "kfold":
# the confirm kernel folds its literal lookup (the text lowered, a flag
# beside slot_log2) and each rule's -i literals are lowered windows priced
# by folded cost (GG_SHARE caps a literal's variants), against "fold"
# (865bd0c's code). Compile, -c -i over 16 GiB, the split and rule-pack
# tests on the GPU, and the split tests under compute-sanitizer.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
R=/dev/shm/rules; : > /dev/shm/empty
T() { local lim=$1; shift; timeout $lim /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2 3; do
  echo "compile 10000 -i fold: $(T 60 $D/gpugrep-fold -j16 -c -i -E -f $R/rules-10000.txt /dev/shm/empty)" >> $S
  echo "compile 10000 -i kfold: $(T 60 $D/gpugrep-kfold -j16 -c -i -E -f $R/rules-10000.txt /dev/shm/empty)" >> $S
  echo "compile 10000 -i kfold share2: $(GG_SHARE=2 T 60 $D/gpugrep-kfold -j16 -c -i -E -f $R/rules-10000.txt /dev/shm/empty)" >> $S
done
$D/gpugrep-kfold --debug -j16 -c -i -E -f $R/rules-10000.txt /dev/shm/empty 2>&1 | grep -o "GPU split: [^,]*\|; compiled.*" >> $S
for r in 1 2; do
  echo "16G -c -i 10000 fold: $(T 60 $D/gpugrep-fold -j16 -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l16)" >> $S
  echo "16G -c -i 10000 kfold: $(T 60 $D/gpugrep-kfold -j16 -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l16)" >> $S
  echo "16G -c -i 10000 kfold share2: $(GG_SHARE=2 T 60 $D/gpugrep-kfold -j16 -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l16)" >> $S
done
echo "16G -c -i 1000 fold: $(T 60 $D/gpugrep-fold -j16 -h -c -i -E -f $R/rules-1000.txt -r /dev/shm/l16)" >> $S
echo "16G -c -i 1000 kfold: $(T 60 $D/gpugrep-kfold -j16 -h -c -i -E -f $R/rules-1000.txt -r /dev/shm/l16)" >> $S
timeout 60 $D/gpugrep-kfold -j16 --stats -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l16 2> $O/stats-kfold.txt > /dev/null
GPUGREP_BIN=$D/gpugrep GPUGREP_SPLIT_CASES=40 timeout 100 $D/gpu_rule_split > $O/gpu_rule_split.txt 2>&1; echo "gpu_rule_split rc $?" >> $S
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=12 timeout 100 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
for tool in memcheck racecheck; do
  GPUGREP_BIN=$D/gpugrep timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $D/gpu_rule_split kernels_match_reference > $O/$tool.txt 2>&1; echo "sanitizer $tool rc $?" >> $S
done
cat $S
