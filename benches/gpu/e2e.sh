#!/usr/bin/env bash
# The GPU engine end to end, on the device machine, in one call.
# Carried in .dev/: gpugrep (release), rg, gpugrep-corpus, and test
# executables from `cargo test --release --no-run` named after their test
# file (cli_output, gpu_end_to_end, ...). Steps (STEPS, default all):
#   suite     every integration test with GPUGREP_TEST_ENGINE=gpu
#   e2e       tests/gpu_end_to_end.rs (GPU vs CPU, whole program)
#   bench     benches/run: 4 GiB of prose in 2000 files, -c literal,
#             gpugrep --engine gpu/cpu vs rg -j16 vs GNU grep
#   threshold --engine gpu vs cpu on one file of 16 MiB .. 1 GiB (auto)
# Writes logs to $OUT; prints a summary last.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
steps=${STEPS:-"suite e2e bench threshold"}
D=$PWD/.dev
export GPUGREP_BIN=$D/gpugrep
summary=()
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
nproc; grep -m1 "model name" /proc/cpuinfo
if [[ $steps == *suite* ]]; then
  for t in cli_patterns cli_output cli_context cli_input cli_binary cli_errors encoding; do
    GPUGREP_TEST_ENGINE=gpu timeout 120 "$D/$t" --test-threads=8 > "$OUT/suite-one.log" 2>&1
    summary+=("suite $t rc=$? $(grep -h '^test result' "$OUT/suite-one.log")")
    grep -h -A3 "^---- " "$OUT/suite-one.log" | head -20
    cat "$OUT/suite-one.log" >> "$OUT/suite.log"
  done
fi
rm -f "$OUT/suite-one.log"
if [[ $steps == *e2e* ]]; then
  GPUGREP_E2E_CASES=${E2E_CASES:-300} timeout 200 "$D/gpu_end_to_end" --nocapture > "$OUT/e2e.log" 2>&1
  summary+=("e2e rc=$? $(grep -h 'gpu_end_to_end:\|skipped' "$OUT/e2e.log")")
  grep -h -A3 "^case " "$OUT/e2e.log" | head -20
fi
C=/dev/shm/e2e
mkdir -p $C
if [[ $steps == *bench* ]]; then
  [ -d $C/prose-dir ] || "$D/gpugrep-corpus" --kind prose --out $C/prose-dir --size 4G --files 2000 > /dev/null
  cat $C/prose-dir/*/* > /dev/null
  printf 'literal\tprose\t-c Sherlock\nrare\tprose\t-c Moriarty\ndense\tprose\t-c the\n' > $C/cases.tsv
  timeout 300 benches/run --gpugrep "$D/gpugrep" --gpugrep-args "--engine gpu" --gpugrep-args "--engine cpu" \
    --rg "$D/rg" --rg-threads 16 --corpus prose=$C/prose-dir --cases $C/cases.tsv --reps 3 ${BENCH_EXTRA:-} --out "$OUT/bench.tsv" > "$OUT/bench.log" 2>&1
  summary+=("bench rc=$?")
  tail -14 "$OUT/bench.log"
  "$D/gpugrep" --engine gpu --debug --stats -c Sherlock -r $C/prose-dir 2>&1 >/dev/null | grep -v "^$" | head -8
fi
if [[ $steps == *threshold* ]]; then
  echo "size engine median_s" > "$OUT/threshold.txt"
  for mb in 16 64 256 1024; do
    f=$C/t$mb.txt
    [ -f $f ] || "$D/gpugrep-corpus" --kind prose --out $f --size ${mb}M > /dev/null
    cat $f > /dev/null
    for e in gpu cpu; do
      ts=()
      for r in 1 2 3 4; do
        s=$(date +%s%N); "$D/gpugrep" --engine $e -c Sherlock $f > /dev/null; ts+=($(( ($(date +%s%N) - s) / 1000 )))
      done
      med=$(printf '%s\n' "${ts[@]:1}" | sort -n | sed -n 2p)
      echo "${mb}MiB $e ${med}us" | tee -a "$OUT/threshold.txt"
    done
  done
fi
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
