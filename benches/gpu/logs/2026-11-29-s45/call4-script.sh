#!/usr/bin/env bash
# session 45, call 4 (16 cores): a byte-order mark starting a line stepped
# over by -w's automata (new) against ec88be9 (base; 951b89c in call 3):
# the kernels against their mirrors (BOM lines in gpu_automaton's text and
# in gpu_rule_split's -w cases), compute-sanitizer, rule_packs on the GPU;
# then loghub with CRLF and a BOM a file, and a BOM inside a file.
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
GPUGREP_TEST_ENGINE=gpu timeout 120 $D/rule_packs --test-threads=8 > $O/rp-gpu.txt 2>&1; echo "rule_packs gpu: rc $? $(grep -h 'test result' $O/rp-gpu.txt)" >> $S
echo "tests done after $SECONDS s" >> $S
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
mkdir -p /dev/shm/bom /dev/shm/inside
for f in $L/*-0.log; do
  b=$(basename $f)
  { printf '\xef\xbb\xbf'; sed 's/$/\r/' $f; } > /dev/shm/bom/$b
done
# One file with a BOM starting a line in its middle.
cp /dev/shm/bom/* /dev/shm/inside/
{ head -c 1000000 $L/Linux-0.log; printf '\xef\xbb\xbfx\n'; tail -c +1000001 $L/Linux-0.log; } > /dev/shm/inside/Linux-0.log
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied' $X/err.txt | sed 's/ready after.*//' | head -c 150) $(grep -h 'fallback' $X/err.txt | head -c 200)" >> $S
}
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for c in /dev/shm/bom /dev/shm/inside; do
  n=$(basename $c)
  for v in base new; do
    t "$n templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $c --stats
  done
  t "$n templates -w -c rg" $D/rg -j16 -w -c --no-filename -f $T $c
  for v in base new; do
    ${!v} -j16 -w -n -E -f $T -r $c | md5sum | sed "s/^/md5 $n templates -w -n auto $v /" >> $S
  done
done
t "templates -w -c auto new (16 GiB)" $new -j16 -h -w -c -E -f $T -r $L --stats
t "templates -c auto new (16 GiB)" $new -j16 -h -c -E -f $T -r $L --stats
echo "all done after $SECONDS s" >> $S
cat $S
