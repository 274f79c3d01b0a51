#!/usr/bin/env bash
# session 30, call 5 (H100 host, call 3's build): what the listing's sizes
# cost on 16 cores. 400,000 files of 43 KB: the listing with sizes
# (--engine gpu --stats) against the same listing without them (the CPU
# engine lists first when standard input is an operand: `- < /dev/null`),
# 4 rounds alternating, and rg --files.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/many 16 400000 > /dev/null
for r in 1 2 3 4; do
  $D/gpugrep --engine gpu -j16 --stats -r -c -F zzzqqqxx /dev/shm/many 2>&1 >/dev/null | grep listed | sed 's/^/sized: /' >> $S
  $D/gpugrep --engine cpu -j16 --stats -r -c -F zzzqqqxx /dev/shm/many - < /dev/null 2>&1 >/dev/null | grep listed | sed 's/^/unsized: /' >> $S
done
for j in 4 8; do
  $D/gpugrep --engine cpu -j$j --stats -r -c -F zzzqqqxx /dev/shm/many - < /dev/null 2>&1 >/dev/null | grep listed | sed "s/^/unsized -j$j: /" >> $S
done
cat $S
