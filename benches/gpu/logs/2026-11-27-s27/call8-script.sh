#!/usr/bin/env bash
# session 27, call 8 (H100, nvidia-h100-x1): the final build (9a154bd),
# realworld.sh rows not run this session: -i -c, -n, -o with 1,000 and
# 10,000 words (16 GiB of prose, 20,000 BOM+CRLF files).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
mkdir -p $O/rw
OUT=$O/rw D=$D SETS="1000 10000" CASES="-i -c|-n|-o" SIZE_GIB=16 FILES=20000 C=/dev/shm/rw bash benches/gpu/realworld.sh > $O/realworld.txt 2>&1
for f in $O/rw/rw-stats-*; do echo "== $f"; cat $f; done > $O/stats.txt 2>&1; rm -rf $O/rw
cat $O/realworld.txt
