#!/usr/bin/env bash
# ad hoc (session 17, prepared in 16): check-all's groups without the compute-sanitizer ones
# (no kernel changed), plus split_file and walk_order under the GPU engine.
set -u
D=$PWD/.dev
export GPUGREP_BIN=$D/gpugrep
run() {
    local name=$1 limit=$2; shift 2
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    echo "$name $?" >>"$OUT/summary.txt"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt"
{ GPUGREP_DIFF_CASES=3000 run diff-all 250 "$D/gpu_differential" --test-threads=1; } &
{ GPUGREP_E2E_CASES=300 run real-world 300 "$D/gpu_real_world" --test-threads=2
  GPUGREP_SPLIT_CASES=200 run rule-split 250 "$D/gpu_rule_split" --test-threads=2; } &
{ GPUGREP_E2E_CASES=150 run e2e 400 "$D/gpu_end_to_end" --test-threads=2; } &
{ for t in cli_stats cli_decompress cli_decompress_parallel rule_packs cli_patterns split_file walk_order; do
    GPUGREP_TEST_ENGINE=gpu run "suite-$t" 150 "$D/$t" --test-threads=4
  done; } &
{ run automaton 200 "$D/gpu_automaton" --test-threads=2; run fold 200 "$D/gpu_fold" --test-threads=2; } &
wait
sort "$OUT/summary.txt"
