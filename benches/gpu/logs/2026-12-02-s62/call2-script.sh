#!/usr/bin/env bash
# session 62, call 2: the everyday matrix and the option hunt at 16
# threads with dev/gpugrep (the split-file verdict by time, the window
# analysis's ranges a word at a time).
set -u
source benches/gpu/logs/2026-12-02-s62/setup.sh
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 300 benches/everyday $E --reps 3 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 100 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
# Whether the tree's CPU-bound rows lose at 16 threads to a 17th runnable
# thread (the printer, the listing): gpugrep -j14/-j15/-j16 against rg -j16.
for re in '.{200,}' '[[:space:]]+$'; do
  echo "== tree -c -E '$re', threads" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 j16="$G --engine cpu -j16 -r -c -E '$re' $E/tree" \
    j15="$G --engine cpu -j15 -r -c -E '$re' $E/tree" j14="$G --engine cpu -j14 -r -c -E '$re' $E/tree" \
    rg="$RG --no-config -uu -a -j16 -c '$re' $E/tree" >> $S 2>&1
done
echo "done after $SECONDS s" >> $S
cat $S
