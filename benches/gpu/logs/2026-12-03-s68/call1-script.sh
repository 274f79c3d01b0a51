#!/usr/bin/env bash
# session 68, call 1: the session's routes (dev/gpugrep: -x '' by the
# regex, a word set's lines by its minimal words, words sharing a prefix
# or suffix by memmem) against dev/gpugrep-base (2cdc7b7) and rg at 16
# threads, 11 rounds; the one-liner hunt and the everyday matrix (3 reps)
# with the new build; rows of either below 1.03 again at 11 rounds.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 40 python3 benches/cpu-time.py --rounds 11 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
}
row "tree -c -x ''" "-r -c -x '' $E/tree" "-c -x '' $E/tree"
row "bom -c -x ''" "-r -c -x '' $E/bom" "-c -x '' $E/bom"
row "tree -c -v -x ''" "-r -c -v -x '' $E/tree" "-c -v -x '' $E/tree"
row "tree -c -i -E 'the(re)?'" "-r -c -i -E 'the(re)?' $E/tree" "-c -i 'the(re)?' $E/tree"
row "bom -c -i -E 'the(re)?'" "-r -c -i -E 'the(re)?' $E/bom" "-c -i 'the(re)?' $E/bom"
row "tree -c -i -E 'struct( page)?'" "-r -c -i -E 'struct( page)?' $E/tree" "-c -i 'struct( page)?' $E/tree"
row "tree -c -E 'module_(init|exit)\\('" "-r -c -E 'module_(init|exit)\\(' $E/tree" "-c 'module_(init|exit)\\(' $E/tree"
row "tree -c -E 'struct (page|inode) \\*'" "-r -c -E 'struct (page|inode) \\*' $E/tree" "-c 'struct (page|inode) \\*' $E/tree"
row "tree -c -E '(raw_spin|spin|read|write)_lock_irq'" "-r -c -E '(raw_spin|spin|read|write)_lock_irq' $E/tree" "-c '(raw_spin|spin|read|write)_lock_irq' $E/tree"
row "logs -c -i -E 'fail(ed|ure)?|error'" "-r -c -i -E 'fail(ed|ure)?|error' $E/logs" "-c -i 'fail(ed|ure)?|error' $E/logs"
echo "rows done after $SECONDS s" >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 3 --no-grep --timeout 10)
PATS=$PWD/benches/patterns timeout 150 benches/run --cases benches/cases-oneliner-hunt.tsv --corpus logs=$E/logs/ci.log \
  --corpus many=$E/many --corpus tree=$E/tree --corpus bom=$E/bom "${common[@]}" --out $OUT/oneliner16.tsv > $OUT/oneliner16.txt 2>&1
echo "one-liner hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/oneliner16.tsv >> $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 230 benches/everyday $E --reps 3 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
for t in oneliner16 everyday16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.03 --commands
done > $OUT/low.tsv
while IFS=$'\t' read -r c gc rc; do
  (( SECONDS < 550 )) || { echo "== $c skipped: time" >> $S; continue; }
  echo "== $c" >> $S
  timeout 20 python3 benches/cpu-time.py --rounds 11 new="$gc" base="${gc/$G /$B }" rg="$rc" >> $S 2>&1
done < $OUT/low.tsv
echo "done after $SECONDS s" >> $S
cat $S
