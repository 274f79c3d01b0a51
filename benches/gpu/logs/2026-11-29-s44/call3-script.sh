#!/usr/bin/env bash
# session 44, call 3: the -w DFA fast over 1 GiB (call 2), over 60 s over
# 16 GiB (call 1): files split into pieces or not (GPUGREP_SPLIT_MIN),
# and 4 GiB between.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 4G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'trials\|gave' $X/err.txt | sed 's/lines found by trials.//' | head -c 150)" >> $S
}
T=$W/rules-templates.txt
new=$D/gpugrep
for f in 1 2; do
  GPUGREP_RETIMED=$f t "4G -w -c -j16 forced $f" $new --engine cpu -j16 -h -w -c -E -f $T -r $W/loghub-4G
  GPUGREP_SPLIT_MIN=1G GPUGREP_RETIMED=$f t "4G -w -c -j16 forced $f unsplit" $new --engine cpu -j16 -h -w -c -E -f $T -r $W/loghub-4G
  GPUGREP_SPLIT_MIN=1G GPUGREP_RETIMED=$f t "16G -w -c -j16 forced $f unsplit" $new --engine cpu -j16 -h -w -c -E -f $T -r $W/loghub-16G
done
GPUGREP_RETIMED=2 t "16G -w -c -j16 forced 2 (Android-0 only)" $new --engine cpu -j16 -h -w -c -E -f $T $W/loghub-16G/Android-0.log
GPUGREP_RETIMED=2 GPUGREP_SPLIT_MIN=1G t "16G -w -c -j16 forced 2 (Android-0 only) unsplit" $new --engine cpu -j16 -h -w -c -E -f $T $W/loghub-16G/Android-0.log
cat $S
