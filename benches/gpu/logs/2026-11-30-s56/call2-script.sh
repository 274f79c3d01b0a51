#!/usr/bin/env bash
# session 56, call 2: the confirm kernel's wider runs gathered before they
# are shared out (v1), and v1 without the trigram walk (v2, a measurement
# only: may_match always true), against base (04f250a's kernels):
# gpu_rule_split and memcheck of v1; ncu kernel averages over 1 GiB; -c
# walls over 16 GiB of loghub, md5 of the counts.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
L=benches/gpu/logs/2026-11-30-s56
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 1G --files 16 --out /dev/shm/ci1 > $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 10000 > /dev/null
echo "data after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep-v1
timeout 120 $D/t/gpu_rule_split --test-threads 1 > $O/test-gpu_rule_split.txt 2>&1
echo "gpu_rule_split rc $? after $SECONDS s: $(grep -h "test result" $O/test-gpu_rule_split.txt | tr '\n' ' ')" >> $S
f=$(ls $W/loghub-16G | head -1); head -c 4M $W/loghub-16G/$f > $X/small.log
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpugrep-v1 --engine gpu -c $2 -f $W/rules-$1.txt $X/small.log > $X/san.txt 2>&1
  echo "sanitizer memcheck $1 rc $? $(tail -1 $X/san.txt)" >> $S
done
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $D/gpugrep-v1 --engine gpu -c -E -f $W/rules-templates.txt $X/small.log > $X/san.txt 2>&1
echo "sanitizer racecheck templates rc $? $(tail -1 $X/san.txt)" >> $S
echo "tests after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "rules-templates -E $W/loghub-1G" "rules-gitleaks -P $W/loghub-1G" "rules/rules-1000 -E /dev/shm/ci1" "rules/rules-10000 -E /dev/shm/ci1"; do
  set -- $p
  for v in gpugrep gpugrep-v1 gpugrep-v2; do
    timeout 90 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      $D/$v --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $3 > $X/ncu.txt 2>&1
    echo "ncu $(basename $1) $v: $(python3 $L/ncu-sum.py $X/ncu.txt)" >> $S
    cp $X/ncu.txt $O/ncu-$(basename $1)-$v.csv
  done
done
echo "ncu after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8)" >> $S
}
for r in 1 2 3; do
  for p in "rules-templates -E $W/loghub-16G" "rules-gitleaks -P $W/loghub-16G"; do
    set -- $p
    for v in gpugrep gpugrep-v1 gpugrep-v2; do t "$1 $v r$r" $D/$v -j16 -h -c $2 -f $W/$1.txt -r $3; done
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
