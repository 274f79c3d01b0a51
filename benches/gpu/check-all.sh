#!/usr/bin/env bash
# The GPU test suites, in two device calls (`check-all.sh kernels`, then
# `check-all.sh cli`; no argument runs both, which takes longer than one
# call may): kernels: differential kernels (tally -w/-x/-v included), split
# rule packs, the automaton, decompressed input, -i folded in the kernels
# (gpu_fold, gpu_ignore_case), compute-sanitizer memcheck/racecheck on the
# new kernels (synccheck on confirm, multi, the automaton and tally: a
# divergent barrier is how NVRTC 12.0's automaton kernel went wrong, session
# 57), and the differential kernels and the rule book's kernels against
# their mirror once more on the PTX (GPUGREP_GPU_CUBIN=0), which GPUs
# without a shipped cubin load; cli: end to end, real-world files and the
# CLI suites under GPUGREP_TEST_ENGINE=gpu. Groups run side by side; each
# writes $OUT/NAME.log and a line "NAME rc" to $OUT/summary.txt. With
# loghub's Proxifier log and templates in .dev/loghub (pack-dev.sh with
# LOGHUB set), gpu_rule_split runs its regression on them too (it skips
# without them). Session 59: all sixteen groups side by side ran 485 s
# and cut six of them at their limits; apart, `kernels` fits in that time
# and `cli` took 390 s. $OUT ends with up to 30 logs: a device call returns
# at most 8 files, so tar them.
set -u
D=$PWD/.dev
export GPUGREP_BIN=$D/gpugrep
if [[ -r $D/loghub/Proxifier_2k.log ]]; then
    export GPUGREP_LOGHUB=$D/loghub GPUGREP_TEMPLATES=$D/loghub/rules-templates.txt
fi
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
run() {
    local name=$1 limit=$2; shift 2
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    echo "$name $?" >>"$OUT/summary.txt"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt"
part=${1:-all}
if [[ $part == all || $part == kernels ]]; then
{
    GPUGREP_DIFF_TALLY_CASES=600 run diff-tally 300 "$D/gpu_differential" tally --test-threads=1
    GPUGREP_DIFF_CASES=3000 run diff-all 250 "$D/gpu_differential" --test-threads=1
} &
GPUGREP_SPLIT_CASES=200 run rule-split 250 "$D/gpu_rule_split" --test-threads=2 &
{
    run automaton 200 "$D/gpu_automaton" --test-threads=2
    run decompress 250 "$D/gpu_decompress" --test-threads=2
    run fold 200 "$D/gpu_fold" --test-threads=2
    run ignore-case 350 "$D/gpu_ignore_case" --test-threads=2
} &
{
    GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=40 run memcheck-tally 250 \
        compute-sanitizer --tool memcheck --error-exitcode 9 "$D/gpu_differential" tally --test-threads=1
    GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=40 run racecheck-tally 250 \
        compute-sanitizer --tool racecheck --error-exitcode 9 "$D/gpu_differential" tally --test-threads=1
    # Block sums after per-thread loops (tally, automaton).
    GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=40 run synccheck-tally 250 \
        compute-sanitizer --tool synccheck --error-exitcode 9 "$D/gpu_differential" tally --test-threads=1
} &
run synccheck-automaton 250 \
    compute-sanitizer --tool synccheck --error-exitcode 9 "$D/gpu_automaton" --test-threads=1 &
{
    GPUGREP_DIFF_SMALL=1 run memcheck-split 250 \
        compute-sanitizer --tool memcheck --error-exitcode 9 "$D/gpu_rule_split" kernels_match_reference --test-threads=1
    GPUGREP_DIFF_SMALL=1 run racecheck-split 250 \
        compute-sanitizer --tool racecheck --error-exitcode 9 "$D/gpu_rule_split" kernels_match_reference --test-threads=1
    # The confirm kernel's warp collectives (ballots, __syncwarp).
    GPUGREP_DIFF_SMALL=1 run synccheck-split 250 \
        compute-sanitizer --tool synccheck --error-exitcode 9 "$D/gpu_rule_split" kernels_match_reference --test-threads=1
    GPUGREP_GPU_CUBIN=0 run split-ptx 200 "$D/gpu_rule_split" kernels_match_reference --test-threads=1
    # The PTX the driver compiles, where a GPU has no shipped cubin.
    GPUGREP_GPU_CUBIN=0 GPUGREP_DIFF_CASES=500 run diff-ptx 200 "$D/gpu_differential" --test-threads=1
} &
{
    # The multi kernel's warp-shared candidate searches (shuffles, won[]).
    GPUGREP_DIFF_SMALL=1 run memcheck-multi 200 \
        compute-sanitizer --tool memcheck --error-exitcode 9 "$D/gpu_differential" gpu_multi --test-threads=1
    GPUGREP_DIFF_SMALL=1 run racecheck-multi 200 \
        compute-sanitizer --tool racecheck --error-exitcode 9 "$D/gpu_differential" gpu_multi --test-threads=1
    GPUGREP_DIFF_SMALL=1 run synccheck-multi 200 \
        compute-sanitizer --tool synccheck --error-exitcode 9 "$D/gpu_differential" gpu_multi --test-threads=1
} &
{
    GPUGREP_DIFF_SMALL=1 run memcheck-fold 250 \
        compute-sanitizer --tool memcheck --error-exitcode 9 "$D/gpu_fold" --test-threads=1
    GPUGREP_DIFF_SMALL=1 run racecheck-fold 250 \
        compute-sanitizer --tool racecheck --error-exitcode 9 "$D/gpu_fold" --test-threads=1
} &
fi
if [[ $part == all || $part == cli ]]; then
GPUGREP_E2E_CASES=150 run e2e 560 "$D/gpu_end_to_end" --test-threads=4 &
{
    GPUGREP_E2E_CASES=300 run real-world 400 "$D/gpu_real_world" --test-threads=2
    GPUGREP_TEST_ENGINE=gpu run suite-split_file 150 "$D/split_file" --test-threads=4
    GPUGREP_TEST_ENGINE=gpu run suite-walk_order 100 "$D/walk_order" --test-threads=4
} &
{
    for t in cli_patterns cli_decompress_parallel cli_stats; do
        GPUGREP_TEST_ENGINE=gpu run "suite-$t" 300 "$D/$t" --test-threads=4
    done
} &
{
    for t in rule_packs cli_decompress; do
        GPUGREP_TEST_ENGINE=gpu run "suite-$t" 400 "$D/$t" --test-threads=4
    done
} &
fi
wait
sort "$OUT/summary.txt"
