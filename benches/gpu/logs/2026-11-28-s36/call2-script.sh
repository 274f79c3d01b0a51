#!/usr/bin/env bash
# session 36, call 2 (16 cores): the split's multi kernel on lowered -i
# variants with its fold flag ("fold", 865bd0c) against "new" (fee1e5a, the
# CPU's sets lowered) and head (7663097's code): -c -i over 4 GiB; issue
# 17's rows under -i over 16 GiB (-c of 1,000 and 10,000 rules, -n of
# 1,000) with Hyperscan; the main row without -i; the rule-pack and split
# tests on the GPU.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/l4 --size 4G --files 64 > /dev/null 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
R=/dev/shm/rules
T() { local lim=$1; shift; timeout $lim /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2; do
  for b in new fold; do
    for n in 1000 10000; do
      echo "4G -c -i $n $b auto: $(T 60 $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-$n.txt -r /dev/shm/l4)" >> $S
    done
  done
done
for b in new fold; do
  timeout 60 $D/gpugrep-$b -j16 --debug --stats -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l4 2> $O/stats-4G-i-10000-$b.txt > /dev/null
done
for r in 1 2; do
  for b in head fold; do
    echo "16G -c -i 10000 $b auto: $(T 60 $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l16)" >> $S
    echo "16G -c -i 1000 $b auto: $(T 60 $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-1000.txt -r /dev/shm/l16)" >> $S
  done
done
for r in 1 2; do
  for b in head fold; do
    echo "16G -c 1000 $b auto (no -i): $(T 60 $D/gpugrep-$b -j16 -h -c -E -f $R/rules-1000.txt -r /dev/shm/l16)" >> $S
    echo "16G -n -i 1000 $b auto: $(T 60 $D/gpugrep-$b -j16 -h -n -i -E -f $R/rules-1000.txt -r /dev/shm/l16)" >> $S
  done
done
timeout 60 $D/gpugrep-fold -j16 --stats -h -c -i -E -f $R/rules-10000.txt -r /dev/shm/l16 2> $O/stats-16G-i-10000.txt > /dev/null
echo "16G hsgrep -i 10000: $(T 150 $D/hsgrep -j 16 -i -f $R/rules-10000.txt /dev/shm/l16)" >> $S
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=12 timeout 100 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
GPUGREP_BIN=$D/gpugrep GPUGREP_SPLIT_CASES=40 timeout 100 $D/gpu_rule_split > $O/gpu_rule_split.txt 2>&1; echo "gpu_rule_split rc $?" >> $S
cat $S
