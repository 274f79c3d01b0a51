#!/usr/bin/env bash
# session 67: unpacks .dev1/pack.tar.xz into /tmp/d and makes the corpora
# in /dev/shm/ev (the everyday matrix's, and big/ as 8 logs of 128 MiB)
# unless a warm machine has them; sourced by the call scripts.
D=/tmp/d; E=/dev/shm/ev
[[ -x $D/dev/gpugrep ]] || { mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz; }
G=$D/dev/gpugrep; RG=$D/dev/rg; S=$OUT/summary.txt
echo "commit $(cat $D/commit)" > $S
if [[ ! -d $E/bom ]]; then
  mkdir -p $E
  $D/dev/gpugrep-corpus --kind logs --out $E/big --size 1G --files 8 > $OUT/gen.txt 2>&1
  GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
    timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep >> $OUT/gen.txt 2>&1
fi
echo "corpora after $SECONDS s: $(du -sm $E/* | tr '\n' ' ')" >> $S
export LC_ALL=C.UTF-8
