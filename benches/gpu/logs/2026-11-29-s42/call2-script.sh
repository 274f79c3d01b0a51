#!/usr/bin/env bash
# session 42, call 2: call 1 ran past its limit before its tests; the rule
# pack tests (this session's secret-rule and -w tests among them) on the
# GPU and auto engines, and gpu_rule_split.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
for e in gpu auto; do GPUGREP_TEST_ENGINE=$e timeout 150 $D/rule_packs --test-threads=8 > $O/rp-$e.log 2>&1; echo "rule_packs ($e) rc $? $(grep 'test result' $O/rp-$e.log)" >> $S; done
GPUGREP_SPLIT_CASES=60 timeout 150 $D/gpu_rule_split --test-threads=4 > $O/rule-split.log 2>&1; echo "gpu_rule_split rc $? $(grep -E 'test result' $O/rule-split.log | tr '\n' ' ')" >> $S
echo "done after $SECONDS s" >> $S
cat $S
