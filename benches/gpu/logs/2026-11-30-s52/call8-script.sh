#!/usr/bin/env bash
# session 52, call 8 (a diagnosis): on the dev VM, -n of a frequent word
# over a flat directory of 20,512 prose files eight times the BOM prose's
# size (936 MB) took 1.2-6.4 s at 16 threads against rg's 0.74-0.79 s
# (2 threads: 0.49-0.71 against 0.71-0.75). The same on the 16-core host.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
echo "corpora after $SECONDS s ($(du -sh $E/bom8 | cut -f1))" >> $S
a="-n -F the $E/bom8"
for j in 16 8; do
  echo "== bom8 -j$j: $a" >> $S
  timeout 120 python3 benches/cpu-time.py --rounds 3 gg="$D/gpugrep --engine cpu -j $j -r $a" \
    rg="$D/rg --no-config -uu -a -j $j $a" ggpipe="$D/gpugrep --engine cpu -j $j -r $a | cat" \
    rgpipe="$D/rg --no-config -uu -a -j $j $a | cat" >> $S 2>&1
done
echo "all done after $SECONDS s" >> $S
cat $S
