#!/usr/bin/env bash
# session 58, call 2: session 56's failing command with 12.9's cubins:
# -n of loghub's templates over 16 GiB (64 files of 256 MiB), auto and
# --engine gpu, lines against -c's total (125,587,472) and md5 across runs;
# gitleaks -n likewise. Then check-all's synccheck groups.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
G=$D/dev/gpugrep
echo "data after $SECONDS s: $(du -sb $W/loghub-16G | cut -f1) bytes, $(ls $W/loghub-16G | wc -l) files" >> $S
for R in templates gitleaks; do
  P=$W/rules-$R.txt
  c=$($G -j16 -h -c -E -f $P -r $W/loghub-16G | awk '{s+=$1} END {print s}')
  echo "$R -c total (auto): $c" >> $S
  for e in auto gpu auto gpu; do
    t0=$(date +%s.%N)
    r=$($G --engine $e -j16 -h -n -E -f $P -r $W/loghub-16G | tee >(md5sum | cut -c1-8 > $X/md5) | wc -l)
    t1=$(date +%s.%N); sleep 1
    echo "$R -n $e: lines $r md5 $(cat $X/md5) wall $(awk "BEGIN {print $t1 - $t0}") s" >> $S
  done
done
echo "16G done after $SECONDS s" >> $S
# check-all's two synccheck groups (call 1 ran out of time before its
# summary; their logs did not come back).
rm -rf .dev && ln -s /tmp/d/dev .dev; L=$O/logs; mkdir -p $L
(GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=40 timeout 240 compute-sanitizer --tool synccheck \
  --error-exitcode 9 .dev/gpu_differential tally --test-threads=1 > $L/synccheck-tally.log 2>&1
 echo "synccheck-tally rc $?" >> $S) &
(timeout 240 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_automaton \
  --test-threads=1 > $L/synccheck-automaton.log 2>&1
 echo "synccheck-automaton rc $?" >> $S) &
GPUGREP_BIN=/tmp/d/dev/gpugrep GPUGREP_LOGHUB=.dev/loghub GPUGREP_TEMPLATES=.dev/loghub/rules-templates.txt \
  .dev/gpu_rule_split tile_counts_hold --nocapture > $L/regression.log 2>&1
echo "regression rc $?: $(grep -c skipped $L/regression.log) skipped lines" >> $S
wait
grep -h "test result\|ERROR SUMMARY" $L/*.log >> $S
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
echo "all done after $SECONDS s" >> $S
cat $S
