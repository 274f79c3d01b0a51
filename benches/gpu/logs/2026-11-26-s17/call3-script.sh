#!/usr/bin/env bash
# ad hoc (session 17): split_file failed on the host in call 2; show why.
set -u
export GPUGREP_BIN=$PWD/.dev/gpugrep
for i in 1 2 3; do
  echo "== round $i, auto engine (no GPUGREP_TEST_ENGINE)"
  timeout 150 .dev/split_file --test-threads=4 2>&1 | grep -vE '^test .* ok$' | head -60
  echo "== round $i, GPU visible off (CUDA_VISIBLE_DEVICES=)"
  CUDA_VISIBLE_DEVICES= timeout 150 .dev/split_file --test-threads=4 2>&1 | grep -vE '^test .* ok$' | head -60
done
