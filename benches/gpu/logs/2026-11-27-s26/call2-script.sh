#!/usr/bin/env bash
# Call 2: multi kernel variants, data resident (base = ee38192; A = branch-free
# cheap tests, tables in static shared memory; B = A + probe/minimal patterns;
# B5 = B with 5 blocks an SM); the multi differential test at B; memcheck.
set -x
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/kb.tar.xz
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for round in 1 2; do
for v in base A B B5; do
  echo "== $v round $round" >> $OUT/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0" >> $OUT/bench.txt
  $D/kb-$v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns" >> $OUT/bench.txt
done
done
timeout 200 $D/gpu_differential gpu_multi --nocapture > $OUT/diff.txt 2>&1; echo "rc $?" >> $OUT/diff.txt
GPUGREP_DIFF_SMALL=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_multi > $OUT/memcheck.txt 2>&1; echo "rc $?" >> $OUT/memcheck.txt
