#!/usr/bin/env bash
# session 37, call 4 (16 cores): the session's last code (fb5c22f) on the
# real packs against the anchors (benches/rules.sh, -c, every tool once),
# and the rule-pack tests on the GPU engine.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
BIN=$D THREADS=16 WORK=/dev/shm/real SIZES="gitleaks templates" GNU_SIZES= RUNS=1 TOOL_TIMEOUT=60 \
  GITLEAKS=$D/real/gitleaks.toml LOGHUB=$D/real/loghub \
  bash benches/rules.sh 16G > $O/real-16G-c.txt 2> $O/real-16G-c.err
$D/gpugrep --stats -j16 -h -c -E -f /dev/shm/real/rules-templates.txt -r /dev/shm/real/loghub-16G > /dev/null 2> $O/stats-templates.txt
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=20 timeout 120 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $O/real-16G-c.txt
cat $O/real-16G-c.txt
