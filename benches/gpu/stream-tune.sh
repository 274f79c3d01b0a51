#!/usr/bin/env bash
# Tuning runs for the streaming pipeline on the device machine: one
# --engine gpu search of $BIG_GIB GiB in $BIG_FILES files per variant
# (chunk size, staging ring, lanes), with its --debug stage lines.
# VARIANTS: space-separated "chunk:staging:lanes" (default below). The
# knobs are GPUGREP_GPU_CHUNK and GPUGREP_GPU_LANES (src/knobs.rs).
set -u
D=$PWD/.dev; G=$D/gpugrep
BIG_GIB=${BIG_GIB:-16}; BIG_FILES=${BIG_FILES:-4096}
B=/dev/shm/stream/big$BIG_GIB
mkdir -p /dev/shm/stream
[ -d $B ] || "$D/gpugrep-corpus" --kind prose --out $B --size ${BIG_GIB}G --files $BIG_FILES --threads 16 > /dev/null
cat $B/*/* > /dev/null
t() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo "$(( ($(date +%s%N) - s) / 1000000 )) ms"; }
echo "cpu: $(t "$G" --engine cpu -c -r Sherlock $B)  rg -j16: $(t "$D/rg" -j16 -uu -a -c Sherlock $B)"
VARIANTS=${VARIANTS:-"64M:1G:2 64M:1G:4 16M:1G:4 256M:2G:4 64M:256M:4"}
for v in $VARIANTS; do
  IFS=: read -r chunk staging lanes <<< "$v"
  export GPUGREP_GPU_CHUNK=$chunk GPUGREP_GPU_LANES=$lanes
  for r in 1 2; do
    echo "== $v run $r: $(t "$G" --engine gpu --gpu-staging $staging -c -r Sherlock $B)"
  done
  "$G" --engine gpu --gpu-staging $staging --debug --stats -c -r Sherlock $B 2>&1 >/dev/null \
    | grep -E "packer|gpu stages|seconds|freeing" | sed 's/^gpugrep: debug: //'
done
