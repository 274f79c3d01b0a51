#!/usr/bin/env bash
# session 52, call 6: the printer woken by the bytes waiting, not only by
# the messages (new, 256 KiB) against base (f91c24c) and rg, 16 threads:
# dense -n output over the BOM prose (one directory of 20,512 files, and
# the same files in directories of 1,000), and rows whose output is sparse.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=64M MANY_SIZE=400M BIG_SIZE=64M timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
i=0; for f in $E/bom/*; do d=$E/bomsplit/d$((i / 1000)); mkdir -p $d; ln "$f" $d/; i=$((i + 1)); done
echo "corpora after $SECONDS s ($(ls $E/bomsplit | wc -l) dirs)" >> $S
for row in "bom-n-the|-n -F the $E/bom" "split-n-the|-n -F the $E/bomsplit" "bom-lit|-n -F kernel $E/bom" \
  "bom-n|-n -w Linux $E/bom" "tree-n|-n -F return $E/tree" "tree-l|-l -F return $E/tree" \
  "many-n|-n -F ERROR $E/many" "bom-v-c|-v -c the $E/bom"; do
  name=${row%%|*}; a=${row#*|}
  echo "== $name: $a" >> $S
  timeout 100 python3 benches/cpu-time.py --rounds 9 base="$D/gg-base --engine cpu -j 16 -r $a" \
    new="$D/gpugrep --engine cpu -j 16 -r $a" rg="$D/rg --no-config -uu -a -j 16 $a" >> $S 2>&1
done
for j in 2 16; do
  for v in gg-base gpugrep; do
    echo "md5 -n the j$j $v: $($D/$v --engine cpu -j $j -r -n -F the $E/bomsplit | md5sum | cut -c1-12)" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
