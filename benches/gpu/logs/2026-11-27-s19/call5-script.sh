#!/usr/bin/env bash
# session 19, call 5: the session's code (a847388) once more: the everyday
# matrix at 16 threads, then bom-lit's peak memory, 10 runs alternating
# with prev (0e84e50) and rg.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 420 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
for r in $(seq 10); do
  /usr/bin/time -f "gpugrep|bom-lit|%e|%M" $D/gpugrep --engine cpu -j16 -r -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt
  /usr/bin/time -f "prev|bom-lit|%e|%M" $D/gpugrep-prev --engine cpu -j16 -r -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt
  /usr/bin/time -f "rg|bom-lit|%e|%M" $D/rg -j16 -n -F kernel $E/bom > /dev/null 2>> $O/mem.txt
done
tail -4 $O/everyday-16.txt
awk -F'|' '{k=$1" "$2; n[k]++; m[k]+=$4; t[k]+=$3; if (!(k in lo) || $4<lo[k]) lo[k]=$4; if ($4>hi[k]) hi[k]=$4} END {for (k in n) printf "%-24s mean %.0f KB (%d-%d), %.3f s\n", k, m[k]/n[k], lo[k], hi[k], t[k]/n[k]}' $O/mem.txt | sort
