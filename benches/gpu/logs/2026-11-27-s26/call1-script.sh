#!/usr/bin/env bash
# Call 1: the multi kernel alone (data resident) on real-word sets over prose,
# baseline, and ncu's full set of one launch per set.
set -x
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/kb.tar.xz
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
KB=$D/gpugrep-kernel-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt
for v in $D/kb-*; do
  echo "== $v" >> $OUT/bench.txt
  $v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 >> $OUT/bench.txt 2>&1
  $v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 >> $OUT/bench.txt 2>&1
done
for n in 1000 10000; do
  timeout 120 ncu --clock-control none --kernel-name multi --launch-skip 1 --launch-count 1 --set full \
    -o $OUT/ncu-$n $KB --multi $W/words-$n.txt --text $W/prose.txt --gib 1 --reps 1 > $OUT/ncu-$n.log 2>&1
  ncu -i $OUT/ncu-$n.ncu-rep --page details > $OUT/ncu-$n-details.txt 2>&1
done
ls -la $OUT
