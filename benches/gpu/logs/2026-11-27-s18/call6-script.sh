#!/usr/bin/env bash
# session 18, call 6: the everyday matrix at 16 threads with the session's
# last code (aad0cc4), TSV with each case's peak memory; then bom-lit's and
# big-n-sparse's peak memory, 10 runs alternating with rg.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
nproc > $O/machine.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 480 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
for r in $(seq 10); do
  /usr/bin/time -f "gpugrep|bom-lit|%e|%M" $D/gpugrep --engine cpu -j16 -r -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt
  /usr/bin/time -f "rg|bom-lit|%e|%M" $D/rg -j16 -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt
  /usr/bin/time -f "gpugrep|big-n-sparse|%e|%M" $D/gpugrep --engine cpu -j16 -r -n -F ERROR $E/big > /dev/null 2>> $O/mem.txt
  /usr/bin/time -f "rg|big-n-sparse|%e|%M" $D/rg -j16 -n -F ERROR $E/big > /dev/null 2>> $O/mem.txt
done
tail -4 $O/everyday-16.txt
awk -F'|' '{k=$1" "$2; n[k]++; m[k]+=$4; if (!(k in lo) || $4<lo[k]) lo[k]=$4; if ($4>hi[k]) hi[k]=$4} END {for (k in n) printf "%-24s mean %.0f KB (%d-%d)\n", k, m[k]/n[k], lo[k], hi[k]}' $O/mem.txt | sort
