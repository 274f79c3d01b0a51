#!/usr/bin/env bash
# session 50, call 1: the hunt (benches/cases-regex-hunt.tsv) at 16 threads,
# the new build (the last file of a busy batch stolen; files of 4 MiB or
# more begun in the run's tail split) against base b108472; the e-mail or
# URL row's --stats; the loghub rows by thread count for the new build.
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
  timeout 150 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
    --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/$b --gpugrep-args "--engine cpu -j 16" \
    --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-$b.tsv > $X/hunt-$b.log 2>&1
  echo "hunt $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean\|mismatch\|differ" $X/hunt-$b.log | head -5 >> $S
done
L=/dev/shm/real/loghub-1G
TIMEFORMAT=%R
for j in 16 8 4; do
  for b in gpugrep gg-base; do
    t=""; for k in 1 2 3; do t="$t $( { time $D/$b --engine cpu -j$j -c -E '\w+@\w+\.\w+|https?://[^ ]+' -r $L > $X/$b.txt 2>&1; } 2>&1 )"; done
    echo "mail-url -j$j $b:$t" >> $S
  done
  t=""; for k in 1 2 3; do t="$t $( { time $D/rg -j$j -c '\w+@\w+\.\w+|https?://[^ ]+' $L > $X/rg.txt 2>&1; } 2>&1 )"; done
  echo "mail-url -j$j rg:$t" >> $S
  cmp <(sort $X/gpugrep.txt) <(sort $X/gg-base.txt) >> $S 2>&1 && echo "  counts equal" >> $S
done
$D/gpugrep --engine cpu --stats -j16 -c -E '\w+@\w+\.\w+|https?://[^ ]+' -r $L 2>&1 >/dev/null | tail -4 >> $S
echo "all done after $SECONDS s" >> $S
cat $S
