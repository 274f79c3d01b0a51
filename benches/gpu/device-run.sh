#!/usr/bin/env bash
# Runs on the device machine from the repository root, binaries in .dev/:
#   .dev/gpu_differential  (cargo test --release --no-run, tests/gpu_differential.rs)
#   .dev/gpugrep-kernel-bench (cargo build --release --features bench-tools --bins)
# Usage: bash .dev/device-run.sh [diff] [sanitize] [bench] [bench-args...]
# Writes logs to $OUT; prints a short summary last.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
steps=${STEPS:-"diff sanitize bench"}
summary=()
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
if [[ $steps == *diff* ]]; then
  t=$(date +%s)
  timeout 150 .dev/gpu_differential --nocapture --test-threads=1 > "$OUT/diff.log" 2>&1; rc=$?
  summary+=("diff rc=$rc $(( $(date +%s) - t ))s: $(grep -h '^differential:' "$OUT/diff.log" | head -1)")
  grep -h "MISMATCH" "$OUT/diff.log" | head -5
fi
if [[ $steps == *sanitize* ]]; then
  for tool in memcheck racecheck; do
    t=$(date +%s)
    GPUGREP_DIFF_SMALL=1 timeout 110 compute-sanitizer --tool $tool --error-exitcode 9 \
      .dev/gpu_differential --nocapture --test-threads=1 > "$OUT/$tool.log" 2>&1; rc=$?
    summary+=("$tool rc=$rc $(( $(date +%s) - t ))s: $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$OUT/$tool.log" | tr '\n' ' ')")
  done
fi
if [[ $steps == *bench* ]]; then
  t=$(date +%s)
  timeout 180 .dev/gpugrep-kernel-bench ${BENCH_ARGS:---gib 4 --reps 7} --csv "$OUT/bench.csv" > "$OUT/bench.log" 2>&1; rc=$?
  summary+=("bench rc=$rc $(( $(date +%s) - t ))s")
  cat "$OUT/bench.log"
fi
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
