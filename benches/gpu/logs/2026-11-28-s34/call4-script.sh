#!/usr/bin/env bash
# session 34, call 4 (16 cores): what this host's cores move through
# memory (benches/membw/membw.c, built on the dev VM): 1 GiB a thread read
# and copied, and the 16 GiB of CI logs in 64 files read by pread into a
# buffer (the readers' route), mapped and read through (the printers'
# first touch), and both at once; 16 and 8 threads, 2 rounds each.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; free -g; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
for t in 16 8; do
  $D/membw $t $(find /dev/shm/logs -type f | sort) >> $S 2>&1
done
cat $S
