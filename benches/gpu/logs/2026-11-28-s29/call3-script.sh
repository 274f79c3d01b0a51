#!/usr/bin/env bash
# session 29, call 3 (H100 host): issue 16's shapes not run before, with
# realworld.sh (ugrep added with a 20 s limit; the GPU's peak memory
# sampled): one file of 16 GiB (LF, no byte-order mark), `-c` and `-n`;
# then 400,000 files of 43 KB (byte-order mark, CRLF), 16 GiB, `-c`.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export LD_LIBRARY_PATH=$D/lib
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; uname -r; } > $O/machine.txt 2>&1
mkdir -p $O/one $O/many
OUT=$O/one D=$D SETS="1000 10000" CASES="-c|-n" SIZE_GIB=16 FILES=1 GEN_FLAGS="--lf --no-bom" \
  C=/dev/shm/one UGREP_TIMEOUT=20 timeout 300 bash benches/gpu/realworld.sh > $O/one/table.txt 2>&1
echo "one rc $?" >> $O/one/table.txt
rm -rf /dev/shm/one
OUT=$O/many D=$D SETS="1000 10000" CASES="-c" SIZE_GIB=16 FILES=400000 \
  C=/dev/shm/many UGREP_TIMEOUT=20 timeout 235 bash benches/gpu/realworld.sh > $O/many/table.txt 2>&1
echo "many rc $?" >> $O/many/table.txt
cat $O/one/table.txt $O/many/table.txt
