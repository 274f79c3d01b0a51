#!/usr/bin/env bash
# session 53, call 5: 81b9281 (call 4's build, a front place counted only
# for a file taken) on the 16-core host: tests/walk_order.rs three times;
# the one-thread output against 16 and 8 threads under lead bounds of 2K,
# 1M and 16M (GPUGREP_LEAD_BYTES: past the far bound nearly all the time)
# over bom8 and the tree; bom8 -n the against rg once more.
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
for r in 1 2 3; do GPUGREP_BIN=$D/gpugrep timeout 120 $D/walk_order > $O/walk_order-$r.txt 2>&1; echo "walk_order run $r rc $?: $(grep 'test result' $O/walk_order-$r.txt)" >> $S; done
for c in "bom8|-n -F the $E/bom8" "tree|-n -F return $E/tree"; do
  IFS='|' read -r name a <<< "$c"
  one=$($D/gpugrep --engine cpu -j1 -r $a | md5sum | cut -c1-12)
  echo "$name j1: $one" >> $S
  for lead in 2K 1M 16M; do for j in 16 8; do
    got=$(GPUGREP_LEAD_BYTES=$lead timeout 60 $D/gpugrep --engine cpu -j$j -r $a | md5sum | cut -c1-12)
    echo "$name lead $lead j$j: $got $([ "$got" = "$one" ] && echo same || echo DIFFERENT)" >> $S
  done; done
done
echo "== bom8 j16" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 5 new="$D/gpugrep --engine cpu -j16 -r -n -F the $E/bom8" \
  rg="$D/rg --no-config -uu -a -j16 -n -F the $E/bom8" >> $S 2>&1
echo "== bom8 j16 into a pipe" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 5 new="$D/gpugrep --engine cpu -j16 -r -n -F the $E/bom8 | cat" \
  rg="$D/rg --no-config -uu -a -j16 -n -F the $E/bom8 | cat" >> $S 2>&1
echo "all done after $SECONDS s" >> $S
cat $S
