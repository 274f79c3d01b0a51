#!/usr/bin/env bash
# The streaming pipeline (issue 4) on the device machine, in one call.
# Carried in .dev/: gpugrep (release), rg, gpugrep-corpus, and test
# executables named after their test file (gpu_end_to_end, cli_*, ...).
# Steps (STEPS, default "suite e2e sanitize bench threshold budget"):
#   suite      every integration suite with GPUGREP_TEST_ENGINE=gpu
#   e2e        tests/gpu_end_to_end.rs: GPU vs CPU, random chunk sizes
#   sanitize   compute-sanitizer memcheck on gpugrep with tiny chunks
#   bench      $BIG_GIB GiB of prose in $BIG_FILES files, -c literal:
#              gpugrep auto/gpu/cpu vs rg -j16 (benches/run), --stats,
#              peak RSS and GPU memory
#   threshold  auto vs cpu on 1, 2, 4, 8 GiB of files
#   budget     4 GiB through --gpu-memory 256M --gpu-staging 256M, output
#              compared with the CPU engine's
#   diff       tests/gpu_differential.rs (kernels, the multi kernel included)
#              and the multi kernel's cases under compute-sanitizer memcheck
#   many       16 GiB, -c -F -f with 1,000 and 10,000 literals (issue 5):
#              gpugrep auto/gpu/cpu vs rg -j16, one timed run each
#   tree       100,000 files of 4 KiB (a log directory), -c with one literal
#              and with 1,000: gpugrep auto/gpu/cpu vs rg -j16 and GNU grep;
#              the time to list the tree with 1 and 16 threads (--stats)
#   counting   16 GiB, --count-matches -F -f with 1,000 literals (tallied on
#              the GPU); -l with 1,000 literals on one 4 GiB file (the rest
#              of a file settled by a match is left unread)
#   huge       $HUGE_GIB GiB (default 84: more than the H100's 79 GiB) in
#              4 MiB files: gpu, cpu and rg -j16, twice each, outputs compared
#              (not in the default steps: it fills most of the RAM)
# Writes logs to $OUT; prints a summary last.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
steps=${STEPS:-"suite e2e sanitize bench threshold budget"}
D=$PWD/.dev
G=$D/gpugrep
export GPUGREP_BIN=$G
BIG_GIB=${BIG_GIB:-16}
BIG_FILES=${BIG_FILES:-4096}
C=/dev/shm/stream
mkdir -p $C
summary=()
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
echo "cores $(nproc); $(grep -m1 'model name' /proc/cpuinfo); $(free -g | sed -n 2p)"
df -h /dev/shm | tail -1

if [[ $steps == *suite* ]]; then
  for t in ${SUITES:-cli_patterns cli_output cli_context cli_input cli_binary cli_errors cli_stats encoding}; do
    [ -x "$D/$t" ] || continue
    GPUGREP_TEST_ENGINE=gpu timeout 120 "$D/$t" --test-threads=8 > "$OUT/suite-one.log" 2>&1
    summary+=("suite $t rc=$? $(grep -h '^test result' "$OUT/suite-one.log")")
    grep -h -A3 "^---- " "$OUT/suite-one.log" | head -20
    cat "$OUT/suite-one.log" >> "$OUT/suite.log"
  done
  rm -f "$OUT/suite-one.log"
fi
if [[ $steps == *e2e* ]]; then
  GPUGREP_E2E_CASES=${E2E_CASES:-300} timeout 300 "$D/gpu_end_to_end" --nocapture --test-threads=4 > "$OUT/e2e.log" 2>&1
  summary+=("e2e rc=$? $(grep -h 'gpu_end_to_end\|regex\|skipped\|test result' "$OUT/e2e.log" | tr '\n' ' ')")
  grep -h -A3 "^case " "$OUT/e2e.log" | head -20
fi
if [[ $steps == *sanitize* ]]; then
  S=$C/san; mkdir -p $S
  [ -f $S/0/000 ] || "$D/gpugrep-corpus" --kind prose --out $S --size 8M --files 40 > /dev/null
  want=$("$G" --engine cpu -c -r Sherlock $S | sort | md5sum)
  for chunk in 1000 65536 1M; do
    got=$(GPUGREP_GPU_CHUNK=$chunk timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$G" --engine gpu -c -r Sherlock $S 2> "$OUT/memcheck-$chunk.log" | grep -v "^=" | sort | md5sum)
    summary+=("memcheck chunk $chunk rc=${PIPESTATUS[0]} same=$([ "$got" = "$want" ] && echo yes || echo NO) $(grep -h 'ERROR SUMMARY' "$OUT/memcheck-$chunk.log")")
  done
fi

B=$C/big$BIG_GIB
if [[ $steps == *bench* ]]; then
  [ -d $B ] || "$D/gpugrep-corpus" --kind prose --out $B --size ${BIG_GIB}G --files $BIG_FILES --threads 16 > /dev/null
  du -sb $B | tee "$OUT/big-size.txt"
  printf 'literal\tbig\t-c Sherlock\t%s\nrare\tbig\t-c Moriarty\t%s\n' "${BENCH_FLAGS:--}" "${BENCH_FLAGS:--}" > $C/cases.tsv
  timeout 400 benches/run --gpugrep "$G" --gpugrep-args "--engine auto" --gpugrep-args "--engine gpu" --gpugrep-args "--engine cpu" \
    --rg "$D/rg" --rg-threads 16 --no-grep --corpus big=$B --cases $C/cases.tsv --reps ${REPS:-3} ${BENCH_EXTRA:-} \
    --out "$OUT/bench.tsv" > "$OUT/bench.log" 2>&1
  summary+=("bench rc=$?")
  tail -16 "$OUT/bench.log"
  for e in auto gpu; do
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 20 > "$OUT/gpumem-$e.txt" 2>/dev/null &
    smi=$!
    /usr/bin/time -f "peak RSS %M KiB, %e s" "$G" --engine $e --stats --debug -c Sherlock -r $B 2>&1 >/dev/null | grep -v "^$" | tail -16
    kill $smi 2>/dev/null; wait $smi 2>/dev/null
    echo "GPU memory used (MiB, min..max over the run, whole GPU): $(sort -n "$OUT/gpumem-$e.txt" | sed -n '1p;$p' | tr '\n' ' ')"
  done
  /usr/bin/time -f "rg peak RSS %M KiB, %e s" "$D/rg" -j16 -uu -a -c Sherlock $B 2>&1 >/dev/null | tail -1
fi
if [[ $steps == *threshold* ]]; then
  echo "GiB engine median_s" > "$OUT/threshold.txt"
  for gib in 1 2 4 8; do
    T=$C/t$gib
    [ -d $T ] || "$D/gpugrep-corpus" --kind prose --out $T --size ${gib}G --files $((gib * 256)) --threads 16 > /dev/null
    for e in auto cpu gpu; do
      ts=()
      for r in 1 2 3 4; do
        s=$(date +%s%N); "$G" --engine $e -c -r Sherlock $T > /dev/null; ts+=($(( ($(date +%s%N) - s) / 1000 )))
      done
      med=$(printf '%s\n' "${ts[@]:1}" | sort -n | sed -n 2p)
      echo "${gib}GiB $e ${med}us" | tee -a "$OUT/threshold.txt"
    done
    ts=()
    for r in 1 2 3 4; do
      s=$(date +%s%N); "$D/rg" -j16 -uu -a -c Sherlock $T > /dev/null; ts+=($(( ($(date +%s%N) - s) / 1000 )))
    done
    echo "${gib}GiB rg-j16 $(printf '%s\n' "${ts[@]:1}" | sort -n | sed -n 2p)us" | tee -a "$OUT/threshold.txt"
  done
fi
if [[ $steps == *budget* ]]; then
  T=$C/t4
  [ -d $T ] || "$D/gpugrep-corpus" --kind prose --out $T --size 4G --files 1024 --threads 16 > /dev/null
  want=$("$G" --engine cpu -n -r Sherlock $T | sort | md5sum)
  got=$("$G" --engine gpu --gpu-memory 256M --gpu-staging 256M --stats -n -r Sherlock $T 2> "$OUT/budget.log" | sort | md5sum)
  summary+=("budget 4GiB through 256M: same=$([ "$got" = "$want" ] && echo yes || echo NO) $(grep '^gpu:' "$OUT/budget.log")")
fi
if [[ $steps == *diff* ]]; then
  GPUGREP_DIFF_CASES=${DIFF_CASES:-20000} timeout 200 "$D/gpu_differential" --nocapture --test-threads=1 > "$OUT/diff.log" 2>&1
  summary+=("diff rc=$? $(grep -h '^differential' "$OUT/diff.log" | tr '\n' ' ')")
  grep -h "MISMATCH" "$OUT/diff.log" | head -5
  GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$D/gpu_differential" gpu_multi --nocapture --test-threads=1 > "$OUT/memcheck-multi.log" 2>&1
  summary+=("memcheck multi rc=$? $(grep -h 'ERROR SUMMARY\|^differential' "$OUT/memcheck-multi.log" | tr '\n' ' ')")
  for k in backread tally; do
    GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=30 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$D/gpu_differential" gpu_$k --nocapture --test-threads=1 > "$OUT/memcheck-$k.log" 2>&1
    summary+=("memcheck $k rc=$? $(grep -h 'ERROR SUMMARY\|^differential' "$OUT/memcheck-$k.log" | tr '\n' ' ')")
  done
fi
if [[ $steps == *many* ]]; then
  B=$C/big16
  [ -d $B ] || "$D/gpugrep-corpus" --kind prose --out $B --size 16G --files 4096 --threads 16 > /dev/null
  for n in 1000 10000; do "$D/gpugrep-corpus" --kind prose --patterns $n --out $C/pat$n.txt > /dev/null; done
  printf 'lit1000\tbig\t-c -F -f "$DATA/pat1000.txt"\nlit10000\tbig\t-c -F -f "$DATA/pat10000.txt"\nlit1000-l\tbig\t-l -F -f "$DATA/pat1000.txt"\n' > $C/many.tsv
  timeout 400 benches/run --gpugrep "$G" --gpugrep-args "--engine auto" --gpugrep-args "--engine gpu" --gpugrep-args "--engine cpu" \
    --rg "$D/rg" --rg-threads 16 --no-grep --corpus big=$B --data $C --cases $C/many.tsv --reps ${MANY_REPS:-1} \
    --out "$OUT/many.tsv" > "$OUT/many.log" 2>&1
  summary+=("many rc=$?")
  tail -12 "$OUT/many.log"
  for n in 1000 10000; do
    /usr/bin/time -f "peak RSS %M KiB, %e s" "$G" --engine gpu --stats --debug -c -F -f $C/pat$n.txt -r $B 2>&1 >/dev/null | grep -E "multi kernel|gpu|seconds|RSS" | head -8
  done
  # GNU grep at 0.024 GB/s would take minutes on 16 GiB: a 256 MiB subset
  # (64 files), with gpugrep and rg on the same files.
  Sub=$C/sub256; mkdir -p $Sub
  [ "$(ls $Sub | wc -l)" = 64 ] || find $B -type f | sort | head -64 | xargs -I{} cp {} $Sub/
  for n in 1000 10000; do
    for tool in cpu grep rg gpu; do
      case $tool in
        grep) cmd=(grep -c -r -F -f $C/pat$n.txt $Sub) ;;
        rg) cmd=("$D/rg" -j16 -uu -a -c -F -f $C/pat$n.txt $Sub) ;;
        *) cmd=("$G" --engine $tool -c -r -F -f $C/pat$n.txt $Sub) ;;
      esac
      s=$(date +%s%N); timeout 120 "${cmd[@]}" 2>/dev/null | grep -v ':0$' | sort | md5sum > $C/sub.$tool; ms=$(( ($(date +%s%N) - s) / 1000000 ))
      summary+=("sub256MiB lit$n $tool: $ms ms, same-as-cpu=$(cmp -s $C/sub.$tool $C/sub.cpu && echo yes || echo NO)")
    done
  done
fi
if [[ $steps == *tree* ]]; then
  T=$C/small
  [ -d $T ] || "$D/gpugrep-corpus" --kind logs --out $T --size 400M --files 100000 --threads 16 > /dev/null
  "$D/gpugrep-corpus" --kind logs --patterns 1000 --out $C/logpat1000.txt > /dev/null
  printf 'ERROR\tsmall\t-c ERROR\nlogs1000\tsmall\t-c -F -f "$DATA/logpat1000.txt"\n' > $C/tree.tsv
  timeout 300 benches/run --gpugrep "$G" --gpugrep-args "--engine auto" --gpugrep-args "--engine gpu" --gpugrep-args "--engine cpu" \
    --rg "$D/rg" --rg-threads 16 --corpus small=$T --data $C --cases $C/tree.tsv --reps ${TREE_REPS:-3} \
    --out "$OUT/tree.tsv" > "$OUT/tree.log" 2>&1
  summary+=("tree rc=$?")
  tail -14 "$OUT/tree.log"
  for j in 1 16; do
    echo "-j$j: $("$G" --engine gpu --stats -j$j -c -r ERROR $T 2>&1 >/dev/null | grep -E "seconds|listed|^gpu" | tr '\n' ' ')"
    for sort in "" "--sort path"; do
      s=$(date +%s%N); "$D/rg" -j$j -uu --files $sort $T > /dev/null
      echo "rg -j$j --files $sort: $(( ($(date +%s%N) - s) / 1000000 )) ms"
    done
  done
fi
if [[ $steps == *counting* ]]; then
  B=$C/big16
  [ -d $B ] || "$D/gpugrep-corpus" --kind prose --out $B --size 16G --files 4096 --threads 16 > /dev/null
  "$D/gpugrep-corpus" --kind prose --patterns 1000 --out $C/pat1000.txt > /dev/null
  One=$C/one4g
  [ -f $One ] || find $B -type f | sort | head -1024 | xargs cat > $One
  printf 'cm1000\tbig\t--count-matches -F -f "$DATA/pat1000.txt"\tnogrep\nl1000one\tone\t-l -F -f "$DATA/pat1000.txt"\tnogrep\n' > $C/counting.tsv
  timeout 400 benches/run --gpugrep "$G" --gpugrep-args "--engine auto" --gpugrep-args "--engine gpu" --gpugrep-args "--engine cpu" \
    --rg "$D/rg" --rg-threads 16 --no-grep --corpus big=$B --corpus one=$One --data $C --cases $C/counting.tsv --reps ${COUNT_REPS:-1} \
    --out "$OUT/counting.tsv" > "$OUT/counting.log" 2>&1
  summary+=("counting rc=$?")
  tail -12 "$OUT/counting.log"
  "$G" --engine gpu --stats --debug --count-matches -F -f $C/pat1000.txt -r $B 2>&1 >/dev/null | grep -E "tally|tallied|seconds$" | head -4
  "$G" --engine gpu --stats -l -F -f $C/pat1000.txt $One 2>&1 >/dev/null | grep -E "^gpu|seconds$"
fi
if [[ $steps == *huge* ]]; then
  rm -rf $C/big* $C/t*
  H=$C/huge; HUGE_GIB=${HUGE_GIB:-84}
  [ -d $H ] || "$D/gpugrep-corpus" --kind prose --out $H --size ${HUGE_GIB}G --files $((HUGE_GIB * 256)) --threads 16 > /dev/null
  du -sb $H; free -g | sed -n 2p
  # rg -c leaves out files without matches; grep (and gpugrep) print 0.
  want=$("$D/rg" -j16 -uu -a -c Sherlock $H | sort | md5sum)
  for r in 1 2; do
    for e in gpu cpu; do
      s=$(date +%s%N); "$G" --engine $e -c -r Sherlock $H > $C/huge-$e.txt; ms=$(( ($(date +%s%N) - s) / 1000000 ))
      got=$(grep -v ':0$' $C/huge-$e.txt | sort | md5sum)
      summary+=("huge ${HUGE_GIB}GiB $e run $r: ${ms} ms same-as-rg=$([ "$got" = "$want" ] && echo yes || echo NO) lines=$(wc -l < $C/huge-$e.txt)")
    done
    summary+=("huge gpu and cpu outputs identical: $(cmp -s $C/huge-gpu.txt $C/huge-cpu.txt && echo yes || echo NO)")
    s=$(date +%s%N); "$D/rg" -j16 -uu -a -c Sherlock $H > /dev/null; summary+=("huge rg -j16 run $r: $(( ($(date +%s%N) - s) / 1000000 )) ms")
  done
  /usr/bin/time -f "peak RSS %M KiB, %e s" "$G" --engine gpu --stats -c -r Sherlock $H 2>&1 >/dev/null | tail -6
  rm -rf $H
fi
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
