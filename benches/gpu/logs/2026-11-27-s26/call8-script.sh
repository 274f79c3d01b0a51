#!/usr/bin/env bash
# session 26, call 8 (H100, nvidia-h100-x1): the multi kernel alone, D
# (3d6e550) against F (D with the tile walk instantiated for folding and
# not, so a search without -i does no folding work); gpu_multi and its
# memcheck at F.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for v in D F D F; do
  echo "== $v" >> $O/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns" >> $O/bench.txt
  $D/kb-$v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns\|^resident" >> $O/bench.txt
done
timeout 150 $D/gpu_differential gpu_multi > $O/diff.txt 2>&1; echo "rc $?" >> $O/diff.txt
GPUGREP_DIFF_SMALL=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_multi > $O/memcheck.txt 2>&1; echo "rc $?" >> $O/memcheck.txt
