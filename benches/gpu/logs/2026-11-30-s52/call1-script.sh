#!/usr/bin/env bash
# session 52, call 1: where the real packs' GPU time goes. Per-kernel
# time sums (ncu, kernels serialised) of the templates and gitleaks over
# 1 GiB of loghub; one confirm, multi and automaton launch in detail;
# --stats of auto and --engine gpu over 16 GiB.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
G=$D/gpugrep
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
  grep -h "^gpu\|^cpu" $X/err.txt >> $S
}
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  for r in 1 2; do
    t "$1 -c auto 16G r$r" $G --stats -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-16G
  done
  t "$1 -c gpu 16G" $G --stats --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-16G
done
echo "timed after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  timeout 150 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
    $G --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-1G > $O/ncu-sum-$1.txt 2>&1
  echo "ncu sum $1 rc $? after $SECONDS s" >> $S
done
for k in "templates -E confirm" "templates -E multi" "gitleaks -P automaton" "gitleaks -P confirm"; do
  set -- $k
  timeout 100 $N -k $3 --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats \
    --section Occupancy --section LaunchStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section InstructionStats \
    $G --engine gpu -j16 -h -c $2 -f $W/rules-$1.txt -r $W/loghub-1G >> $O/ncu-detail.txt 2>&1
  echo "ncu $1 $3 rc $? after $SECONDS s" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
