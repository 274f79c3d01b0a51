#!/usr/bin/env bash
# session 55, call 8 (a diagnosis; no code landed): call 7's switch plus a
# second (GG_BATCH: the most files a batch of a directory of over 1,024
# entries holds; 128 as built), both scratch, not committed: as built;
# read whole with batches of 128, 32, 16. The BOM prose and bom8 `-n -F
# the`, `-c` over bom8, 16 threads; rg; 3 rounds.
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
for r in 1 2 3; do
  for a in "-n -F the bom" "-n -F the bom8" "-c -F the bom8"; do
    set -- $a; d=$4
    for v in "built|GG_STREAM_AFTER=1024" "whole128|GG_STREAM_AFTER=100000000" "whole32|GG_STREAM_AFTER=100000000 GG_BATCH=32" "whole16|GG_STREAM_AFTER=100000000 GG_BATCH=16"; do
      IFS='|' read -r name envs <<< "$v"
      env $envs /usr/bin/time -f "%e s %U u %S sys %M KB" $D/gg-sa --engine cpu -j16 -r $1 $2 $3 $E/$d > /dev/null 2> $X/e.txt
      echo "$d $1 $name r$r: $(tail -1 $X/e.txt)" >> $S
    done
    /usr/bin/time -f "%e s %U u %S sys %M KB" $D/rg --no-config -uu -a -j16 $1 $2 $3 $E/$d > /dev/null 2> $X/e.txt
    echo "$d $1 rg r$r: $(tail -1 $X/e.txt)" >> $S
  done
done
for v in "GG_STREAM_AFTER=1024" "GG_STREAM_AFTER=100000000 GG_BATCH=16"; do echo "md5 $v: $(env $v $D/gg-sa --engine cpu -j16 -r -n -F the $E/bom8 | md5sum | cut -c1-12)" >> $S; done
echo "all done after $SECONDS s" >> $S
cat $S
