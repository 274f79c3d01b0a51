#!/usr/bin/env bash
# session 50, call 2 (7c15d43: call 1's build with a tail split's pieces
# read from the file, 256 KiB where lines print): benches/everyday's rows
# over the directories (many, tree, bom) at 16 threads, new and base
# b108472 (the steal of a batch's last file touches every walk); the hunt
# for the new build; then gpu_end_to_end and gpu_differential.
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
  GPUGREP=$D/$b CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    timeout 120 benches/everyday $E --only '^(many|tree|bom)' --reps 3 --timeout 10 --no-grep --out $O/everyday-$b.tsv > $X/ev-$b.log 2>&1
  echo "everyday $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/ev-$b.log | head -3 >> $S
done
timeout 120 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
  --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/gpugrep --gpugrep-args "--engine cpu -j 16" \
  --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-gpugrep.tsv > $X/hunt.log 2>&1
echo "hunt: rc $? after $SECONDS s" >> $S
grep -i "geomean" $X/hunt.log | head -3 >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 150 $D/$t --test-threads=8 --nocapture > $X/$t.txt 2>&1
  echo "$t: rc $? after $SECONDS s $(grep -h 'test result' $X/$t.txt | tr '\n' ' ') $(grep -hE 'cases|mismatches|skipped' $X/$t.txt | tr '\n' ' ' | head -c 400)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
