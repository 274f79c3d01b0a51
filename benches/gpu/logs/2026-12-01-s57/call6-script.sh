#!/usr/bin/env bash
# session 57, call 6: speed of the 12.9 cubins (gpugrep) against 12.0's
# (gg-diag: 7cf89cc's kernels and recount, its check off): ncu per-kernel
# over 1 GiB, -c walls over 16 GiB (2 rounds, md5 of the counts); then the
# two GPU suites call 5 had no time for.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
L=benches/gpu/logs/2026-11-30-s56
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
$D/gpugrep-corpus --kind logs --size 1G --files 16 --out /dev/shm/ci1 >> $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 10000 > /dev/null
echo "data after $SECONDS s" >> $S
N="ncu --clock-control none"
for p in "rules-templates -E $W/loghub-1G" "rules-gitleaks -P $W/loghub-1G" "rules/rules-1000 -E /dev/shm/ci1" "rules/rules-10000 -E /dev/shm/ci1"; do
  set -- $p
  for v in gg-diag gpugrep; do
    timeout 60 $N --metrics gpu__time_duration.sum --csv --print-summary per-kernel \
      $D/$v --engine gpu -j16 -h -c $2 -f $W/$1.txt -r $3 > $X/ncu.txt 2>&1
    echo "ncu $(basename $1) $v: $(python3 $L/ncu-sum.py $X/ncu.txt)" >> $S
  done
done
echo "ncu after $SECONDS s" >> $S
t() { local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8)" >> $S; }
for r in 1 2; do
  for p in "rules-templates -E $W/loghub-16G" "rules-gitleaks -P $W/loghub-16G" "rules/rules-1000 -E /dev/shm/ci" "rules/rules-10000 -E /dev/shm/ci"; do
    set -- $p
    for v in gg-diag gpugrep; do t "$(basename $1) -c $v r$r" $D/$v -j16 -h -c $2 -f $W/$1.txt -r $3; done
  done
done
t "templates -n gpugrep" $D/gpugrep -j16 -h -n -E -f $W/rules-templates.txt -r $W/loghub-16G
echo "walls after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_real_world gpu_decompress; do
  timeout 150 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
