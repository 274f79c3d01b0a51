#!/usr/bin/env bash
# session 54, call 2: the confirm kernel's instructions and time per
# launch (ncu, all launches over 1 GiB) for base (bda8971), new (call 1's
# kernel) and v3 (new with __launch_bounds__(256, 3): 80 registers, 222
# bytes spilled, 24 warps an SM instead of 16); -c walls over 16 GiB.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 1G --files 16 --out /dev/shm/ci1 >> $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 10000 > /dev/null
echo "data after $SECONDS s" >> $S
base=$D/gg-base; new=$D/gpugrep; v3=$D/gg-v3
N="ncu --clock-control none"
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for p in "rules-templates -E $W/loghub-1G" "rules-gitleaks -P $W/loghub-1G" "rules/rules-1000 -E /dev/shm/ci1" "rules/rules-10000 -E /dev/shm/ci1"; do
  set -- $p
  for v in base new v3; do
    timeout 90 $N -k confirm --metrics $M --csv --print-summary per-kernel \
      ${!v} --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $3 > $X/ncu.txt 2>&1
    echo "ncu $1 $v: $(grep '"confirm"' $X/ncu.txt | awk -F'","' '{print $13, $15}' | tr '\n' ';')" >> $S
    cp $X/ncu.txt $O/ncu-$(basename $1)-$v.csv
  done
done
echo "ncu after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h '^gpu stages' $X/err.txt | sed 's/.*transfer [0-9.]* s and //; s/, readback.*//')" >> $S
}
for r in 1 2 3; do
  for p in "rules-templates -E" "rules-gitleaks -P"; do
    set -- $p
    for v in base new v3; do t "$1 $v r$r" ${!v} --stats -j16 -h -c $2 -f $W/$1.txt -r $W/loghub-16G; done
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
