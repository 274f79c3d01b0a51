#!/usr/bin/env bash
# session 58, call 3: block_sum without warp collectives, its barriers
# non-aligned (kernels/common.cuh). (1) The regression with 12.0's cubins:
# gg-diag (7cf89cc's kernels built by NVRTC 12.0, recount off) as the
# control that fails, gg-new120 (this change's kernels built by NVRTC 12.0);
# synccheck of both on the cut. (2) Speed, ncu per kernel over 1 GiB, old
# (f16f7e3) against new (12.9's cubins). (3) The GPU suites on new. (4) The
# 16 GiB -n of gitleaks with -P (call 2 passed -E: refused, exit 2).
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
R=$W/rules-templates.txt; G1=$D/gg-diag; G2=$D/gg-new120; OLD=$D/old; NEW=$D/new/gpugrep
echo "data after $SECONDS s" >> $S
# (1)
export GPUGREP_LOGHUB=$D/new/loghub GPUGREP_TEMPLATES=$D/new/loghub/rules-templates.txt
for b in gg-diag gg-new120 new/gpugrep; do
  GPUGREP_DIAG_NORECOUNT=1 GPUGREP_BIN=$D/$b timeout 120 $D/new/gpu_rule_split --test-threads 1 tile_counts > $L/reg-$(basename $b).txt 2>&1
  echo "regression with $b: rc $? $(grep -h 'test result' $L/reg-$(basename $b).txt)" >> $S
done
for b in gg-diag gg-new120 new/gpugrep; do
  echo "$b -n cut: $(GPUGREP_DIAG_NORECOUNT=1 timeout 60 $D/$b --engine gpu -h -n -E -f $R /dev/shm/rep-a.log | wc -l) (truth 2930)" >> $S
  GPUGREP_DIAG_NORECOUNT=1 timeout 120 compute-sanitizer --tool synccheck --error-exitcode 9 $D/$b --engine gpu -n -E -f $R /dev/shm/rep-a.log > $X/san.txt 2>&1
  echo "synccheck $b: rc $? $(grep -c 'Barrier error' $X/san.txt) barrier errors; $(grep 'ERROR SUMMARY' $X/san.txt)" >> $S
done
$G2 --engine gpu --stats -h -c -E -f $R /dev/shm/rep-a.log 2>&1 | grep -i "cubin\|ptx" | head -2 >> $S
echo "(1) after $SECONDS s" >> $S
# (2)
N="ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-summary per-kernel"
for p in "templates|-c -E -f $R" "words1000|-c -F -f $D/words1000" "words10000|-c -F -f $D/words10000" "lit-short|-c -F -e proxy" "lit-long|-c -F -e Connection_reset_by_peer_now" "n-lit|-n -F -e proxy"; do
  l=${p%%|*}; a=${p#*|}
  for r in 1; do
    for v in old new; do
      g=$OLD; [[ $v == new ]] && g=$NEW
      timeout 90 $N --log-file $X/ncu.txt $g --engine gpu -j16 -h $a -r $W/loghub-1G > /dev/null 2>&1
      echo "ncu $l $v r$r: $(python3 benches/gpu/logs/2026-11-30-s56/ncu-sum.py $X/ncu.txt)" >> $S
    done
  done
done
echo "(2) after $SECONDS s" >> $S
# (3)
export GPUGREP_BIN=$NEW
(GPUGREP_SPLIT_CASES=200 timeout 200 .dev/gpu_rule_split --test-threads=2 > $L/rule-split.txt 2>&1; echo "gpu_rule_split rc $?" >> $S) &
(GPUGREP_DIFF_CASES=1500 timeout 200 .dev/gpu_differential --test-threads=1 > $L/diff.txt 2>&1; echo "gpu_differential rc $?" >> $S) &
(timeout 200 .dev/gpu_automaton --test-threads=2 > $L/automaton.txt 2>&1; echo "gpu_automaton rc $?" >> $S
 timeout 100 .dev/gpu_real_world --test-threads=2 > $L/real-world.txt 2>&1; echo "gpu_real_world rc $?" >> $S) &
(GPUGREP_E2E_CASES=100 timeout 200 .dev/gpu_end_to_end --test-threads=2 > $L/e2e.txt 2>&1; echo "gpu_end_to_end rc $?" >> $S) &
(timeout 200 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_automaton --test-threads=1 > $L/synccheck-automaton.txt 2>&1; echo "synccheck gpu_automaton rc $?" >> $S
 GPUGREP_DIFF_SMALL=1 GPUGREP_DIFF_TALLY_CASES=40 timeout 150 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_differential tally --test-threads=1 > $L/synccheck-tally.txt 2>&1; echo "synccheck tally rc $?" >> $S) &
(GPUGREP_DIFF_SMALL=1 timeout 200 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpu_differential gpu_multi --test-threads=1 > $L/synccheck-multi.txt 2>&1; echo "synccheck multi rc $?" >> $S
 GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .dev/gpu_rule_split kernels_match_reference --test-threads=1 > $L/memcheck-split.txt 2>&1; echo "memcheck split rc $?" >> $S) &
wait
grep -h "test result\|ERROR SUMMARY" $L/rule-split.txt $L/diff.txt $L/automaton.txt $L/real-world.txt $L/e2e.txt $L/synccheck-*.txt $L/memcheck-*.txt >> $S
echo "(3) after $SECONDS s" >> $S
# (4)
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G >> $X/real.txt 2>&1
P=$W/rules-gitleaks.txt
echo "gitleaks -c total: $($NEW -j16 -h -c -P -f $P -r $W/loghub-16G | awk '{s+=$1} END {print s}')" >> $S
for e in auto gpu auto gpu; do
  r=$($NEW --engine $e -j16 -h -n -P -f $P -r $W/loghub-16G | tee >(md5sum | cut -c1-8 > $X/md5) | wc -l); sleep 1
  echo "gitleaks -n $e: lines $r md5 $(cat $X/md5)" >> $S
done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
echo "all done after $SECONDS s" >> $S
cat $S
