#!/usr/bin/env bash
# session 56, call 4: where the confirm kernel's time goes for the
# templates and gitleaks (ncu source counters, CUDA-source view, one launch
# over 1 GiB, a build of 04f250a whose kernels carry line info), and the
# templates' --stats over 16 GiB.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G >> $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "templates -E cuda" "gitleaks -P cuda"; do
  set -- $p
  timeout 150 $N -k confirm --launch-skip 3 --launch-count 1 --section SourceCounters --section WarpStateStats \
    --page source --print-source $3 --import-source yes --source-folders $PWD/kernels --csv \
    $D/gg-line --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-1G > $X/src.txt 2>&1
  echo "ncu source $1 $3 rc $? after $SECONDS s" >> $S
  grep -v '^[0-9]*$' $X/src.txt | xz -1 > $O/src-$1-$3.csv.xz
done
for r in 1 2; do
  $D/gpugrep --stats -j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G > /dev/null 2> $X/stats.txt
  echo "templates --stats r$r: $(tr '\n' '|' < $X/stats.txt)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
