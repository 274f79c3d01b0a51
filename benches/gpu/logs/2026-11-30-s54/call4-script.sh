#!/usr/bin/env bash
# session 54, call 4: issue 17's rows at 5cfb402 with their anchors in the
# same run: the templates and gitleaks over 16 GiB of loghub, the generated
# 1,000 rules over 16 GiB of CI logs; -c and -n into /dev/null; gpugrep
# auto and --engine gpu, Hyperscan (benches/hs/hsgrep.c, 16 threads), rg
# -j16 on the templates (it cannot compile gitleaks).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 10000 > /dev/null
echo "data after $SECONDS s; $(du -sb $W/loghub-16G /dev/shm/ci | tr '\n' ' ')" >> $S
t() { # label cmd...: wall, user, sys, peak, the counts' sum (-c) or the lines' md5 (-n)
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) lines $(wc -l < $X/ans.txt)" >> $S
}
n() { # label cmd...: -n output into /dev/null, timed
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > /dev/null 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt)" >> $S
}
G=$D/gpugrep; HS=$D/hsgrep
for r in 1 2; do
  for p in "templates -E $W/rules-templates.txt $W/loghub-16G" "gitleaks -P $W/rules-gitleaks.txt $W/loghub-16G" "1000 -E $W/rules/rules-1000.txt /dev/shm/ci"; do
    set -- $p
    t "$1 -c auto r$r" $G -j16 -h -c $2 -f $3 -r $4
    t "$1 -c gpu r$r" $G --engine gpu -j16 -h -c $2 -f $3 -r $4
    n "$1 -n auto r$r" $G -j16 -h -n $2 -f $3 -r $4
  done
done
for p in "templates $W/rules-templates.txt $W/loghub-16G" "gitleaks $W/rules-gitleaks.txt $W/loghub-16G" "1000 $W/rules/rules-1000.txt /dev/shm/ci"; do
  set -- $p
  t "$1 -c hs" $HS -j 16 -f $2 $3
  n "$1 -n hs" $HS -j 16 -n -f $2 $3
done
t "templates -c rg" $D/rg --no-config -uu -a -j16 -h -c -f $W/rules-templates.txt $W/loghub-16G
echo "all done after $SECONDS s" >> $S
cat $S
