#!/usr/bin/env bash
# session 40, call 5 (16 cores): the session's last code (b8387f4) on the
# real packs once more (templates and gitleaks, auto -c, 64 files), then
# the GPU suites the confirm kernel's change touches (-i folded, rule
# packs under the GPU and auto engines, the lag) not run yet this session.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
}
for r in 1 2; do
  t "templates auto" $D/gpugrep -j16 -h -c -E -f $W/rules-templates.txt -r $L
  t "gitleaks auto" $D/gpugrep -j16 -h -c -P -f $W/rules-gitleaks.txt -r $L
done
rm -rf $W
echo "timings done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
(timeout 200 $D/gpu_ignore_case --test-threads=2 > $O/ignore-case.log 2>&1; echo "gpu_ignore_case rc $?" >> $S
 timeout 150 $D/gpu_fold --test-threads=2 > $X/fold.log 2>&1; echo "gpu_fold rc $? $(grep 'test result' $X/fold.log)" >> $S) &
(for e in gpu auto; do
   for s in rule_packs cli_stats; do
     GPUGREP_TEST_ENGINE=$e timeout 120 $D/$s --test-threads=4 > $X/$s-$e.log 2>&1; echo "$s ($e) rc $? $(grep 'test result' $X/$s-$e.log)" >> $S
   done
 done
 timeout 100 $D/gpu_lag > $X/lag.log 2>&1; echo "gpu_lag rc $? $(grep 'test result' $X/lag.log)" >> $S) &
wait
echo "done after $SECONDS s" >> $S
cat $S
