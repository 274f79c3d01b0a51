#!/usr/bin/env bash
# session 40, call 3 (16 cores): rules refused whole by the pack automaton
# run cut to their ASCII bytes (lines with other bytes candidates), which
# puts gitleaks' pack on the GPU: gitleaks over 16 GiB (auto, --engine gpu,
# the CPU engine, Hyperscan), the templates once more; then the automaton
# kernel against its mirror (with \w{70} pieces), memcheck on it, and the
# suites session 39's call 5 cut short.
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
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt; new=$D/gpugrep
for r in 1 2; do
  t "gitleaks auto" $new --stats -j16 -h -c -P -f $G -r $L; (echo "== gitleaks auto r$r"; cat $X/err.txt) >> $ST
  t "gitleaks gpu" $new --engine gpu --stats -j16 -h -c -P -f $G -r $L; (echo "== gitleaks gpu r$r"; cat $X/err.txt) >> $ST
  t "gitleaks cpu" $new --engine cpu -j16 -h -c -P -f $G -r $L
  [ $r = 1 ] && t "gitleaks hs" $D/hsgrep -j 16 -f $G $L
done
t "gitleaks -n auto" $new -j16 -h -n -P -f $G -r $L
$new -j16 -h -n -P -f $G -r $L | md5sum > $X/a.md5; $new --engine cpu -j16 -h -n -P -f $G -r $L | md5sum > $X/c.md5
echo "gitleaks -n md5 auto $(cat $X/a.md5) cpu $(cat $X/c.md5)" >> $S
t "templates auto" $new --stats -j16 -h -c -E -f $T -r $L
echo "--debug of gitleaks:" >> $ST; echo x | $new --debug -c -P -f $G 2>&1 | head -3 | cut -c1-1500 >> $ST
rm -rf $W
echo "timings done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
GPUGREP_DIFF_CASES=1500 timeout 120 $D/gpu_automaton --test-threads=2 --nocapture > $O/automaton.log 2>&1; echo "gpu_automaton rc $?" >> $S
GPUGREP_DIFF_SMALL=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_automaton kernel_matches_reference > $O/memcheck.log 2>&1; echo "memcheck automaton rc $?" >> $S
(GPUGREP_E2E_CASES=150 timeout 240 $D/gpu_end_to_end --test-threads=2 > $O/e2e.log 2>&1; echo "gpu_end_to_end rc $?" >> $S) &
(GPUGREP_E2E_CASES=150 timeout 240 $D/gpu_real_world --test-threads=2 > $O/realworld.log 2>&1; echo "gpu_real_world rc $?" >> $S) &
(GPUGREP_TEST_ENGINE=gpu timeout 200 $D/cli_patterns --test-threads=4 > $O/patterns.log 2>&1; echo "cli_patterns (gpu) rc $?" >> $S
 GPUGREP_TEST_ENGINE=gpu timeout 200 $D/split_file --test-threads=4 > $X/split.log 2>&1; echo "split_file (gpu) rc $? $(grep 'test result' $X/split.log)" >> $S) &
wait
echo "done after $SECONDS s" >> $S
cat $S
