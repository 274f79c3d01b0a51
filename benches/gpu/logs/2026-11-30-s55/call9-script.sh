#!/usr/bin/env bash
# session 55, call 9: 003e535 (a directory read whole before its files are
# searched unless it holds more than 65,536 entries) against base fd25032
# and rg: walk_order 3 times on 16 cores; the BOM prose and bom8 `-n -F
# the`, `-c`, the Linux tree `-n` and `-l return`, 16 and 8 threads, into
# /dev/null, 5 rounds (benches/cpu-time.py); md5 of the outputs.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
echo "corpora after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for r in 1 2 3; do
  timeout 100 $D/t/walk_order > $X/wo.txt 2>&1
  echo "walk_order r$r rc $?: $(grep -h 'test result' $X/wo.txt)" >> $S
done
for row in "bom8-n j16|16|-n -F the $E/bom8" "bom-n j16|16|-n -F the $E/bom" "bom8-c j16|16|-c -F the $E/bom8" \
  "bom8-n j8|8|-n -F the $E/bom8" "tree-n j16|16|-n -F return $E/tree" "tree-l j16|16|-l -F return $E/tree"; do
  IFS='|' read -r name j a <<< "$row"
  echo "== $name: $a" >> $S
  timeout 90 python3 benches/cpu-time.py --rounds 5 base="$D/gg-base --engine cpu -j $j -r $a" \
    new="$D/gpugrep --engine cpu -j $j -r $a" rg="$D/rg --no-config -uu -a -j $j $a" >> $S 2>&1
done
for v in gg-base gpugrep; do
  echo "md5 $v: bom8 $($D/$v --engine cpu -j16 -r -n -F the $E/bom8 | md5sum | cut -c1-12) bom $($D/$v --engine cpu -j16 -r -n -F the $E/bom | md5sum | cut -c1-12) tree $($D/$v --engine cpu -j16 -r -n -F return $E/tree | md5sum | cut -c1-12)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
