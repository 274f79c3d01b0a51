#!/usr/bin/env bash
# session 61, call 1: where 16 threads' peak memory goes on the host, and
# which cheap lever lowers it at no cost in time. Builds (dev/): base
# (73d9af1), peak (base + the lead's peak printed at exit, PEAKLEAD=1),
# p256 (results packed once 256 KiB, not 2 MiB, wait for a listing), s64
# (read buffers' stream block 64 KiB, not 256), s64p256 (both), glibc
# (glibc's malloc, not mimalloc). The byte bound on waiting output set by
# GPUGREP_LEAD_BYTES (default 64M). 7 rounds alternating, 16 threads.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; V=$D/dev; RG=$V/rg
echo "commit $(cat $D/commit)" > $S
GPUGREP=$V/gpugrep-base CORPUS=$V/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* | tr '\n' ' ')" >> $S
export LC_ALL=C.UTF-8
for a in "tree|-n -w int" "bom|-n -w -E [a-z]+ing" "bom|-n -F kernel" "big|-n -F INFO"; do
  d=${a%%|*}; o=${a#*|}
  for i in 1 2 3; do echo "peak $d $o: $(PEAKLEAD=1 $V/gpugrep-peak -j16 -r $o $E/$d 2>&1 >/dev/null)" >> $S; done
done
row() { # name, dir, gpugrep args, rg args
  echo "== $1" >> $S
  local G="--engine cpu -j16 -r $3 $E/$2"
  timeout 100 python3 benches/cpu-time.py --rounds 7 base="$V/gpugrep-base $G" \
    l16="GPUGREP_LEAD_BYTES=16M $V/gpugrep-base $G" l8="GPUGREP_LEAD_BYTES=8M $V/gpugrep-base $G" \
    l4="GPUGREP_LEAD_BYTES=4M $V/gpugrep-base $G" p256="$V/gpugrep-p256 $G" s64="$V/gpugrep-s64 $G" \
    s64p256="$V/gpugrep-s64p256 $G" glibc="$V/gpugrep-glibc $G" \
    rg="$RG --no-config -uu -a -j16 $4 $E/$2" >> $S 2>&1
  echo "after $SECONDS s" >> $S
}
row tree-n-w-int tree "-n -w int" "-n -w int"
row bom-n-w-ing bom "-n -w -E '[a-z]+ing'" "-n -w '[a-z]+ing'"
row bom-lit bom "-n -F kernel" "-n -F kernel"
row tree-c-w-int tree "-c -w int" "-c -w int"
row many-n many "-n FATAL" "-n FATAL"
row big-n-dense big "-n -F INFO" "-n -F INFO"
echo "done after $SECONDS s" >> $S
cat $S
