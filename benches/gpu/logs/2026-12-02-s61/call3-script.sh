#!/usr/bin/env bash
# session 61, call 3: the rows of call 2's matrix and option hunt below 1.0,
# 15 rounds alternating, dev/gpugrep (42838d1) against dev/gpugrep-base
# (73d9af1) and rg, 16 threads.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; G=$D/dev/gpugrep; B0=$D/dev/gpugrep-base; RG=$D/dev/rg
echo "commit $(cat $D/commit)" > $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* | tr '\n' ' ')" >> $S
export LC_ALL=C.UTF-8
cmp3() { # name, dir, gpugrep args, rg args
  echo "== $1" >> $S
  timeout 80 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r $3 $2" \
    base="$B0 --engine cpu -j16 -r $3 $2" rg="$RG --no-config -uu -a -j16 $4 $2" >> $S 2>&1
}
cmp3 tree-i-utf8 $E/tree "-c -i 'müller'" "-c -i 'müller'"
cmp3 many-lit-rare $E/many "-n -F 'error[E0659]'" "-n -F 'error[E0659]'"
cmp3 tree-lit-freq $E/tree "-c return" "-c return"
cmp3 tree-long-lines $E/tree "-c -E '.{200,}'" "-c '.{200,}'"
cmp3 tree-trailing-ws $E/tree "-c -E '[[:space:]]+\$' --exclude='*.gif'" "-c '[[:space:]]+\$' -g '!*.gif'"
cmp3 bom-long-lines $E/bom "-c -E '.{120,}'" "-c '.{120,}'"
echo "done after $SECONDS s" >> $S
cat $S
