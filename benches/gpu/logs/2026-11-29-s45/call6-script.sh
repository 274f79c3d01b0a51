#!/usr/bin/env bash
# session 45, call 6 (16 cores): more random cases on the real GPU at
# 4a6330b: rule_packs' random packs (which draw -w) under the GPU engine,
# and gpu_rule_split's random mixed packs through the real pipeline.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
GPUGREP_RULE_PACK_CASES=60 GPUGREP_TEST_ENGINE=gpu timeout 250 $D/rule_packs random_packs_agree_with_the_oracle > $O/rp-random.txt 2>&1; echo "rule_packs random x60 gpu: rc $? $(grep -h 'test result' $O/rp-random.txt)" >> $S
GPUGREP_SPLIT_CASES=60 timeout 250 $D/gpu_rule_split gpu_split_packs_agree > $O/split-random.txt 2>&1; echo "gpu_split_packs_agree x60: rc $? $(grep -h 'test result' $O/split-random.txt)" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
