#!/usr/bin/env bash
# session 52, call 4: gpu_rule_split with rules of 2-4 and more words
# (the test's LONG pieces) against the base kernel (f91c24c); where the
# confirm kernel's time goes for the real packs, by source line (ncu's
# source counters on a build whose kernels carry line info).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G > $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gg-base
timeout 200 $D/t/gpu_rule_split --test-threads 1 > $O/tests.txt 2>&1
echo "gpu_rule_split rc $? after $SECONDS s: $(grep -h "test result\|cases," $O/tests.txt | tr '\n' ' ')" >> $S
N="ncu --clock-control none"
for p in "templates -E cuda" "gitleaks -P cuda" "templates -E sass"; do
  set -- $p
  timeout 120 $N -k confirm --launch-skip 3 --launch-count 1 --section SourceCounters --section WarpStateStats \
    --page source --print-source $3 --import-source yes --source-folders $PWD/kernels --csv \
    $D/gg-line --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-1G > $X/src.txt 2>&1
  echo "ncu source $1 $3 rc $? after $SECONDS s" >> $S
  grep -v '^[0-9]*$' $X/src.txt | xz -1 > $O/src-$1-$3.csv.xz
done
echo "all done after $SECONDS s" >> $S
cat $S
