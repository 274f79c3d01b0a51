#!/usr/bin/env bash
# session 51, call 8 (a diagnosis): does tree-call lose at 16 threads
# because the printing thread makes 17 on 16 cores? gpugrep -j16, -j15,
# -j14 against rg -j16 and -j15 (benches/cpu-time.py, 11 rounds), and the
# same for a literal row (tree-lit-freq).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=64M MANY_SIZE=64M BIG_SIZE=64M timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
C="'\w+->\w+\(|\w+\.\w+\('"
for a in "-c -E $C" "-c return"; do
  echo "tree $a" >> $S
  timeout 80 python3 benches/cpu-time.py --rounds 11 g16="$D/gpugrep --engine cpu -j 16 -r $a $E/tree" \
    g15="$D/gpugrep --engine cpu -j 15 -r $a $E/tree" g14="$D/gpugrep --engine cpu -j 14 -r $a $E/tree" \
    rg16="$D/rg --no-config -uu -a -j 16 ${a/-E /} $E/tree" rg15="$D/rg --no-config -uu -a -j 15 ${a/-E /} $E/tree" >> $S 2>&1
done
echo "all done after $SECONDS s" >> $S
cat $S
