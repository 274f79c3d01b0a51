#!/usr/bin/env bash
# session 53, call 1: the flat directory's throttle. new: a large
# directory's held batches re-batched in name order with the queued ones,
# a split batch keyed by its own first file, and nothing begun past the
# far bound while the printer waits for a listing; base = b3f2c24; rg.
# -n the over 936 MB in one directory at 16 and 8 threads; the BOM prose,
# in one directory and in directories of 1,000; the tree's -n and -l; a
# counted build (gg-cnt: catch_up's outcomes, the printer's waits).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
i=0; for f in $E/bom/*; do d=$E/bomsplit/d$((i / 1000)); mkdir -p $d; ln "$f" $d/; i=$((i + 1)); done
echo "corpora after $SECONDS s" >> $S
for r in 1 2 3; do
  GG_COUNT=1 $D/gg-cnt --engine cpu -j 16 -r -n -F the $E/bom8 2>&1 >/dev/null | grep -v '^FRONT' >> $O/counted.txt
done
for row in "bom8 j16|16|-n -F the $E/bom8" "bom8 j8|8|-n -F the $E/bom8" "bom j16|16|-n -F the $E/bom" \
  "split j16|16|-n -F the $E/bomsplit" "tree-n j16|16|-n -F return $E/tree" "tree-l j16|16|-l -F return $E/tree"; do
  IFS='|' read -r name j a <<< "$row"
  echo "== $name: $a" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 7 base="$D/gg-base --engine cpu -j $j -r $a" \
    new="$D/gpugrep --engine cpu -j $j -r $a" rg="$D/rg --no-config -uu -a -j $j $a" >> $S 2>&1
done
for v in gg-base gpugrep; do echo "md5 bom8 -n the j16 $v: $($D/$v --engine cpu -j 16 -r -n -F the $E/bom8 | md5sum | cut -c1-12)" >> $S; done
echo "== into a pipe, bom8 j16" >> $S
for v in gg-base gpugrep rg; do
  a="--engine cpu -j 16 -r"; [ $v = rg ] && a="--no-config -uu -a -j 16"
  for r in 1 2 3; do TIMEFORMAT="$v %R"; { time $D/$v $a -n -F the $E/bom8 | cat > /dev/null; } 2>> $S; done
done
echo "all done after $SECONDS s" >> $S
cat $S
