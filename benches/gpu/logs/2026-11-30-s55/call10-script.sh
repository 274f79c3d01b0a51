#!/usr/bin/env bash
# session 55, call 10: the everyday matrix's BOM rows (the one corpus of
# the matrix with a directory of more than 1,024 entries) at 16 threads,
# a328fd4 (new) and fd25032 (base), each against rg, 5 reps.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
for v in gpugrep gg-base; do
  GPUGREP=$D/$v CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    timeout 120 benches/everyday $E --only '^bom' --reps 5 --no-grep > $O/everyday-bom-$v.txt 2>&1
  echo "$v rc $? after $SECONDS s" >> $S
done
cat $S; tail -25 $O/everyday-bom-gpugrep.txt; tail -25 $O/everyday-bom-gg-base.txt
