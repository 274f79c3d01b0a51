#!/usr/bin/env bash
# session 51, call 1: each thread's regex caches its own (thread-local, no
# lock) against base 30f6ab5; where tree-call's CPU time goes at 16 threads
# (wall, user, sys, page faults: benches/cpu-time.py), with a build that
# never hands its grown read buffer back (norel, a diagnosis); the hunt and
# the walked rows of benches/everyday, new then base.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
C='\w+->\w+\(|\w+\.\w+\('
for j in 16 4; do
  echo "tree-call -j$j" >> $S
  timeout 100 python3 benches/cpu-time.py --rounds 9 \
    new="$D/gpugrep --engine cpu -j $j -r -c -E '$C' $E/tree" norel="$D/gg-norel --engine cpu -j $j -r -c -E '$C' $E/tree" \
    base="$D/gg-base --engine cpu -j $j -r -c -E '$C' $E/tree" rg="$D/rg --no-config -uu -a -j $j -c '$C' $E/tree" >> $S 2>&1
done
echo "tree-lit-freq -j16" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 9 \
  new="$D/gpugrep --engine cpu -j 16 -r -c return $E/tree" norel="$D/gg-norel --engine cpu -j 16 -r -c return $E/tree" \
  base="$D/gg-base --engine cpu -j 16 -r -c return $E/tree" rg="$D/rg --no-config -uu -a -j 16 -c return $E/tree" >> $S 2>&1
echo "many -n ERROR -j16" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 9 \
  new="$D/gpugrep --engine cpu -j 16 -r -n ERROR $E/many" norel="$D/gg-norel --engine cpu -j 16 -r -n ERROR $E/many" \
  base="$D/gg-base --engine cpu -j 16 -r -n ERROR $E/many" rg="$D/rg --no-config -uu -a -j 16 -n ERROR $E/many" >> $S 2>&1
echo "cpu-time done after $SECONDS s" >> $S
for b in gpugrep gg-base; do
  timeout 120 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
    --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/$b --gpugrep-args "--engine cpu -j 16" \
    --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-$b.tsv > $X/hunt-$b.log 2>&1
  echo "hunt $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/hunt-$b.log | head -3 >> $S
done
for b in gpugrep gg-norel; do
  GPUGREP=$D/$b CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    timeout 100 benches/everyday $E --only '^(many|tree|bom)' --reps 3 --timeout 10 --no-grep --out $O/everyday-$b.tsv > $X/ev-$b.log 2>&1
  echo "everyday $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/ev-$b.log | head -3 >> $S
  awk -F'\t' '$3 !~ /^rg/ && $8+0 < 1.0 && NR > 1 {print "  below 1.0:", $1, $4, $8, $14}' $O/everyday-$b.tsv >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
