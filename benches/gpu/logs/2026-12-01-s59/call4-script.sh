#!/usr/bin/env bash
# session 59, call 4 (the same warm machine as call 3, its corpora in
# /dev/shm/ev): the 16-thread rows nearest 1.0 once more, 15 rounds
# alternating (benches/cpu-time.py).
set -u
S=$OUT/summary.txt; E=/dev/shm/ev; D=/tmp/d
[[ -d $E/many && -x $D/dev/gpugrep ]] || { echo "no corpora: a fresh machine" > $S; exit 0; }
python3 benches/gpu/logs/2026-12-01-s59/evsum.py benches/gpu/logs/2026-12-01-s59/call3/everyday16.tsv --below 1.03 --commands |
while IFS=$'\t' read -r case gg rg; do
  (( SECONDS > 150 )) && break
  echo "== $case" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 gpugrep="$gg" rg="$rg" >> $S 2>&1
done
echo "done after $SECONDS s" >> $S
cat $S
