#!/usr/bin/env bash
# session 55, call 5 (a diagnosis; no code landed): is the printer's copy of
# each result into its buffer what bounds bom8 `-n -F the` into /dev/null at
# 16 threads? gg-nw is 3cc63bd with a scratch switch (GG_NOWRITE=1, not
# committed) under which the printer drops each unpacked result instead of
# writing it; `-c` (no output) as the workers' floor; rg beside it.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
echo "corpora after $SECONDS s" >> $S
for r in 1 2 3 4 5; do
  for t in "write|env X=1 $D/gg-nw" "nowrite|env GG_NOWRITE=1 $D/gg-nw"; do
    IFS='|' read -r name cmd <<< "$t"
    /usr/bin/time -f "%e s %U u %S sys %M KB" $cmd --engine cpu -j16 -r -n -F the $E/bom8 > /dev/null 2> $X/e.txt
    echo "$name r$r: $(tail -1 $X/e.txt)" >> $S
  done
  /usr/bin/time -f "%e s %U u %S sys %M KB" $D/gg-nw --engine cpu -j16 -r -c -F the $E/bom8 > /dev/null 2> $X/e.txt
  echo "count r$r: $(tail -1 $X/e.txt)" >> $S
  /usr/bin/time -f "%e s %U u %S sys %M KB" $D/rg --no-config -uu -a -j16 -n -F the $E/bom8 > /dev/null 2> $X/e.txt
  echo "rg r$r: $(tail -1 $X/e.txt)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
