#!/usr/bin/env bash
# session 45, call 2 (16 cores): -w's word boundaries in the GPU's automata
# (glushkov::word; the book's and the automaton kernel's WORD flag). First
# the kernels against their CPU mirrors (gpu_automaton, gpu_rule_split, with
# -w cases), compute-sanitizer on both, rule_packs on the GPU and auto; then
# -w on the real packs and on 1,000 / 10,000 generated rules, auto and
# --engine gpu against ec88be9 (base) and rg.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
for t in gpu_automaton gpu_rule_split; do
  timeout 150 $D/$t --test-threads=8 > $O/$t.txt 2>&1; echo "$t: rc $? $(grep -h 'test result' $O/$t.txt)" >> $S
done
GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_rule_split kernels_match_reference > $O/memcheck-split.txt 2>&1; echo "memcheck split: rc $? $(grep -h 'ERROR SUMMARY' $O/memcheck-split.txt)" >> $S
GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_automaton kernel_matches_reference > $O/memcheck-automaton.txt 2>&1; echo "memcheck automaton: rc $? $(grep -h 'ERROR SUMMARY' $O/memcheck-automaton.txt)" >> $S
for e in gpu auto; do
  GPUGREP_TEST_ENGINE=$e timeout 120 $D/rule_packs --test-threads=8 > $O/rp-$e.txt 2>&1; echo "rule_packs $e: rc $? $(grep -h 'test result' $O/rp-$e.txt)" >> $S
done
echo "tests done after $SECONDS s" >> $S
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
C=/dev/shm/ci; $D/gpugrep-corpus --kind logs --size 16G --files 64 --out $C > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied' $X/err.txt | head -c 200) $(grep -v 'tallied' $X/err.txt | head -c 100 | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $L --stats
  done
done
t "templates -w -c gpu new" $new --engine gpu -j16 -h -w -c -E -f $T -r $L --stats
for v in base new; do
  t "templates -c auto $v" ${!v} -j16 -h -c -E -f $T -r $L
  t "gitleaks -w -c auto $v" ${!v} -j16 -h -w -c -P -f $G -r $L
  ${!v} -j16 -h -w -n -E -f $T -r $L | md5sum | sed "s/^/md5 templates -w -n auto $v /" >> $S
  ${!v} -j16 -h -w -o -E -f $T -r $L/Mac-0.log | md5sum | sed "s/^/md5 templates -w -o Mac-0 auto $v /" >> $S
done
t "templates -w -n auto new (time)" $new -j16 -h -w -n -E -f $T -r $L
echo "loghub done after $SECONDS s" >> $S
for n in 1000 10000; do
  R=$D/rules/rules-$n.txt
  for v in base new; do
    t "$n -w -c auto $v" ${!v} -j16 -h -w -c -E -f $R -r $C --stats
  done
  t "$n -w -c gpu new" $new --engine gpu -j16 -h -w -c -E -f $R -r $C
  for v in base new; do
    ${!v} -j16 -h -w -n -E -f $R -r $C | md5sum | sed "s/^/md5 $n -w -n auto $v /" >> $S
  done
done
t "1000 -w -c rg" $D/rg -j16 -w -c --no-filename -f $D/rules/rules-1000.txt $C
echo "all done after $SECONDS s" >> $S
cat $S
