#!/usr/bin/env bash
# session 65, call 1: the long-line and line-end finders (dev/gpugrep,
# a0f9660) against dev/gpugrep-base (fefb3d7) and rg at 16 threads; then
# the option hunt and the everyday matrix at 16 threads with the new build.
set -u
source benches/gpu/logs/2026-12-03-s65/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args (empty: no rg row)
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  local cmds=(new="$G --engine cpu -j16 $ga" base="$B --engine cpu -j16 $ga")
  [[ -n $ra ]] && cmds+=(rg="$RG --no-config -uu -a -j16 $ra")
  timeout 60 python3 benches/cpu-time.py --rounds 9 "${cmds[@]}" >> $S 2>&1
}
row "tree -c -E '.{200,}'" "-r -c -E '.{200,}' $E/tree" "-c '.{200,}' $E/tree"
row "bom -c -E '.{120,}'" "-r -c -E '.{120,}' $E/bom" "-c '.{120,}' $E/bom"
row "tree -c -E '[[:space:]]+\$'" "-r -c -E '[[:space:]]+\$' --exclude=*.gif $E/tree" "-c '[[:space:]]+\$' -g !*.gif $E/tree"
row "bom -c -E '[[:space:]]+\$'" "-r -c -E '[[:space:]]+\$' $E/bom" "-c '[[:space:]]+\$' $E/bom"
row "tree -c -E '\\w\$'" "-r -c -E '\\w\$' $E/tree" "-c '\\w\$' $E/tree"
row "bom -c -E '\\W+\$'" "-r -c -E '\\W+\$' $E/bom" "-c '\\W+\$' $E/bom"
row "logs -c -E '\\s+\$'" "-r -c -E '\\s+\$' $E/logs" "-c '\\s+\$' $E/logs"
row "logs -c -E '[0-9]\$'" "-r -c -E '[0-9]\$' $E/logs" "-c '[0-9]\$' $E/logs"
row "logs -c -E '.{40,}'" "-r -c -E '.{40,}' $E/logs" "-c '.{40,}' $E/logs"
echo "rows done after $SECONDS s" >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 100 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 3 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
echo "done after $SECONDS s" >> $S
cat $S
