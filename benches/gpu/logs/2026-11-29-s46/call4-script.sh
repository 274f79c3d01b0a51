#!/usr/bin/env bash
# session 46, call 4: call 3's differential tests again: gpu_rule_split
# with its kernel test taking the new tally shape (CountsUnsure), and
# rule_packs' 60 random packs under the GPU engine with room to finish
# (call 3 gave the whole suite 120 s; session 45's call 6 took 139 s).
set -u
O=$OUT; D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
GPUGREP_SPLIT_CASES=60 timeout 150 $D/gpu_rule_split --test-threads=8 --nocapture > $O/gpu_rule_split.txt 2>&1; echo "gpu_rule_split: rc $? $(grep -h 'test result' $O/gpu_rule_split.txt); $(grep -h 'cases, ' $O/gpu_rule_split.txt)" >> $S
GPUGREP_RULE_PACK_CASES=60 GPUGREP_TEST_ENGINE=gpu timeout 280 $D/rule_packs --test-threads=8 > $O/rp-gpu.txt 2>&1; echo "rule_packs x60 gpu: rc $? $(grep -h 'test result' $O/rp-gpu.txt)" >> $S
cat $S
