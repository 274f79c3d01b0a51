#!/usr/bin/env bash
# session 55, call 6 (a diagnosis; no code landed): bom8 `-n -F the` into
# /dev/null at 16 threads with the byte bound on waiting results raised
# (GPUGREP_LEAD_BYTES, the test knob): does the bound's throttle set the
# wall? gpugrep = 56ae5e7; rg beside it; 4 rounds.
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
  for lb in 64M 256M 1G 4G; do
    GPUGREP_LEAD_BYTES=$lb /usr/bin/time -f "%e s %U u %S sys %M KB" $D/gpugrep --engine cpu -j16 -r -n -F the $E/bom8 > /dev/null 2> $X/e.txt
    echo "lead $lb r$r: $(tail -1 $X/e.txt)" >> $S
  done
  for lb in 64M 1G; do
    GPUGREP_LEAD_BYTES=$lb /usr/bin/time -f "%e s %U u %S sys %M KB" $D/gpugrep --engine cpu -j16 -r -n -F the $E/bom > /dev/null 2> $X/e.txt
    echo "bom lead $lb r$r: $(tail -1 $X/e.txt)" >> $S
  done
  /usr/bin/time -f "%e s %U u %S sys %M KB" $D/rg --no-config -uu -a -j16 -n -F the $E/bom8 > /dev/null 2> $X/e.txt
  echo "rg r$r: $(tail -1 $X/e.txt)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
