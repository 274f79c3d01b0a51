#!/usr/bin/env bash
# session 60, call 4 (call 3's machine, warm): cli_patterns alone under
# GPUGREP_TEST_ENGINE=gpu (call 3 cut it at its 300 s with 115 of 116
# passed, `literal_set_without_its_longer_words_selects_the_regex_lines`
# still running: 240 runs of gpugrep, each starting the GPU).
set -u
D=/tmp/d; [[ -x $D/dev/gpugrep ]] || { mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz; }
export GPUGREP_BIN=$D/dev/gpugrep GPUGREP_TEST_ENGINE=gpu
timeout 500 $D/dev/cli_patterns --test-threads=8 > $OUT/cli_patterns.log 2>&1
echo "cli_patterns rc $? after $SECONDS s" | tee $OUT/summary.txt
tail -n 3 $OUT/cli_patterns.log
