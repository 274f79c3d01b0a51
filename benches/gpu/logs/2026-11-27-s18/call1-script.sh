#!/usr/bin/env bash
# session 18, call 1: where bom-lit's memory goes on 16 cores, and the
# session's first changes (read buffers' grown part handed back, the large
# directory's listing sorted without a HashMap, taken batches reserved
# once) against 209839f (gpugrep-prev) and rg, -j16.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
nproc > $O/machine.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=64M \
  MANY_SIZE=400M BIG_SIZE=64M benches/everyday $E --only '^none$' --reps 1 --no-grep > $O/corpora.txt 2>&1
# Instrumented build: most bytes and files waiting for the printer, listing time.
for a in "-n -F kernel" "-c -F kernel" "-l -F kernel"; do for i in 1 2 3; do
  echo "x bom $a: $(XLEAD=1 $D/gpugrep-x --engine cpu -j16 -r $a $E/bom 2>&1 >/dev/null | tr '\n' ' ')" >> $O/lead.txt
done; done
MIMALLOC_SHOW_STATS=1 $D/gpugrep --engine cpu -j16 -r -n -F kernel $E/bom 2> $O/mistats.txt > /dev/null
# Peak memory, 5 rounds alternating.
mcases=("bom|-n -F kernel" "bom|-c -F kernel" "bom|-n -w Linux" "many|-c -F ERROR" "tree|-n -F mutex_lock(&" "tree|-c -F include")
for r in 1 2 3 4 5; do for c in "${mcases[@]}"; do
  dir=${c%%|*}; a=${c#*|}
  for b in gpugrep gpugrep-prev; do /usr/bin/time -f "$b $dir $a %e s %M KB" $D/$b --engine cpu -j16 -r $a $E/$dir > /dev/null 2>> $O/mem.txt; done
  /usr/bin/time -f "rg $dir $a %e s %M KB" $D/rg -j16 $a $E/$dir > /dev/null 2>> $O/mem.txt
done; done
# Time in microseconds, 15 runs alternating after a warm-up.
ms() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
cases=("bom|-n -F kernel" "bom|-c -i josé" "bom|-l -w Linux" "bom|-c -i linux" "bom|-c -F kernel"
       "tree|-c -i todo" "tree|-n -F mutex_lock(&" "many|-l FATAL" "many|-c -F ERROR")
for c in "${cases[@]}"; do
  dir=${c%%|*}; a=${c#*|}
  $D/gpugrep --engine cpu -j16 -r $a $E/$dir > /dev/null 2>&1; $D/rg -j16 $a $E/$dir > /dev/null 2>&1
  for rep in $(seq 15); do
    echo "new  $dir $a $(ms $D/gpugrep --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt
    echo "prev $dir $a $(ms $D/gpugrep-prev --engine cpu -j16 -r $a $E/$dir)" >> $O/low.txt
    echo "rg   $dir $a $(ms $D/rg -j16 $a $E/$dir)" >> $O/low.txt
  done
done
python3 benches/gpu/logs/2026-11-27-s18/medians.py $O/low.txt > $O/medians.txt 2>&1
cat $O/lead.txt $O/medians.txt
