#!/usr/bin/env bash
# session 43, call 4 (16 cores): the session's last code (21e0e28: calls
# in windows of whole lines) on -x packs, two rounds; rule_packs on the GPU.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
C=/dev/shm/ci; $D/gpugrep-corpus --kind logs --size 16G --files 64 --out $C > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 90 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep trials $X/err.txt)" >> $S
}
new=$D/gpugrep
for r in 1 2; do
  t "templates -x -c cpu new" $new --stats --engine cpu -j16 -h -x -c -E -f $W/rules-templates.txt -r $L
  for n in 1000 10000; do t "$n -x -c cpu new" $new --stats --engine cpu -j16 -h -x -c -E -f $D/rules/rules-$n.txt -r $C; done
done
rm -rf $W $C
export GPUGREP_BIN=$D/gpugrep
GPUGREP_TEST_ENGINE=gpu timeout 100 $D/rule_packs --test-threads=4 > $X/rp.log 2>&1; echo "rule_packs (gpu) rc $? $(grep 'test result' $X/rp.log)" >> $S
echo "done after $SECONDS s" >> $S
cat $S
