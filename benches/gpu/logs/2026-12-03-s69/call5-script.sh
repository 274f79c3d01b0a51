#!/usr/bin/env bash
# session 69, call 5: outputs gathered into one writev by the printers
# (run::gathered): dev/gpugrep-new against dev/gpugrep (73ec6e9) and rg
# at 16 threads, dense output into /dev/null and into a pipe, 11 rounds;
# then the one-liner hunt and the everyday matrix with the new build,
# timed runs into /dev/null (--sink null), 3 reps.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
N=$D/dev/gpugrep-new; B=$G
row() { # name, gpugrep args, rg args, sink
  echo "== $1" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 11 new="$N --engine cpu -j16 $2 ${4:-}" \
    base="$B --engine cpu -j16 $2 ${4:-}" rg="$RG --no-config -uu -a -j16 $3 ${4:-}" >> $S 2>&1
}
row "bom -n -w the" "-r -n -w the $E/bom" "-n -w the $E/bom"
row "bom -n -F the" "-r -n -F the $E/bom" "-n -F the $E/bom"
row "bom -n -w the | cat" "-r -n -w the $E/bom" "-n -w the $E/bom" "| cat >/dev/null"
row "tree -v -n '^\\s'" "-r -v -n -E '^\\s' --exclude='*.gif' $E/tree" "-v -n '^\\s' -g '!*.gif' $E/tree"
row "tree -n -F struct" "-r -n -F struct $E/tree" "-n -F struct $E/tree"
row "tree -n -i e" "-r -n -i e $E/tree" "-n -i e $E/tree"
row "tree -o -E '[0-9]+'" "-r -o -E '[0-9]+' $E/tree" "-o '[0-9]+' $E/tree"
row "many -n ERROR" "-r -n ERROR $E/many" "-n ERROR $E/many"
echo "== bom/* -n -w the (listed operands)" >> $S
( cd $E/bom && timeout 60 python3 $OLDPWD/benches/cpu-time.py --rounds 11 new="$N --engine cpu -j16 -n -w the *" \
    base="$B --engine cpu -j16 -n -w the *" rg="$RG --no-config -uu -a -j16 -n -w the *" ) >> $S 2>&1
echo "rows done after $SECONDS s" >> $S
common=(--gpugrep $N --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 3 --no-grep --timeout 10 --sink null)
PATS=$PWD/benches/patterns timeout 120 benches/run --cases benches/cases-oneliner-hunt.tsv --corpus logs=$E/logs/ci.log \
  --corpus many=$E/many --corpus tree=$E/tree --corpus bom=$E/bom "${common[@]}" --out $OUT/oneliner16.tsv > $OUT/oneliner16.txt 2>&1
echo "oneliner16 rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/oneliner16.tsv >> $S
GPUGREP=$N CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 3 --timeout 10 --no-grep --sink null --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
echo "done after $SECONDS s" >> $S
cat $S
