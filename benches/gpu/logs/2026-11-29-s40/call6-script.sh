#!/usr/bin/env bash
# session 40, call 6 (16 cores): the automaton kernel's state in registers
# for passes of up to 32 words ("r32", launch bounds (256, 1): 161
# registers, no spill) or 16 ("r16": 80 registers), local memory past
# that, against the session's last code ("head", c2e41bc: 32 registers,
# the state in local memory): gitleaks (26 words) and the templates (2 and
# 32 words) under --engine gpu; each variant's kernel against its mirror.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
  (echo "== $l"; grep stages $X/err.txt) >> $ST
}
head=$D/gpugrep; r32=$D/gg-r32; r16=$D/gg-r16
for v in head r32 r16; do
  t "gitleaks gpu $v" ${!v} --engine gpu --stats -j16 -h -c -P -f $W/rules-gitleaks.txt -r $L
  t "templates gpu $v" ${!v} --engine gpu --stats -j16 -h -c -E -f $W/rules-templates.txt -r $L
done
for v in r32 r16 head; do
  t "gitleaks auto $v" ${!v} -j16 -h -c -P -f $W/rules-gitleaks.txt -r $L
done
rm -rf $W
echo "timings done after $SECONDS s" >> $S
for v in r32 r16; do
  GPUGREP_BIN=$D/gg-$v GPUGREP_DIFF_CASES=1500 timeout 60 $D/ga-$v kernel_matches_reference --nocapture > $X/ga.log 2>&1; echo "gpu_automaton kernel ($v) rc $? $(grep 'automaton kernel' $X/ga.log)" >> $S
done
echo "done after $SECONDS s" >> $S
cat $S
