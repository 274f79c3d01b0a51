#!/usr/bin/env bash
# session 52, call 3: call 2's build (v1: runs of 2-4 words and wider
# flattened, each kind in its pass) slowed the generated packs' kernel
# (1,000 rules 0.72-0.97 -> 1.26 s); v2 marks a run's kind in its queue
# entry and skips a pass with no runs of its kind. base (f91c24c), v1, v2:
# -c over 16 GiB, 2 rounds alternating; ncu kernel sums over 1 GiB.
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
ls $W $W/rules /dev/shm/ci | head -20 > $O/ls.txt
echo "data after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h '^gpu stages' $X/err.txt | sed 's/.*transfer [0-9.]* s and //; s/, readback.*//')" >> $S
}
base=$D/gg-base; v1=$D/gg-v1; v2=$D/gg-v2
P1="rules-templates -E $W/loghub-16G $W/loghub-1G"
P2="rules-gitleaks -P $W/loghub-16G $W/loghub-1G"
P3="rules/rules-1000 -E /dev/shm/ci /dev/shm/ci1"
P4="rules/rules-10000 -E /dev/shm/ci /dev/shm/ci1"
for r in 1 2; do
  for p in "$P1" "$P2" "$P3" "$P4"; do
    set -- $p
    for v in base v1 v2; do t "$1 $v r$r" ${!v} --stats -j16 -h -c $2 -f $W/$1.txt -r $3; done
  done
done
echo "timed after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "$P1" "$P2" "$P3"; do
  set -- $p
  for v in base v1 v2; do
    timeout 60 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      ${!v} --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $4 > $X/ncu.txt 2>&1
    echo "ncu $1 $v: $(grep '"confirm"\|"automaton"\|"multi"' $X/ncu.txt | awk -F'","' '{print $4, $9, "avg", $15}' | tr '\n' ';')" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
