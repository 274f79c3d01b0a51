#!/usr/bin/env bash
# session 41, call 7 (16 cores): auto lists the inputs beside a rule
# pack's compile from 200 expressions (was 1,000), so CUDA opens while
# gitleaks' 221 rules compile: "new" against call 4's code ("c4", ab8b5d4)
# and --engine gpu over the three shapes; then 64 files of 1 MiB (under
# the 1 GiB from which CUDA opens beside the compile), auto against the
# CPU engine.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; mkdir -p $W/mix $W/small $W/tiny
files=($(ls $L))
for k in $(seq 0 15); do
  for i in $(seq 0 15); do dd if=$L/${files[$(( (i*4 + k) % 64 ))]} bs=16M skip=$k count=1 status=none; done > $W/mix/m$k.log
done
for i in $(seq 0 2047); do dd if=$L/${files[$(( (i*4 + i/64) % 64 ))]} bs=1M skip=$(( i / 16 )) count=1 status=none > $W/small/s$i.log; done
for i in $(seq 0 63); do cp $W/small/s$(( i * 32 )).log $W/tiny/; done
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) | $(grep -o 'CUDA opened beside[^(]*\|ready after [0-9.]* s\|cpu: [0-9]* files' $X/err.txt | sort -u | tr '\n' ' ')" >> $S
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt
c4=$D/gg-c4; new=$D/gpugrep
for r in 1 2; do
  for d in loghub-16G mix small; do
    for v in c4 new; do t "gitleaks $d auto $v" ${!v} --debug --stats -j16 -h -c -P -f $G -r $W/$d; done
    t "gitleaks $d gpu new" $new --engine gpu --stats -j16 -h -c -P -f $G -r $W/$d
  done
  for v in c4 new; do t "gitleaks tiny auto $v" ${!v} --debug --stats -j16 -h -c -P -f $G -r $W/tiny; done
  t "gitleaks tiny cpu new" $new --engine cpu -j16 -h -c -P -f $G -r $W/tiny
  for v in c4 new; do t "templates loghub-16G auto $v" ${!v} --debug --stats -j16 -h -c -E -f $T -r $L; done
done
cat $S
