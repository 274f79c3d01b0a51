#!/usr/bin/env bash
# session 27, call 4 (H100, nvidia-h100-x1): the multi kernel alone, D
# (8596bd3), G2 (call 3) and G3 (each word probed after its cheap tests,
# as D, unless the warp's first word had at most QUEUE / 2 candidates:
# then the 4 words' probes together at the end); gpu_differential and its
# memcheck at G3.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for v in D G2 G3 D G2 G3; do
  echo "== $v" >> $O/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns\|^resident" >> $O/bench.txt
done
for v in D G2 G3; do
  echo "== $v fold" >> $O/bench.txt
  $D/kb-$v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns\|^resident" >> $O/bench.txt
done
rm -rf $W
cat $O/bench.txt >> $S
export GPUGREP_BIN=$D/gpugrep
timeout 200 $D/gpu_differential --test-threads=8 > $O/diff.txt 2>&1; echo "rc $?" >> $O/diff.txt
GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_multi gpu_tally gpu_line > $O/memcheck.txt 2>&1; echo "rc $?" >> $O/memcheck.txt
grep -h "differential\|test result\|rc \|ERROR SUMMARY" $O/diff.txt $O/memcheck.txt >> $S
cat $S
