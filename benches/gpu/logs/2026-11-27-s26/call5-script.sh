#!/usr/bin/env bash
# Call 5: variant E (D + the 5-byte filter F5 and a 3/4-byte filter F34, 48 KiB of dynamic
# shared memory) against base and D; tests and ncu at E.
set -x
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/kb.tar.xz
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for v in base D E D E; do
  echo "== $v" >> $OUT/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0" >> $OUT/bench.txt
  $D/kb-$v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns" >> $OUT/bench.txt
done
timeout 200 $D/gpu_differential gpu_multi --nocapture > $OUT/diff.txt 2>&1; echo "rc $?" >> $OUT/diff.txt
GPUGREP_DIFF_SMALL=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_multi > $OUT/memcheck.txt 2>&1; echo "rc $?" >> $OUT/memcheck.txt
timeout 150 ncu --clock-control none --kernel-name multi --launch-skip 1 --launch-count 1 --set full \
    -o $OUT/ncu-E-10000 $D/kb-E --multi $W/words-10000.txt --text $W/prose.txt --gib 1 --reps 1 > $OUT/ncu.log 2>&1
ncu -i $OUT/ncu-E-10000.ncu-rep --page source --csv --print-source sass > $OUT/ncu-E-10000-sass.csv 2>&1
ncu -i $OUT/ncu-E-10000.ncu-rep --page details > $OUT/ncu-E-10000-details.txt 2>&1
xz -9 $OUT/ncu-E-10000-sass.csv
