#!/usr/bin/env bash
# session 67, call 1: the literal candidates' lines raced against the DFA
# alone where the meta engine finds the literal itself (dev/gpugrep,
# 12083e6) against dev/gpugrep-base (a0d81aa) and rg at 16 threads, 15
# rounds, on the six rows whose route changed; the everyday matrix and the
# regex hunt at 16 threads (5 reps) with the new build; then every row of
# either below 1.03 again at 15 rounds, new against base and rg.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
  $G --engine cpu -j16 --stats $ga 2>&1 >/dev/null | grep 'line finder race' >> $S
}
row "bom -o -E '[A-Z][a-z]+ing'" "-r -o -E '[A-Z][a-z]+ing' $E/bom" "-o '[A-Z][a-z]+ing' $E/bom"
row "logs -c -E '[A-Z]+_SUSPEND'" "-r -c -E '[A-Z]+_SUSPEND' $E/logs" "-c '[A-Z]+_SUSPEND' $E/logs"
row "many -c -E '[A-Z]+_SUSPEND'" "-r -c -E '[A-Z]+_SUSPEND' $E/many" "-c '[A-Z]+_SUSPEND' $E/many"
row "tree -o -E '\\w+_lock\\('" "-r -o -E '\\w+_lock\\(' $E/tree" "-o '\\w+_lock\\(' $E/tree"
row "logs -c -E '[0-9]{2}:[0-9]{2}:[0-9]{2}'" "-r -c -E '[0-9]{2}:[0-9]{2}:[0-9]{2}' $E/logs" "-c '[0-9]{2}:[0-9]{2}:[0-9]{2}' $E/logs"
row "bom -c -E '[A-Z]\\w+, [A-Z]\\w+'" "-r -c -E '[A-Z]\\w+, [A-Z]\\w+' $E/bom" "-c '[A-Z]\\w+, [A-Z]\\w+' $E/bom"
echo "rows done after $SECONDS s" >> $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 300 benches/everyday $E --reps 5 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 90 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/regex16.tsv > $OUT/regex16.txt 2>&1
echo "regex hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/regex16.tsv >> $S
for t in everyday16 regex16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.03 --commands
done > $OUT/low.tsv
while IFS=$'\t' read -r c gc rc; do
  (( SECONDS < 540 )) || { echo "== $c skipped: time" >> $S; continue; }
  echo "== $c" >> $S
  timeout 25 python3 benches/cpu-time.py --rounds 15 new="$gc" base="${gc/$G /$B }" rg="$rc" >> $S 2>&1
done < $OUT/low.tsv
echo "done after $SECONDS s" >> $S
cat $S
