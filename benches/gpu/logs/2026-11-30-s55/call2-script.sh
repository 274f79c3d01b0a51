#!/usr/bin/env bash
# session 55, call 2: 56ae5e7 (rules run over their lead):
# gpu_differential (call 1 cut it at 150 s), gpu_end_to_end, racecheck on
# gitleaks; issue 17's real-pack rows beside Hyperscan in the same run
# (-c and -n, 16 GiB of loghub in 64 files, -j16 -h).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_differential gpu_end_to_end; do
  timeout 240 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
f=$(ls $W/loghub-16G | head -1); head -c 4M $W/loghub-16G/$f > $X/small.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $D/gpugrep --engine gpu -c -P -f $W/rules-gitleaks.txt $X/small.log > $X/san.txt 2>&1
echo "sanitizer racecheck gitleaks rc $? $(tail -2 $X/san.txt | tr '\n' ' ')" >> $S
echo "tests after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) total $(awk -F: '{s+=$NF} END {print s}' $X/ans.txt)" >> $S
}
n() { # label cmd...: -n output into /dev/null, timed
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > /dev/null 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt)" >> $S
}
G=$D/gpugrep; HS=$D/hsgrep
for r in 1 2; do
  for p in "templates -E" "gitleaks -P"; do
    set -- $p
    t "$1 -c auto r$r" $G -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-16G
    t "$1 -c gpu r$r" $G --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-16G
    n "$1 -n auto r$r" $G -j16 -h -n $2 -f $W/rules-$1.txt -r $W/loghub-16G
  done
done
for p in templates gitleaks; do
  t "$p -c hs" $HS -j 16 -f $W/rules-$p.txt $W/loghub-16G
  n "$p -n hs" $HS -j 16 -n -f $W/rules-$p.txt $W/loghub-16G
done
echo "all done after $SECONDS s" >> $S
cat $S
