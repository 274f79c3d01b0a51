#!/usr/bin/env bash
# session 54, call 7 (review): confirm's first line start read through the
# piece's own reader (FromText over PieceBytes), the automaton's skipped
# line end found with __vcmpeq4 (as tally.cu): gpu_rule_split,
# gpu_automaton, memcheck; 7984541 (mid) against new, -c over 16 GiB.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_rule_split gpu_automaton; do
  timeout 120 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
f=$(ls $W/loghub-16G | head -1); head -c 4M $W/loghub-16G/$f > $X/small.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpugrep --engine gpu -c -E -f $W/rules-templates.txt $X/small.log > $X/san.txt 2>&1
echo "sanitizer memcheck templates rc $? $(tail -1 $X/san.txt)" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8)" >> $S
}
mid=$D/gg-mid; new=$D/gpugrep
for r in 1 2; do
  for p in "rules-templates -E" "rules-gitleaks -P"; do
    set -- $p
    for v in mid new; do t "$1 $v r$r" ${!v} -j16 -h -c $2 -f $W/$1.txt -r $W/loghub-16G; done
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
