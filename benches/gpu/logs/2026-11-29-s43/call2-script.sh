#!/usr/bin/env bash
# session 43, call 2 (16 cores): -x packs with the alternation's lazy DFA
# run directly (80dfb53, "new": cpu::DfaLines, the rules answering where it
# gives up) against 467ddf5 ("base"); the per-thread caches' refactor
# (cached::Caches) on packs without -x; rule_packs on the GPU and auto.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
C=/dev/shm/ci; $D/gpugrep-corpus --kind logs --size 16G --files 64 --out $C > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts (or lines)
  local l=$1; shift
  timeout 90 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(head -c 120 $X/err.txt | tr '\n' ' ')" >> $S
}
o() { # label cmd...: printed lines into md5sum, timed
  local l=$1; shift
  timeout 120 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt bash -c '"$@" 2>'$X/err.txt' | md5sum > '$X/md5.txt _ "$@"
  echo "$l: $(tail -1 $X/t.txt) md5 $(cut -c1-12 $X/md5.txt) $(head -c 120 $X/err.txt | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "templates -x -c cpu $v" ${!v} --engine cpu -j16 -h -x -c -E -f $T -r $L
    t "templates -c cpu $v" ${!v} --engine cpu -j16 -h -c -E -f $T -r $L
  done
  t "templates -x -c rg" $D/rg -j16 -x -c --no-filename -f $T $L
done
echo "loghub done after $SECONDS s" >> $S
for n in 1000 10000; do
  R=$D/rules/rules-$n.txt
  for r in 1 2; do
    for v in base new; do
      t "$n -x -c cpu $v" ${!v} --engine cpu -j16 -h -x -c -E -f $R -r $C
      [ $n = 1000 ] && t "$n -c cpu $v" ${!v} --engine cpu -j16 -h -c -E -f $R -r $C
    done
    t "$n -x -c rg" $D/rg -j16 -x -c --no-filename -f $R $C
  done
  for v in base new; do o "$n -x -n cpu $v" ${!v} --engine cpu -j16 -x -n -E -f $R -r $C; done
done
echo "generated done after $SECONDS s" >> $S
rm -rf $W $C
export GPUGREP_BIN=$D/gpugrep
for e in gpu auto; do GPUGREP_TEST_ENGINE=$e timeout 100 $D/rule_packs --test-threads=4 > $X/rp-$e.log 2>&1; echo "rule_packs ($e) rc $? $(grep 'test result' $X/rp-$e.log)" >> $S; done
cp $X/rp-*.log $O/
echo "done after $SECONDS s" >> $S
cat $S
