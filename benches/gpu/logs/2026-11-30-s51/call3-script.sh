#!/usr/bin/env bash
# session 51, call 3 (a diagnosis): is tree-call's gap at 16 threads the
# run's end waiting for net/wireless/nl80211.c (554 KB, begun 66 files
# before the last by name)? The same search with every file from 256 KiB
# split (GPUGREP_SPLIT_MIN=256K), and over a copy of the tree with that
# file moved to the front (Documentation/0-nl80211.c), against rg.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=64M MANY_SIZE=64M BIG_SIZE=64M timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
cp -r $E/tree /dev/shm/tree2 && mv /dev/shm/tree2/net/wireless/nl80211.c /dev/shm/tree2/Documentation/0-nl80211.c
echo "corpora after $SECONDS s" >> $S
C="'\w+->\w+\(|\w+\.\w+\('"
for t in $E/tree /dev/shm/tree2; do
  echo "tree-call -j16 $t" >> $S
  timeout 100 python3 benches/cpu-time.py --rounds 11 new="$D/gpugrep --engine cpu -j 16 -r -c -E $C $t" \
    split256k="GPUGREP_SPLIT_MIN=256K $D/gpugrep --engine cpu -j 16 -r -c -E $C $t" \
    rg="$D/rg --no-config -uu -a -j 16 -c $C $t" >> $S 2>&1
done
$D/gpugrep --engine cpu --stats -j16 -r -c -E "\w+->\w+\(|\w+\.\w+\(" $E/tree 2>&1 >/dev/null | grep -i "split\|files" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
