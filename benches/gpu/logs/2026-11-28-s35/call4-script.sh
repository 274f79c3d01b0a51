#!/usr/bin/env bash
# session 35, call 4 (16 cores): the rule-pack tests on the GPU with the
# binary under its own name (call 3's two failures were its name in the
# messages), then the cliff hunt (benches/gpu/cliffs.sh): 1,000 rules over
# 4 GiB of CI logs in 64 files, options the fixed matrices do not run.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
mv $D/gpugrep-new $D/gpugrep
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=12 timeout 120 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
D=$D OUT=$O TIMEOUT=30 timeout 420 bash benches/gpu/cliffs.sh rules1000 $L $R/rules-1000.txt '-l|-o|-v -c|-w -c|-n -i|-x -c|-L|-C1|--count-matches|-i -w -n' > $O/cliffs.txt 2>&1
cat $S $O/cliffs.txt
