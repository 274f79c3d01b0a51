#!/usr/bin/env bash
# session 55, call 3 (a diagnosis, no code landed): where dense output's
# memory goes at 16 threads over one flat directory. gg-mem is fd25032 with
# scratch prints (GG_PK=1): the longest listing of a directory and the
# most results waiting for the printer (bytes held, files). The BOM prose
# (20,516 files) and bom8 (each eight times over), -n -F the.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
echo "corpora after $SECONDS s: $(ls $E/bom | wc -l) files, $(du -sh $E/bom | cut -f1); bom8 $(du -sh $E/bom8 | cut -f1)" >> $S
for d in bom bom8; do
  for j in 16 8 4; do
    for r in 1 2 3; do
      GG_PK=1 /usr/bin/time -f "%e s %M KB" $D/gg-mem --engine cpu -j $j -r -n -F the $E/$d > /dev/null 2> $X/e.txt
      echo "$d j$j gg-mem r$r: $(grep -h LIST $X/e.txt | sort -t' ' -k3 | tail -1) | $(grep -h PEAK $X/e.txt) | $(tail -1 $X/e.txt)" >> $S
      /usr/bin/time -f "%e s %M KB" $D/rg --no-config -uu -a -j $j -n -F the $E/$d > /dev/null 2> $X/e.txt
      echo "$d j$j rg r$r: $(tail -1 $X/e.txt)" >> $S
    done
  done
  for lb in 16M 4M 1M; do
    GG_PK=1 GPUGREP_LEAD_BYTES=$lb /usr/bin/time -f "%e s %M KB" $D/gg-mem --engine cpu -j 16 -r -n -F the $E/$d > /dev/null 2> $X/e.txt
    echo "$d j16 lead $lb: $(grep -h PEAK $X/e.txt) | $(tail -1 $X/e.txt)" >> $S
  done
  python3 - "$E/$d" >> $S <<'PY'
import os, sys, time
t = time.time(); n = sum(1 for _ in os.scandir(sys.argv[1])); print(f"scandir {n} entries {1000*(time.time()-t):.1f} ms")
PY
done
echo "all done after $SECONDS s" >> $S
cat $S
