#!/usr/bin/env bash
# session 44, call 1 (16 cores): -w packs with the alternation's lazy DFA
# timed against the rules (new) against ec88be9 (base); the DFA and the
# rules forced (GPUGREP_RETIMED=2/1); -x after the windows' change.
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
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'trials' $X/err.txt | sed 's/lines found by trials.//' | head -c 150) $(grep -v trials $X/err.txt | head -c 100 | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "templates -w -c cpu $v" ${!v} --engine cpu -j16 -h -w -c -E -f $T -r $L --stats
  done
  t "templates -w -c rg" $D/rg -j16 -w -c --no-filename -f $T $L
done
GPUGREP_RETIMED=2 t "templates -w -c cpu new DFA forced" $new --engine cpu -j16 -h -w -c -E -f $T -r $L
GPUGREP_RETIMED=1 t "templates -w -c cpu new rules forced" $new --engine cpu -j16 -h -w -c -E -f $T -r $L
for v in base new; do
  t "templates -w -v -c cpu $v" ${!v} --engine cpu -j16 -h -w -v -c -E -f $T -r $L --stats
  t "templates -x -c cpu $v" ${!v} --engine cpu -j16 -h -x -c -E -f $T -r $L --stats
  t "templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $L
done
echo "loghub done after $SECONDS s" >> $S
for n in 1000 10000; do
  R=$D/rules/rules-$n.txt
  for r in 1 2; do
    for v in base new; do
      t "$n -w -c cpu $v" ${!v} --engine cpu -j16 -h -w -c -E -f $R -r $C --stats
    done
  done
  [ $n = 1000 ] && t "$n -w -c rg" $D/rg -j16 -w -c --no-filename -f $R $C
  for v in base new; do
    t "$n -x -c cpu $v" ${!v} --engine cpu -j16 -h -x -c -E -f $R -r $C --stats
  done
done
echo "generated done after $SECONDS s" >> $S
cat $S
