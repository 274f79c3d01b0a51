#!/usr/bin/env bash
# session 18, call 4: the everyday matrix at 16 threads, the session's code
# (TSV with each case's peak memory kept).
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
nproc > $O/machine.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 540 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
