#!/usr/bin/env bash
# session 55, call 1: rules with a bounded lead before their literal run
# over it (book/anchor.rs `lead`), prefixes with classes spelled out and
# inline (?i) keywords compared folded: gpu_rule_split, gpu_automaton,
# gpu_differential, memcheck; ncu kernel sums over 1 GiB and -c walls over
# 16 GiB, base (fd25032) against new; Hyperscan's gitleaks row.
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
for t in gpu_rule_split gpu_automaton gpu_differential; do
  timeout 150 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
f=$(ls $W/loghub-16G | head -1); head -c 4M $W/loghub-16G/$f > $X/small.log
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpugrep --engine gpu -c $2 -f $W/rules-$1.txt $X/small.log > $X/san.txt 2>&1
  echo "sanitizer memcheck $1 rc $? $(tail -1 $X/san.txt)" >> $S
done
echo "tests after $SECONDS s" >> $S
base=$D/gg-base; new=$D/gpugrep
N="ncu --clock-control none"
for p in "rules-templates -E $W/loghub-1G" "rules-gitleaks -P $W/loghub-1G" "rules/rules-1000 -E /dev/shm/ci1" "rules/rules-10000 -E /dev/shm/ci1"; do
  set -- $p
  for v in base new; do
    timeout 90 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      ${!v} --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $3 > $X/ncu.txt 2>&1
    echo "ncu $1 $v: $(grep -E '"(confirm|automaton|multi)"' $X/ncu.txt | awk -F'","' '{print $5, $6, $13}' | tr '\n' ';')" >> $S
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
  for p in "rules-templates -E $W/loghub-16G" "rules-gitleaks -P $W/loghub-16G" "rules/rules-1000 -E /dev/shm/ci" "rules/rules-10000 -E /dev/shm/ci"; do
    set -- $p
    for v in base new; do t "$1 $v r$r" ${!v} -j16 -h -c $2 -f $W/$1.txt -r $3; done
  done
done
t "gitleaks -c hs" $D/hsgrep -j 16 -f $W/rules-gitleaks.txt $W/loghub-16G
t "gitleaks -c new again" $new -j16 -h -c -P -f $W/rules-gitleaks.txt -r $W/loghub-16G
echo "all done after $SECONDS s" >> $S
cat $S
