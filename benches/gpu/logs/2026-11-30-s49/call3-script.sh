#!/usr/bin/env bash
# session 49, call 3: the session's later build (rare short literals for
# alternations, the -i literal confirm from the first window) against base
# (gg-base: a36d656) at 16 threads: benches/cases-regex-hunt.tsv (realistic
# regexes off the matrix) and the everyday matrix's -i rows, base then new
# (3 runs, rg -j16); then gpu_end_to_end and gpu_differential.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
for b in gg-base gpugrep; do
  GPUGREP=$D/$b CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 150 benches/everyday $E \
    --only '(-i-|-l-i)' --reps 3 --no-grep --out $O/everyday-i-$b.tsv > $O/everyday-i-$b.log 2>&1
  echo "everyday -i $b: rc $? after $SECONDS s" >> $S
  timeout 150 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
    --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/$b --gpugrep-args "--engine cpu -j 16" \
    --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-$b.tsv > $O/hunt-$b.log 2>&1
  echo "hunt $b: rc $? after $SECONDS s" >> $S
done
rm -rf $E /dev/shm/real
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 150 $D/$t --test-threads=8 --nocapture > $O/$t.txt 2>&1
  echo "$t: rc $? after $SECONDS s $(grep -h 'test result' $O/$t.txt | tr '\n' ' ') $(grep -hE 'cases|mismatches|skipped' $O/$t.txt | tr '\n' ' ' | head -c 400)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
