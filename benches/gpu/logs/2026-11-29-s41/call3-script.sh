#!/usr/bin/env bash
# session 41, call 3 (16 cores): where gitleaks' 2.7 s go under --engine
# gpu (the templates, 1.8 s, beside it): GPUGREP_GPU_TRACE's per-chunk and
# per-file timeline, two runs each.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt; new=$D/gpugrep
for r in 1 2; do
  /usr/bin/time -f "gitleaks gpu r$r %e s" -a -o $S env GPUGREP_GPU_TRACE=1 $new --engine gpu --debug --stats -j16 -h -c -P -f $G -r $L > /dev/null 2> $O/trace-gitleaks-r$r.txt
  /usr/bin/time -f "templates gpu r$r %e s" -a -o $S env GPUGREP_GPU_TRACE=1 $new --engine gpu --debug --stats -j16 -h -c -E -f $T -r $L > /dev/null 2> $O/trace-templates-r$r.txt
done
cat $S
