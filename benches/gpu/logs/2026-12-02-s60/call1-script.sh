#!/usr/bin/env bash
# session 60, call 1: the -w regex matcher with a cache per search thread
# (dev/gpugrep) against the one before it (dev/gpugrep-base: its regexes'
# own pools) and rg at 16 and 4 threads, 11 rounds alternating; then the
# option hunt and the regex hunt (its loghub rows left out: no loghub
# carried) at 16 threads with dev/gpugrep, and their rows below 1.0 again.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; G=$D/dev/gpugrep; B0=$D/dev/gpugrep-base; RG=$D/dev/rg
echo "commit $(cat $D/commit)" > $S
mkdir -p $E/many $E/big
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* | tr '\n' ' ')" >> $S
export LC_ALL=C.UTF-8
cmp3() { # name, gpugrep args, rg args, dir
  echo "== $1 -j$J" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 11 new="$G --engine cpu -j $J -r $2 $4" \
    base="$B0 --engine cpu -j $J -r $2 $4" rg="$RG --no-config -uu -a -j $J $3 $4" >> $S 2>&1
}
for J in 16 4; do
  cmp3 o-w-ing "-o -w -E '[a-z]+ing'" "-o -w '[a-z]+ing'" $E/bom
  cmp3 n-w-ing "-n -w -E '[a-z]+ing'" "-n -w '[a-z]+ing'" $E/bom
  cmp3 c-w-ing "-c -w -E '[a-z]+ing'" "-c -w '[a-z]+ing'" $E/bom
  cmp3 n-w-i-error "-n -w -i error" "-n -w -i error" $E/bom
  cmp3 tree-n-w-int "-n -w int" "-n -w int" $E/tree
done
echo "compare done after $SECONDS s" >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 120 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
grep -v loghub benches/cases-regex-hunt.tsv > /tmp/regex-hunt.tsv
timeout 120 benches/run --cases /tmp/regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
  --corpus bom=$E/bom "${common[@]}" --out $OUT/regex16.tsv > $OUT/regex16.txt 2>&1
echo "regex hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/regex16.tsv >> $S
for t in option16 regex16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.0 --commands
done | while IFS=$'\t' read -r case gg rg; do
  (( SECONDS > 540 )) && break
  echo "== $case" >> $S
  timeout 40 python3 benches/cpu-time.py --rounds 15 gpugrep="$gg" rg="$rg" >> $S 2>&1
done
echo "done after $SECONDS s" >> $S
cat $S
