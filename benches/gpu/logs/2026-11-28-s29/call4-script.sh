#!/usr/bin/env bash
# session 29, call 4 (H100 host): the rows of one 16 GiB file (LF, no
# byte-order mark) that call 3 did not reach, for gpugrep alone (gpu,
# auto, and the CPU engine as reference): rg took 67 s and Hyperscan 60 s
# over the one file in call 3's 1,000-word -c row.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export LD_LIBRARY_PATH=$D/lib
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
OUT=$O D=$D SETS="10000 1000" CASES="-c|-n" TOOLS="gpu auto" SIZE_GIB=16 FILES=1 GEN_FLAGS="--lf --no-bom" \
  C=/dev/shm/one timeout 330 bash benches/gpu/realworld.sh > $O/table.txt 2>&1
echo "rc $?" >> $O/table.txt
cat $O/table.txt
