#!/usr/bin/env bash
# session 58, call 4: block_sum's loops unrolled (call 3's literal kernels
# ran 8-13 % longer). The regression and synccheck with 12.0's cubins
# (gg-new120) and 12.9's (new); ncu per kernel over 1 GiB, old (f16f7e3)
# against new, two rounds alternating; the GPU suites on new, the
# sanitizers on the kernels block_sum serves.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X $O/logs; L=$O/logs
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
rm -rf .dev && ln -s $D/new .dev
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G > $X/real.txt 2>&1
python3 - <<'PY'
b=open('/tmp/d/real/loghub/Proxifier_2k.log','rb').read()
if not b.endswith(b'\n'): b+=b'\n'
d=b*(268242116//len(b)); T=32768
open('/dev/shm/rep-a.log','wb').write(d[(6999-10)*T:(6999+10)*T])
PY
R=$W/rules-templates.txt; OLD=$D/old; NEW=$D/new/gpugrep
echo "data after $SECONDS s" >> $S
export GPUGREP_LOGHUB=$D/new/loghub GPUGREP_TEMPLATES=$D/new/loghub/rules-templates.txt
for b in gg-new120 new/gpugrep; do
  GPUGREP_BIN=$D/$b timeout 120 $D/new/gpu_rule_split --test-threads 1 tile_counts > $L/reg-$(basename $b).txt 2>&1
  echo "regression with $b: rc $? $(grep -h 'test result' $L/reg-$(basename $b).txt)" >> $S
  echo "$b -n cut: $(timeout 60 $D/$b --engine gpu -h -n -E -f $R /dev/shm/rep-a.log | wc -l) (truth 2930)" >> $S
  timeout 120 compute-sanitizer --tool synccheck --error-exitcode 9 $D/$b --engine gpu -n -E -f $R /dev/shm/rep-a.log > $L/san-$(basename $b).txt 2>&1
  echo "synccheck $b: rc $? $(grep -c 'Barrier error' $L/san-$(basename $b).txt) barrier errors; $(grep 'ERROR SUMMARY' $L/san-$(basename $b).txt)" >> $S
done
echo "(1) after $SECONDS s" >> $S
N="ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-summary per-kernel"
for p in "templates|-c -E -f $R" "words1000|-c -F -f $D/words1000" "words10000|-c -F -f $D/words10000" "lit-short|-c -F -e proxy" "lit-long|-c -F -e Connection_reset_by_peer_now" "n-lit|-n -F -e proxy"; do
  l=${p%%|*}; a=${p#*|}
  for r in 1 2; do
    for v in old new; do
      g=$OLD; [[ $v == new ]] && g=$NEW
      timeout 90 $N --log-file $X/ncu.txt $g --engine gpu -j16 -h $a -r $W/loghub-1G > /dev/null 2>&1
      echo "ncu $l $v r$r: $(python3 benches/gpu/logs/2026-11-30-s56/ncu-sum.py $X/ncu.txt)" >> $S
    done
  done
done
echo "(2) after $SECONDS s" >> $S
export GPUGREP_BIN=$NEW
(GPUGREP_SPLIT_CASES=200 timeout 250 .dev/gpu_rule_split --test-threads=2 > $L/rule-split.txt 2>&1; echo "gpu_rule_split rc $?" >> $S) &
(GPUGREP_DIFF_CASES=1500 timeout 250 .dev/gpu_differential --test-threads=1 > $L/diff.txt 2>&1; echo "gpu_differential rc $?" >> $S) &
(timeout 250 .dev/gpu_real_world --test-threads=2 > $L/real-world.txt 2>&1; echo "gpu_real_world rc $?" >> $S) &
(timeout 120 .dev/gpu_automaton --test-threads=2 > $L/automaton.txt 2>&1; echo "gpu_automaton rc $?" >> $S
 GPUGREP_E2E_CASES=60 timeout 130 .dev/gpu_end_to_end --test-threads=2 > $L/e2e.txt 2>&1; echo "gpu_end_to_end rc $?" >> $S) &
(timeout 150 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_automaton --test-threads=1 > $L/synccheck-automaton.txt 2>&1; echo "synccheck gpu_automaton rc $?" >> $S
 GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=40 timeout 100 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_differential tally --test-threads=1 > $L/synccheck-tally.txt 2>&1; echo "synccheck tally rc $?" >> $S) &
(GPUGREP_DIFF_SMALL=1 timeout 120 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_differential --test-threads=1 > $L/synccheck-diff.txt 2>&1; echo "synccheck gpu_differential rc $?" >> $S
 GPUGREP_DIFF_SMALL=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 .dev/gpu_differential --test-threads=1 > $L/racecheck-diff.txt 2>&1; echo "racecheck gpu_differential rc $?" >> $S) &
(GPUGREP_DIFF_SMALL=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .dev/gpu_differential --test-threads=1 > $L/memcheck-diff.txt 2>&1; echo "memcheck gpu_differential rc $?" >> $S
 GPUGREP_DIFF_SMALL=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .dev/gpu_rule_split kernels_match_reference --test-threads=1 > $L/memcheck-split.txt 2>&1; echo "memcheck split rc $?" >> $S) &
wait
for f in $L/*.txt; do echo "$(basename $f): $(grep -h 'test result\|ERROR SUMMARY' $f | tr '\n' ' ')" >> $S; done
echo "(3) after $SECONDS s" >> $S
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
echo "all done after $SECONDS s" >> $S
cat $S
