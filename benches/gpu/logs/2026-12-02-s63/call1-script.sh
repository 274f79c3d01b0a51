#!/usr/bin/env bash
# session 63, call 1: later stream blocks read into the first block's room
# (dev/gpugrep, f12a8d7) against dev/gpugrep-base (3cbe9fa) and rg, peak
# memory and time at 16 threads; then the option hunt and the everyday
# matrix at 16 threads with the new build.
set -u
source benches/gpu/logs/2026-12-02-s63/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args (empty: no rg row)
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  local cmds=(new="$G --engine cpu -j16 $ga" base="$B --engine cpu -j16 $ga")
  [[ -n $ra ]] && cmds+=(rg="$RG --no-config -uu -a -j16 $ra")
  timeout 90 python3 benches/cpu-time.py --rounds 9 "${cmds[@]}" >> $S 2>&1
}
row "tree -n -w int" "-r -n -w int $E/tree" "-n -w int $E/tree"
row "tree -c -w int" "-r -c -w int $E/tree" "-c -w int $E/tree"
row "tree -c -E '.{200,}'" "-r -c -E '.{200,}' $E/tree" "-c '.{200,}' $E/tree"
row "tree -c -E '[[:space:]]+\$'" "-r -c -E '[[:space:]]+\$' $E/tree" "-c '[[:space:]]+\$' $E/tree"
row "bom -n -F kernel" "-r -n -F kernel $E/bom" "-n -F kernel $E/bom"
row "many -n FATAL" "-r -n FATAL $E/many" "-n FATAL $E/many"
row "logs -n -F ERROR" "-r -n -F ERROR $E/logs" "-n -F ERROR $E/logs"
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
