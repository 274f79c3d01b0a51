#!/usr/bin/env bash
# session 69, call 3: the everyday matrix, the one-liner, option and regex
# hunts at 16 threads with the timed runs' output sent to /dev/null
# (benches/run --sink null, as hyperfine does), build 73ec6e9, 3 reps;
# rows below 1.03 again at 11 rounds (cpu-time.py, also to /dev/null).
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 3 --no-grep --timeout 10 --sink null)
hunt() { # name, cases file, seconds
  PATS=$PWD/benches/patterns timeout $3 benches/run --cases $2 --corpus logs=$E/logs/ci.log \
    --corpus many=$E/many --corpus tree=$E/tree --corpus bom=$E/bom "${common[@]}" --out $OUT/$1.tsv > $OUT/$1.txt 2>&1
  echo "$1 rc $? after $SECONDS s" >> $S
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$1.tsv >> $S
}
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 3 --timeout 10 --no-grep --sink null --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
hunt oneliner16 benches/cases-oneliner-hunt.tsv 120
hunt option16 benches/cases-option-hunt.tsv 100
hunt regex16 benches/cases-regex-hunt.tsv 100
for t in everyday16 oneliner16 option16 regex16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.03 --commands
done > $OUT/low.tsv
while IFS=$'\t' read -r c gc rc; do
  (( SECONDS < 560 )) || { echo "== $c skipped: time" >> $S; continue; }
  echo "== $c" >> $S
  timeout 20 python3 benches/cpu-time.py --rounds 11 g="$gc" rg="$rc" >> $S 2>&1
done < $OUT/low.tsv
echo "done after $SECONDS s" >> $S
cat $S
