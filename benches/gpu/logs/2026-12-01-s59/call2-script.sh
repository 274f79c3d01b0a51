#!/usr/bin/env bash
# session 59, call 2: what call 1's check-all cut at its limits (16 groups
# side by side): gpu_end_to_end, gpu_real_world, and the CLI suites
# cli_patterns, rule_packs, split_file, cli_decompress_parallel under the
# GPU engine; split_file's --stats line now asks the CPU engine (its split
# is the CPU engine's; call 1 failed it under GPUGREP_TEST_ENGINE=gpu).
set -u
mkdir -p /tmp/d && tar -C /tmp/d -xJf .dev1/pack.tar.xz
rm -rf .dev && ln -s /tmp/d/dev .dev
D=/tmp/d/dev
export PATH=$D:$PATH LD_LIBRARY_PATH=$D/lib GPUGREP_BIN=$D/gpugrep
export GPUGREP_LOGHUB=$D/loghub GPUGREP_TEMPLATES=$D/loghub/rules-templates.txt
L=/tmp/logs; mkdir -p $L; S=$OUT/summary.txt
r() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout $limit "$@" > $L/$name.log 2>&1; echo "$name rc $? in $((SECONDS-t0)) s" >> $S; }
(GPUGREP_E2E_CASES=150 r e2e 560 $D/gpu_end_to_end --test-threads=4) &
(GPUGREP_E2E_CASES=300 r real-world 400 $D/gpu_real_world --test-threads=2
 GPUGREP_TEST_ENGINE=gpu r suite-split_file 150 $D/split_file --test-threads=4) &
(GPUGREP_TEST_ENGINE=gpu r suite-cli_patterns 300 $D/cli_patterns --test-threads=4
 GPUGREP_TEST_ENGINE=gpu r suite-cli_decompress_parallel 200 $D/cli_decompress_parallel --test-threads=4) &
(GPUGREP_TEST_ENGINE=gpu r suite-rule_packs 400 $D/rule_packs --test-threads=4) &
wait
for f in $L/*.log; do echo "== $(basename $f): $(grep -h '^test result\|FAILED\|panicked' $f | tr '\n' ' ')" >> $S; done
tar -C /tmp -czf $OUT/logs.tgz logs
echo "all done after $SECONDS s" >> $S
cat $S
