#!/usr/bin/env bash
# session 50, call 4 (the tail told where a worker takes the last batch or runs out; call 3 found the walked rows slower at 2a3f8b1): the hunt and
# benches/everyday's walked rows (many, tree, bom; 5 reps) at 16 threads,
# new then base b108472 in one call; the e-mail-or-URL row's --stats.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
for b in gpugrep gg-base; do
  timeout 120 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
    --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/$b --gpugrep-args "--engine cpu -j 16" \
    --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-$b.tsv > $X/hunt-$b.log 2>&1
  echo "hunt $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/hunt-$b.log | head -3 >> $S
  GPUGREP=$D/$b CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    timeout 100 benches/everyday $E --only '^(many|tree|bom)' --reps 5 --timeout 10 --no-grep --out $O/everyday-$b.tsv > $X/ev-$b.log 2>&1
  echo "everyday $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/ev-$b.log | head -3 >> $S
  awk -F'\t' '$3 !~ /^rg/ && $8+0 < 1.0 && NR > 1 {print "  below 1.0:", $1, $4, $8, $14}' $O/everyday-$b.tsv >> $S
done
L=/dev/shm/real/loghub-1G
TIMEFORMAT=%R
for b in gpugrep gg-base; do
  t=""; for k in 1 2 3; do t="$t $( { time $D/$b --engine cpu -j16 -c -E '\w+@\w+\.\w+|https?://[^ ]+' -r $L > /dev/null 2>&1; } 2>&1 )"; done
  echo "mail-url -j16 $b:$t" >> $S
done
$D/gpugrep --engine cpu --stats -j16 -c -E '\w+@\w+\.\w+|https?://[^ ]+' -r $L 2>&1 >/dev/null | grep split >> $S
echo "all done after $SECONDS s" >> $S
cat $S
