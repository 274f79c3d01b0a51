#!/usr/bin/env bash
# session 41, call 6 (16 cores): why auto trails --engine gpu on gitleaks
# (2.21-2.22 s against 1.97-2.09 s): GPUGREP_GPU_TRACE of both, with the
# process's start and end on the same clock.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; G=$W/rules-gitleaks.txt; new=$D/gpugrep
for r in 1 2; do
  for e in auto gpu; do
    s=$(date +%s.%N)
    GPUGREP_GPU_TRACE=1 $new --engine $e --debug --stats -j16 -h -c -P -f $G -r $L > /dev/null 2> $O/trace-$e-r$r.txt
    echo "$e r$r start $s end $(date +%s.%N)" >> $S
  done
done
cat $S
