#!/usr/bin/env bash
# session 41, call 1 (16 cores): gitleaks' literal-free rules by literal
# sets counting case variants once and crossing larger classes ("new": 2
# rules on the automaton, 7 words, where base had 7 rules, 26 words),
# against e169dcd ("base"), and new with the automaton's state in
# registers ("r16", pending-registers-r16.diff of session 40); the
# templates; then gpu_rule_split (new), the r16 kernel against its mirror
# and compute-sanitizer memcheck on it and on confirm.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
  (echo "== $l"; grep 'stages\|rule pack\|given\|lag' $X/err.txt) >> $ST
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep; r16=$D/gg-r16
for r in 1 2; do
  for v in base new r16; do
    t "gitleaks auto $v" ${!v} --stats -j16 -h -c -P -f $G -r $L
  done
  for v in new r16; do
    t "gitleaks gpu $v" ${!v} --engine gpu --stats -j16 -h -c -P -f $G -r $L
  done
  for v in base new r16; do
    t "templates auto $v" ${!v} --stats -j16 -h -c -E -f $T -r $L
  done
done
t "gitleaks cpu" $new --engine cpu -j16 -h -c -P -f $G -r $L
t "gitleaks hs" $D/hsgrep -j 16 -f $G $L
t "gitleaks -n auto new" $new -j16 -h -n -P -f $G -r $L
$new -j16 -h -n -P -f $G -r $L | md5sum > $X/a.md5; $new --engine cpu -j16 -h -n -P -f $G -r $L | md5sum > $X/c.md5
echo "gitleaks -n md5 auto $(cat $X/a.md5) cpu $(cat $X/c.md5)" >> $S
echo "--debug of gitleaks (new):" >> $ST; echo x | $new --debug -c -P -f $G 2>&1 | head -3 | cut -c1-1500 >> $ST
rm -rf $W
echo "timings done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
timeout 100 $D/gpu_rule_split --test-threads=4 > $O/rule_split.log 2>&1; echo "gpu_rule_split (new) rc $? $(grep 'test result' $O/rule_split.log)" >> $S
GPUGREP_BIN=$D/gg-r16 GPUGREP_DIFF_CASES=1500 timeout 80 $D/ga-r16 kernel_matches_reference --nocapture > $X/ga.log 2>&1; echo "gpu_automaton kernel (r16) rc $? $(grep 'automaton kernel\|test result' $X/ga.log | tr '\n' ' ')" >> $S
GPUGREP_DIFF_SMALL=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $D/ga-r16 kernel_matches_reference > $O/memcheck.log 2>&1; echo "memcheck automaton (r16) rc $?" >> $S
GPUGREP_DIFF_SMALL=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_rule_split kernels_match_reference >> $O/memcheck.log 2>&1; echo "memcheck confirm (new) rc $?" >> $S
echo "done after $SECONDS s" >> $S
cat $S
