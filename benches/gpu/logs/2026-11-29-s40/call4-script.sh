#!/usr/bin/env bash
# session 40, call 4 (16 cores): the automaton kernel leaving out words with
# no state, carry or first position ("skip", a build of this tree with
# that kernel) against d993ede ("head") on gitleaks (the 26-word cut
# automaton), the templates, the generated 1,000 rules (27 rules on the
# automaton); then the skip kernel against its mirror.
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
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt; head=$D/gpugrep; skip=$D/gg-skip
for r in 1 2; do
  for v in head skip; do
    t "gitleaks gpu $v" ${!v} --engine gpu --stats -j16 -h -c -P -f $G -r $L; (echo "== gitleaks gpu $v r$r"; grep -E "stages" $X/err.txt) >> $ST
    t "gitleaks auto $v" ${!v} -j16 -h -c -P -f $G -r $L
    t "templates gpu $v" ${!v} --engine gpu --stats -j16 -h -c -E -f $T -r $L; (echo "== templates gpu $v r$r"; grep -E "stages" $X/err.txt) >> $ST
  done
done
rm -rf $W
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
for r in 1 2; do
  for v in head skip; do
    t "gen 1000 gpu $v" ${!v} --engine gpu --stats -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/l16; (echo "== gen gpu $v r$r"; grep -E "stages" $X/err.txt) >> $ST
  done
done
rm -rf /dev/shm/l16
export GPUGREP_BIN=$D/gg-skip
GPUGREP_DIFF_CASES=1500 timeout 90 $D/gpu_automaton_skip kernel_matches_reference --nocapture > $O/automaton.log 2>&1; echo "gpu_automaton (skip) rc $? $(grep -E 'automaton kernel' $O/automaton.log)" >> $S
echo "done after $SECONDS s" >> $S
cat $S
