#!/usr/bin/env bash
# session 51, call 5: the kept build (thread-local caches, one map per
# type; call 4's early race decision dropped) against base 30f6ab5, base
# first this time (call 4 ran new first, and rg ran 10-20 % slower in that
# first hunt too): the hunt, then the walked rows of benches/everyday.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
for b in gg-base gpugrep; do
  timeout 120 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
    --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/$b --gpugrep-args "--engine cpu -j 16" \
    --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-$b.tsv > $X/hunt-$b.log 2>&1
  echo "hunt $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/hunt-$b.log | head -3 >> $S
done
for b in gg-base gpugrep; do
  GPUGREP=$D/$b CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    timeout 100 benches/everyday $E --only '^(many|tree|bom)' --reps 3 --timeout 10 --no-grep --out $O/everyday-$b.tsv > $X/ev-$b.log 2>&1
  echo "everyday $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean\|peak" $X/ev-$b.log | head -4 >> $S
  awk -F'\t' '$3 !~ /^rg/ && $8+0 < 1.0 && NR > 1 {print "  below 1.0:", $1, $4, $8, $14}' $O/everyday-$b.tsv >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
