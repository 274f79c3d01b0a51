#!/usr/bin/env bash
# session 67, call 5: the everyday matrix at 16 threads, 3 reps, with the
# session's last code (dev/gpugrep: 89921f4's, as call 3), then rows
# below 1.03 again at 15 rounds against rg, as far as the call's time
# allows.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 230 benches/everyday $E --reps 3 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv --below 1.03 --commands > $OUT/low.tsv
while IFS=$'\t' read -r c gc rc; do
  (( SECONDS < 300 )) || { echo "== $c skipped: time" >> $S; continue; }
  echo "== $c" >> $S
  timeout 20 python3 benches/cpu-time.py --rounds 15 new="$gc" rg="$rc" >> $S 2>&1
done < $OUT/low.tsv
echo "done after $SECONDS s" >> $S
cat $S
