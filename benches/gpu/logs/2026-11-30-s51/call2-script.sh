#!/usr/bin/env bash
# session 51, call 2: where the 16-thread system time goes (no perf on the
# host): mimalloc's purges (MIMALLOC_PURGE_DELAY: 10 ms as built, -1 never,
# 100 ms) and the read buffer's release (norel) against rg, by
# benches/cpu-time.py (wall, user, sys, faults, peak); the thread-local
# caches (newb) against base on the templates' pack (-c, CPU engine).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
ct() { # label rounds gpugrep-args -- rg-args
  local label=$1 rounds=$2; shift 2
  local g=() r=()
  while [ "$1" != "--" ]; do g+=("$1"); shift; done; shift; r=("$@")
  echo "$label" >> $S
  timeout 120 python3 benches/cpu-time.py --rounds $rounds \
    new="$D/gpugrep --engine cpu ${g[*]}" p1="MIMALLOC_PURGE_DELAY=-1 $D/gpugrep --engine cpu ${g[*]}" \
    p100="MIMALLOC_PURGE_DELAY=100 $D/gpugrep --engine cpu ${g[*]}" norelp1="MIMALLOC_PURGE_DELAY=-1 $D/gg-norel --engine cpu ${g[*]}" \
    base="$D/gg-base --engine cpu ${g[*]}" rg="$D/rg --no-config -uu -a ${r[*]}" >> $S 2>&1
}
C="'\w+->\w+\(|\w+\.\w+\('"
ct "tree-call -j16" 11 -j 16 -r -c -E "$C" $E/tree -- -j 16 -c "$C" $E/tree
ct "tree-lit-freq -j16" 9 -j 16 -r -c return $E/tree -- -j 16 -c return $E/tree
ct "tree-re-inner -j16" 9 -j 16 -r -c -E "'\w+_t\b'" $E/tree -- -j 16 -c "'\w+_t\b'" $E/tree
ct "tree-n -j16" 9 -j 16 -r -n -F spin_lock $E/tree -- -j 16 -n -F spin_lock $E/tree
ct "bom -n kernel -j16" 7 -j 16 -r -n -F kernel $E/bom -- -j 16 -n -F kernel $E/bom
ct "many -n ERROR -j16" 7 -j 16 -r -n ERROR $E/many -- -j 16 -n ERROR $E/many
ct "loghub-n-exc -j16" 5 -j 16 -r -n -E "'\w+(Exception|Error)\b'" /dev/shm/real/loghub-1G -- -j 16 -n "'\w+(Exception|Error)\b'" /dev/shm/real/loghub-1G
echo "cpu-time done after $SECONDS s" >> $S
T=/dev/shm/real/rules-templates.txt; L=/dev/shm/real/loghub-1G
ls /dev/shm/real >> $S
echo "templates -c -j16 (1 GiB)" >> $S
timeout 100 python3 benches/cpu-time.py --rounds 3 new="$D/gpugrep --engine cpu -j 16 -h -c -E -f $T -r $L" \
  base="$D/gg-base --engine cpu -j 16 -h -c -E -f $T -r $L" rg="$D/rg --no-config -uu -a -j 16 -c -f $T $L" >> $S 2>&1
echo "all done after $SECONDS s" >> $S
cat $S
