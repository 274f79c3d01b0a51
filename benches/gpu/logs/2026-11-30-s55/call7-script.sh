#!/usr/bin/env bash
# session 55, call 7 (a diagnosis; no code landed): a flat directory's files
# handed out in name order (read whole, sorted, then batched) instead of in
# the order read while it is listed: gg-sa is d79956b with a scratch switch
# (GG_STREAM_AFTER, not committed; 1024 as built). The BOM prose and bom8,
# `-n -F the` into /dev/null, 16 and 8 threads; rg; 4 rounds.
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
for r in 1 2 3 4; do
  for d in bom bom8; do
    for j in 16 8; do
      for sa in 1024 100000000; do
        GG_STREAM_AFTER=$sa /usr/bin/time -f "%e s %U u %S sys %M KB" $D/gg-sa --engine cpu -j$j -r -n -F the $E/$d > /dev/null 2> $X/e.txt
        echo "$d j$j stream-after $sa r$r: $(tail -1 $X/e.txt)" >> $S
      done
      /usr/bin/time -f "%e s %U u %S sys %M KB" $D/rg --no-config -uu -a -j$j -n -F the $E/$d > /dev/null 2> $X/e.txt
      echo "$d j$j rg r$r: $(tail -1 $X/e.txt)" >> $S
    done
  done
done
for sa in 1024 100000000; do echo "md5 $sa: $(GG_STREAM_AFTER=$sa $D/gg-sa --engine cpu -j16 -r -n -F the $E/bom8 | md5sum | cut -c1-12)" >> $S; done
echo "all done after $SECONDS s" >> $S
cat $S
