#!/usr/bin/env bash
# session 52, call 2: the confirm kernel's runs of 2-4 words and wider ones
# flattened like the one-word runs (new) against base (f91c24c): the real
# packs and the generated ones, -c over 16 GiB, 3 rounds alternating; -n
# md5; ncu kernel sums over 1 GiB; the GPU suites and compute-sanitizer.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 10000 > /dev/null
echo "data after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h '^gpu stages' $X/err.txt | sed 's/.*transfer [0-9.]* s and //; s/, readback.*//')" >> $S
}
base=$D/gg-base; new=$D/gpugrep
for r in 1 2 3; do
  for p in "templates -E $W/loghub-16G" "gitleaks -P $W/loghub-16G" "rules/rules-1000 -E /dev/shm/ci" "rules/rules-10000 -E /dev/shm/ci"; do
    set -- $p
    for v in base new; do t "$1 $v r$r" ${!v} --stats -j16 -h -c $2 -f $W/$1.txt -r $3; done
  done
done
echo "timed after $SECONDS s" >> $S
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  for v in base new; do
    timeout 60 /usr/bin/time -f "%e s" -o $X/t.txt ${!v} -j16 -n $2 -f $W/rules-$1.txt -r $W/loghub-16G > $X/n.txt 2>&1
    echo "$1 -n $v: $(cat $X/t.txt) $(wc -l < $X/n.txt) lines md5 $(sort $X/n.txt | md5sum | cut -c1-12)" >> $S
  done
done
rm -f $X/n.txt
echo "-n after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  for v in base new; do
    timeout 100 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      ${!v} --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-1G > $X/ncu.txt 2>&1
    echo "ncu $1 $v: $(grep '"confirm"\|"automaton"\|"multi"' $X/ncu.txt | awk -F'","' '{print $4, $9, "avg", $15}' | tr '\n' ';')" >> $S
  done
done
echo "ncu after $SECONDS s" >> $S
export GPUGREP_BIN=$new
( timeout 200 $D/t/gpu_rule_split --test-threads 1 > $O/tests.txt 2>&1; echo "gpu_rule_split rc $?" >> $S )
for s in rule_packs gpu_ignore_case gpu_fold; do
  ( GPUGREP_TEST_ENGINE=gpu timeout 100 $D/t/$s >> $O/tests.txt 2>&1; echo "$s (engine gpu) rc $?" >> $S )
done
( GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck $D/t/gpu_rule_split kernels_match_reference > $X/san.txt 2>&1; echo "sanitizer rc $? $(grep -h 'ERROR SUMMARY\|test result' $X/san.txt | tr '\n' ' ')" >> $S )
echo "all done after $SECONDS s" >> $S
grep -h "test result\|cases\|mismatch" $O/tests.txt >> $S
cat $S
