#!/usr/bin/env bash
# session 51, call 6: call 5's outliers timed again, base, new and rg
# alternating (benches/cpu-time.py, 15 rounds): bom-mail-url (new 0.085-0.190
# s against base 0.050 in call 5), tree-ctx and bom-l (literal searches the
# change does not reach), tree-call.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=64M MANY_SIZE=64M BIG_SIZE=64M timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
ct() { # label gpugrep-args -- rg-args
  local label=$1; shift
  local g=() r=()
  while [ "$1" != "--" ]; do g+=("$1"); shift; done; shift; r=("$@")
  echo "$label" >> $S
  timeout 80 python3 benches/cpu-time.py --rounds 15 base="$D/gg-base --engine cpu ${g[*]}" \
    new="$D/gpugrep --engine cpu ${g[*]}" rg="$D/rg --no-config -uu -a ${r[*]}" >> $S 2>&1
}
M="'\w+@\w+\.\w+|https?://[^ ]+'"
ct "bom-mail-url -j16" -j 16 -r -c -E "$M" $E/bom -- -j 16 -c "$M" $E/bom
ct "tree-ctx -j16" -j 16 -r -C2 -F "'BUG_ON(!'" $E/tree -- -j 16 -C2 -F "'BUG_ON(!'" $E/tree
ct "bom-l -j16" -j 16 -r -l -w Linux $E/bom -- -j 16 -l -w Linux $E/bom
C="'\w+->\w+\(|\w+\.\w+\('"
ct "tree-call -j16" -j 16 -r -c -E "$C" $E/tree -- -j 16 -c "$C" $E/tree
echo "all done after $SECONDS s" >> $S
cat $S
