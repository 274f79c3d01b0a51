#!/usr/bin/env bash
# session 54, call 3: the automaton kernel of a split pack skips the lines
# the confirm kernel (or the multi kernel) already marked. Tests against
# the new kernels; compute-sanitizer; base (bda8971), mid (4da0394, call
# 1's kernels) and new: -c over 16 GiB, 4 packs, 3 rounds alternating;
# -n md5 over 1 GiB; ncu kernel sums over 1 GiB.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
$D/gpugrep-corpus --kind logs --size 1G --files 16 --out /dev/shm/ci1 >> $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 10000 > /dev/null
echo "data after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_rule_split gpu_real_world; do
  timeout 200 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
f=$(ls $W/loghub-1G | head -1); head -c 4M $W/loghub-1G/$f > $X/small.log
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpugrep --engine gpu -c $2 -f $W/rules-$1.txt $X/small.log > $X/san.txt 2>&1
  echo "sanitizer memcheck $1 rc $? $(tail -1 $X/san.txt)" >> $S
done
echo "tests after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h '^gpu stages' $X/err.txt | sed 's/.*transfer [0-9.]* s and //; s/, readback.*//')" >> $S
}
base=$D/gg-base; mid=$D/gg-mid; new=$D/gpugrep
P1="rules-templates -E $W/loghub-16G $W/loghub-1G"
P2="rules-gitleaks -P $W/loghub-16G $W/loghub-1G"
P3="rules/rules-1000 -E /dev/shm/ci /dev/shm/ci1"
P4="rules/rules-10000 -E /dev/shm/ci /dev/shm/ci1"
for p in "$P1" "$P2" "$P3"; do
  set -- $p
  for v in base new; do t "$1 -n 1G $v" ${!v} -j16 -n $2 -f $W/$1.txt -r $4; done
done
for r in 1 2 3; do
  for p in "$P1" "$P2" "$P3" "$P4"; do
    set -- $p
    for v in base mid new; do t "$1 $v r$r" ${!v} --stats -j16 -h -c $2 -f $W/$1.txt -r $3; done
  done
done
for p in "$P1" "$P2"; do
  set -- $p
  t "$1 new gpu" $new --stats --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $3
done
echo "timed after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "$P1" "$P2" "$P3"; do
  set -- $p
  for v in base new; do
    timeout 60 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      ${!v} --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $4 > $X/ncu.txt 2>&1
    echo "ncu $1 $v: $(grep '"confirm"\|"automaton"\|"multi"' $X/ncu.txt | awk -F'","' '{print $4, $9, "avg", $15}' | tr '\n' ';')" >> $S
  done
done
timeout 180 $D/t/gpu_end_to_end --test-threads 1 > $O/test-gpu_end_to_end.txt 2>&1
echo "gpu_end_to_end rc $? after $SECONDS s: $(grep -h "test result" $O/test-gpu_end_to_end.txt | tr '\n' ' ')" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
