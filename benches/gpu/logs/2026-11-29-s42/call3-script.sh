#!/usr/bin/env bash
# session 42, call 3 (16 cores): -w on the GPU with the rules relaxed and
# trimmed for its plan ("new", uncommitted then; committed as the next
# commit) against 281eddb ("base"): gitleaks and the templates, -w -c and
# -w -n md5 against the CPU engine; -c for reference; rule_packs on the GPU.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
t() {
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
  (echo "== $l"; grep 'gpu:\|stages\|rule pack\|cpu:' $X/err.txt | cut -c1-300) >> $ST
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "gitleaks -w -c auto $v" ${!v} --stats -j16 -h -w -c -P -f $G -r $L
    t "templates -w -c auto $v" ${!v} --stats -j16 -h -w -c -E -f $T -r $L
  done
  t "gitleaks -c auto new" $new --stats -j16 -h -c -P -f $G -r $L
done
$new -j16 -h -w -n -P -f $G -r $L | md5sum > $X/a.md5; $new --engine cpu -j16 -h -w -n -P -f $G -r $L | md5sum > $X/c.md5
echo "gitleaks -w -n md5 auto $(cat $X/a.md5) cpu $(cat $X/c.md5)" >> $S
rm -rf $W
export GPUGREP_BIN=$D/gpugrep
GPUGREP_TEST_ENGINE=gpu timeout 120 $D/rule_packs --test-threads=8 > $O/rp-gpu.log 2>&1; echo "rule_packs (gpu) rc $? $(grep 'test result' $O/rp-gpu.log)" >> $S
echo "done after $SECONDS s" >> $S
cat $S
