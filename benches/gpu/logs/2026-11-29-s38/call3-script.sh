#!/usr/bin/env bash
# session 38, call 3 (16 cores): the CPU engine's forms on the real packs
# now that a dense pack's finder steps aside (GPUGREP_RULE_PACK=pack|
# alternation against the default per-rule form; "base" 420e848, "r4" with
# a line's recent rules tried first), -c and -n, 3 rounds alternating.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 100 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
}
B=$D/gpugrep; R4=$D/gg-r4
for r in 1 2 3; do
  t "templates -c rules base" $B --engine cpu -j16 -h -c -E -f $T -r $W/loghub-16G
  t "templates -c rules r4" $R4 --engine cpu -j16 -h -c -E -f $T -r $W/loghub-16G
  for e in pack alternation; do
    t "templates -c $e" env GPUGREP_RULE_PACK=$e $B --engine cpu -j16 -h -c -E -f $T -r $W/loghub-16G
  done
  t "templates -c rg" $D/rg -j16 -c --no-filename -f $T $W/loghub-16G
done
for e in rules pack; do
  /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt env GPUGREP_RULE_PACK=$e $B --engine cpu -j16 -h -n -E -f $T -r $W/loghub-16G 2>/dev/null | md5sum > $O/md5.txt
  echo "templates -n $e: $(tail -1 $O/t.txt) md5 $(cat $O/md5.txt)" >> $S
done
/usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt $D/rg -j16 -n --no-filename -f $T $W/loghub-16G > /dev/null
echo "templates -n rg: $(tail -1 $O/t.txt)" >> $S
for e in rules pack; do
  t "gitleaks -c $e" env GPUGREP_RULE_PACK=$e $B --engine cpu -j16 -h -c -P -f $G -r $W/loghub-16G
done
echo "done after $SECONDS s" >> $S
cat $S
