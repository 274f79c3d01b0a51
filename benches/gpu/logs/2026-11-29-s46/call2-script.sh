#!/usr/bin/env bash
# session 46, call 2 (16 cores): the rule set's literals cut to 12 or 16
# bytes (GG_LIT_MAX) for loghub's templates, 1,000 generated rules and
# gitleaks; with the rules' ASCII cuts as shared dense DFAs (GG_DENSE).
# Same prototype binary as call 1.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; lscpu | head -20; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
C=/dev/shm/ci; $D/gpugrep-corpus --kind logs --size 16G --files 64 --out $C > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label env cmd...: wall, user, sys, peak, sum of counts
  local l=$1 e=$2; shift 2
  env $e timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(head -c 100 $X/err.txt | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt; R=$D/rules/rules-1000.txt
g=$D/gpugrep
for r in 1 2; do
  for v in NONE=1 GG_LIT_MAX=12 GG_LIT_MAX=16 "GG_LIT_MAX=12 GG_DENSE=1"; do
    t "templates -c cpu [$v]" "$v" $g --engine cpu -j16 -h -c -E -f $T -r $L
  done
  for v in NONE=1 GG_LIT_MAX=12 GG_LIT_MAX=16; do
    t "1000 -c cpu [$v]" "$v" $g --engine cpu -j16 -h -c -E -f $R -r $C
  done
done
t "1000 -c rg" NONE=1 $D/rg -j16 -c --no-filename -f $R $C
for v in NONE=1 GG_LIT_MAX=12; do
  t "gitleaks -c cpu [$v]" "$v" $g --engine cpu -j16 -h -c -P -f $G -r $L
done
echo "all done after $SECONDS s" >> $S
cat $S
