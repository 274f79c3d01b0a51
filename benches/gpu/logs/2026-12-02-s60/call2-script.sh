#!/usr/bin/env bash
# session 60, call 2: the everyday matrix (issue 15) at 16 threads on the
# host, the -w per-thread caches (9831fad's code) against rg: `THREADS=16 LOGS_SIZE=1G benches/everyday
# --reps 3 --no-grep` (no ugrep), then each row below 1.0 again, 10
# rounds alternating (benches/cpu-time.py).
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev
echo "commit $(cat $D/commit)" > $S
GPUGREP=$D/dev/gpugrep CORPUS=$D/dev/gpugrep-corpus RG=$D/dev/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 220 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* | tr '\n' ' ')" >> $S
GPUGREP=$D/dev/gpugrep CORPUS=$D/dev/gpugrep-corpus RG=$D/dev/rg UGREP= THREADS=16 LOGS_SIZE=1G \
  timeout 300 benches/everyday $E --reps 3 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "matrix rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
# Rows below 1.0 again, 10 rounds alternating, while time is left.
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv --below 1.0 --commands |
while IFS=$'\t' read -r case gg rg; do
  (( SECONDS > 520 )) && break
  echo "== $case" >> $S
  timeout 40 python3 benches/cpu-time.py --rounds 10 gpugrep="$gg" rg="$rg" >> $S 2>&1
done
echo "done after $SECONDS s" >> $S
cat $S
