#!/usr/bin/env bash
# session 39, call 5: the GPU pipeline's suites on the GPU at the session's
# last code (host-side change in lane.rs and board/lag.rs; no kernel
# changed, so no sanitizer): benches/gpu/check-all.sh's pipeline groups,
# with gpu_lag and the CLI suites under GPUGREP_TEST_ENGINE=gpu and auto.
set -u
D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export GPUGREP_BIN=$D/gpugrep
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
run() {
    local name=$1 limit=$2; shift 2
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    echo "$name $?" >>"$OUT/summary.txt"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt"
{ GPUGREP_DIFF_CASES=1500 run diff-all 200 "$D/gpu_differential" --test-threads=1; } &
{
    GPUGREP_E2E_CASES=200 run real-world 200 "$D/gpu_real_world" --test-threads=2
} &
{ GPUGREP_SPLIT_CASES=150 run rule-split 200 "$D/gpu_rule_split" --test-threads=2; } &
{
    run automaton 150 "$D/gpu_automaton" --test-threads=2
    run lag 100 "$D/gpu_lag" --test-threads=2
    run start 100 "$D/gpu_start" --test-threads=2
} &
{ GPUGREP_E2E_CASES=120 run e2e 220 "$D/gpu_end_to_end" --test-threads=2; } &
{
    for t in cli_stats rule_packs cli_patterns split_file walk_order; do
        GPUGREP_TEST_ENGINE=gpu run "suite-$t" 100 "$D/$t" --test-threads=4
    done
} &
{
    for t in cli_stats rule_packs; do
        GPUGREP_TEST_ENGINE=auto run "auto-$t" 100 "$D/$t" --test-threads=4
    done
} &
wait
sort "$OUT/summary.txt"
