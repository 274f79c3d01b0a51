#!/usr/bin/env bash
# session 41, call 5 (16 cores): where gitleaks' GPU time goes, by packs
# with rules left out (--engine gpu -c, kernel time over 4 streams):
# whole; without the automaton's rules 62 and 200; those two alone; without
# rule 217 (s\. + [a-z0-9]: 7 % of lines are candidates); without rule 78
# (generic-api-key: 12 %); without both.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; G=$W/rules-gitleaks.txt; new=$D/gpugrep
sed '62d;200d' $G > $X/no-auto.txt; sed -n '62p;200p' $G > $X/auto-only.txt
sed '217d' $G > $X/no217.txt; sed '78d' $G > $X/no78.txt; sed '78d;217d' $G > $X/no78-217.txt
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) | $(grep -o 'kernel [0-9.]* s\|lanes busy [0-9.]* s\|compiled in [0-9.]* s\|lines and output [0-9.]* s' $X/err.txt | tr '\n' ' ')" >> $S
}
for r in 1 2; do
  for p in $G $X/no-auto.txt $X/auto-only.txt $X/no217.txt $X/no78.txt $X/no78-217.txt; do
    t "$(basename $p) gpu" $new --engine gpu --stats --debug -j16 -h -c -P -f $p -r $L
  done
done
cat $S
