#!/usr/bin/env bash
# session 66, call 1: the lines holding a byte every match holds
# (dev/gpugrep, f2d9754) against dev/gpugrep-base (5a3dac7) and rg at 16
# threads, 9 rounds; the option hunt and the everyday matrix at 16
# threads (5 reps) with the new build; then every row of either below
# 1.03 again at 15 rounds, new against base and rg.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s66/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 9 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
}
row "logs -c -E '.{10}x.{10}'" "-r -c -E '.{10}x.{10}' $E/logs" "-c '.{10}x.{10}' $E/logs"
row "logs -c -E '.{4}=.{4}'" "-r -c -E '.{4}=.{4}' $E/logs" "-c '.{4}=.{4}' $E/logs"
row "logs -c -E '\\S{3}k\\S{3}'" "-r -c -E '\\S{3}k\\S{3}' $E/logs" "-c '\\S{3}k\\S{3}' $E/logs"
row "tree -c -E '.{10}x.{10}'" "-r -c -E '.{10}x.{10}' $E/tree" "-c '.{10}x.{10}' $E/tree"
row "bom -c -E '.{10}x.{10}'" "-r -c -E '.{10}x.{10}' $E/bom" "-c '.{10}x.{10}' $E/bom"
row "tree -c -E '\\w+@\\w+\\.\\w+'" "-r -c -E '\\w+@\\w+\\.\\w+' $E/tree" "-c '\\w+@\\w+\\.\\w+' $E/tree"
row "bom -c -E '\\w+@\\w+\\.\\w+'" "-r -c -E '\\w+@\\w+\\.\\w+' $E/bom" "-c '\\w+@\\w+\\.\\w+' $E/bom"
row "logs -c -E '\\[[A-Z]+\\]'" "-r -c -E '\\[[A-Z]+\\]' $E/logs" "-c '\\[[A-Z]+\\]' $E/logs"
echo "rows done after $SECONDS s" >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 60 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 330 benches/everyday $E --reps 5 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
# Rows below 1.03, 15 rounds (as far as the call's time allows).
for t in option16 everyday16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.03 --commands
done > $OUT/low.tsv
while IFS=$'\t' read -r c gc rc; do
  (( SECONDS < 540 )) || { echo "== $c skipped: time" >> $S; continue; }
  echo "== $c" >> $S
  timeout 25 python3 benches/cpu-time.py --rounds 15 new="$gc" base="${gc/$G /$B }" rg="$rc" >> $S 2>&1
done < $OUT/low.tsv
echo "done after $SECONDS s" >> $S
cat $S
