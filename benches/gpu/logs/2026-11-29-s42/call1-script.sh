#!/usr/bin/env bash
# session 42, call 1 (16 cores): rule packs where matches are printed or
# words asked for. "new" (281eddb: lines by the trimmed rules, matches by
# the rules as written; -w per rule; large rules' forward automata alone)
# against 046bfc9 ("base"): gitleaks and the templates over 16 GiB of
# loghub's logs, -c / -o / --count-matches / -w / -x, auto and the CPU
# engine, rg and Hyperscan beside; then rule_packs on the GPU and auto.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
echo "corpus after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts (or lines)
  local l=$1; shift
  timeout 90 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(head -c 120 $X/err.txt | tr '\n' ' ')" >> $S
  (echo "== $l"; grep 'compiled\|gpu:\|stages\|rule pack\|cpu:' $X/err.txt | cut -c1-400) >> $ST
}
o() { # label cmd...: printed lines into md5sum, timed
  local l=$1; shift
  timeout 120 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt bash -c '"$@" 2>'$X/err.txt' | md5sum > '$X/md5.txt _ "$@"
  echo "$l: $(tail -1 $X/t.txt) md5 $(cut -c1-12 $X/md5.txt) $(head -c 120 $X/err.txt | tr '\n' ' ')" >> $S
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "gitleaks -c auto $v" ${!v} -j16 -h -c -P -f $G -r $L
    t "gitleaks -c cpu $v" ${!v} --engine cpu -j16 -h -c -P -f $G -r $L
  done
  o "gitleaks -o auto new" $new -j16 -h -o -P -f $G -r $L
  o "gitleaks -o cpu new" $new --engine cpu -j16 -h -o -P -f $G -r $L
  t "gitleaks --count-matches auto new" $new -j16 -h --count-matches -P -f $G -r $L
  t "gitleaks -w -c auto new" $new --stats -j16 -h -w -c -P -f $G -r $L
  t "gitleaks -w -c cpu new" $new --engine cpu -j16 -h -w -c -P -f $G -r $L
  t "gitleaks -x -c auto new" $new -j16 -h -x -c -P -f $G -r $L
done
t "gitleaks -o auto base" $base -j16 -h -o -P -f $G -r $L
t "gitleaks -c hs" $D/hsgrep -j 16 -f $G $L
echo "gitleaks done after $SECONDS s" >> $S
for r in 1 2; do
  for v in base new; do
    t "templates -c auto $v" ${!v} -j16 -h -c -E -f $T -r $L
    o "templates -o cpu $v" ${!v} --engine cpu -j16 -h -o -E -f $T -r $L
    t "templates -w -c cpu $v" ${!v} --engine cpu -j16 -h -w -c -E -f $T -r $L
  done
  o "templates -o auto new" $new -j16 -h -o -E -f $T -r $L
  t "templates -w -c auto new" $new --stats -j16 -h -w -c -E -f $T -r $L
  o "templates -o rg" $D/rg -j16 -o --no-filename -f $T $L
  t "templates -w -c rg" $D/rg -j16 -c -w --no-filename -f $T $L
done
echo "templates done after $SECONDS s" >> $S
rm -rf $W
export GPUGREP_BIN=$D/gpugrep
for e in gpu auto; do GPUGREP_TEST_ENGINE=$e timeout 90 $D/rule_packs --test-threads=4 > $X/rp.log 2>&1; echo "rule_packs ($e) rc $? $(grep 'test result' $X/rp.log)" >> $S; done
echo "done after $SECONDS s" >> $S
cat $S
