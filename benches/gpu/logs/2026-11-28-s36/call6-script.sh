#!/usr/bin/env bash
# session 36, call 6 (16 cores): the committed code (e994614: windows of at
# most 2 variants, the confirm kernel's fold) through the split and
# rule-pack tests on the GPU, and 10,000 rules' -c -i over 16 GiB once.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
GPUGREP_BIN=$D/gpugrep GPUGREP_SPLIT_CASES=60 timeout 120 $D/gpu_rule_split > $O/gpu_rule_split.txt 2>&1; echo "gpu_rule_split rc $?" >> $S
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=20 timeout 120 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 10000 > /dev/null
for r in 1 2; do
  timeout 60 /usr/bin/time -f "%e s %M KB" -o $O/t.txt $D/gpugrep -j16 -h -c -i -E -f /dev/shm/rules/rules-10000.txt -r /dev/shm/l16 > $O/ans.txt 2>/dev/null
  echo "16G -c -i 10000: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
done
cat $S
