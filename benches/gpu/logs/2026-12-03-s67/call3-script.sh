#!/usr/bin/env bash
# session 67, call 3: the line finder race with each thread's first 256
# KiB untimed (dev/gpugrep, 12083e6 + the warm-up) against
# dev/gpugrep-base (12083e6) and rg at 16 threads: the BOM row whose race
# call 2 saw keep the slower finder, 21 rounds, and its --stats line five
# times; the everyday matrix, the regex hunt and the option hunt (5
# reps); every row below 1.03 again at 15 rounds, new against base and rg.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
B=$D/dev/gpugrep-base
ga="-r -c -E '[A-Z]\\w+, [A-Z]\\w+' $E/bom"
echo "== bom -c -E '[A-Z]\\w+, [A-Z]\\w+'" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 21 new="$G --engine cpu -j16 $ga" \
  base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 -c '[A-Z]\\w+, [A-Z]\\w+' $E/bom" >> $S 2>&1
for i in 1 2 3 4 5; do
  sh -c "$G --engine cpu -j16 --stats $ga" 2>&1 >/dev/null | grep 'line finder race' >> $S
done
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 260 benches/everyday $E --reps 5 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 90 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/regex16.tsv > $OUT/regex16.txt 2>&1
echo "regex hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/regex16.tsv >> $S
timeout 60 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
for t in everyday16 regex16 option16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.03 --commands
done > $OUT/low.tsv
while IFS=$'\t' read -r c gc rc; do
  (( SECONDS < 550 )) || { echo "== $c skipped: time" >> $S; continue; }
  echo "== $c" >> $S
  timeout 25 python3 benches/cpu-time.py --rounds 15 new="$gc" base="${gc/$G /$B }" rg="$rc" >> $S 2>&1
done < $OUT/low.tsv
echo "done after $SECONDS s" >> $S
cat $S
