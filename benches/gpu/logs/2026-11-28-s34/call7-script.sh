#!/usr/bin/env bash
# session 34, call 7 (16 cores): the printers' first touch of a file with
# its map populated in one call (membw's touchp, MAP_POPULATE) against a
# fault at a time (touch): benches/membw/membw.c over the 64 files of 16
# GiB of CI logs, 16 threads, 3 rounds.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
for r in 1 2 3; do $D/membw 16 $(find /dev/shm/logs -type f | sort) >> $S 2>&1; done
cat $S
