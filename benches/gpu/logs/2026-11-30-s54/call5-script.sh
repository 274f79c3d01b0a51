#!/usr/bin/env bash
# session 54, call 5: the automaton kernel finds a skipped line's end 16
# bytes at a time (mid: 010a06c, byte by byte). gpu_rule_split and
# gpu_automaton against the new kernel; memcheck; mid against new, -c over
# 16 GiB, the templates and gitleaks, 3 rounds alternating; ncu sums over 1 GiB.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_rule_split gpu_automaton; do
  timeout 150 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
f=$(ls $W/loghub-1G | head -1); head -c 4M $W/loghub-1G/$f > $X/small.log
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpugrep --engine gpu -c -E -f $W/rules-templates.txt $X/small.log > $X/san.txt 2>&1
echo "sanitizer memcheck templates rc $? $(tail -1 $X/san.txt)" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h '^gpu stages' $X/err.txt | sed 's/.*transfer [0-9.]* s and //; s/, readback.*//')" >> $S
}
mid=$D/gg-mid; new=$D/gpugrep
for r in 1 2 3; do
  for p in "rules-templates -E" "rules-gitleaks -P"; do
    set -- $p
    for v in mid new; do t "$1 $v r$r" ${!v} --stats -j16 -h -c $2 -f $W/$1.txt -r $W/loghub-16G; done
  done
done
N="ncu --clock-control none"
for p in "rules-templates -E" "rules-gitleaks -P"; do
  set -- $p
  for v in mid new; do
    timeout 60 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      ${!v} --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $W/loghub-1G > $X/ncu.txt 2>&1
    echo "ncu $1 $v: $(grep '"confirm"\|"automaton"\|"multi"' $X/ncu.txt | awk -F'","' '{print $4, $9, "avg", $15}' | tr '\n' ';')" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
