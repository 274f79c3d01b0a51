#!/usr/bin/env bash
# session 21, call 7: a file given to the CPU is handed to it at once (no
# wait for its pieces still in the pipeline): one 16 GiB BOM file, -n,
# gpu/auto/cpu, 3 rounds; then 400,000 small files, -n, once each.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/cp 16 256 --no-bom >> $S 2>&1
mkdir -p /dev/shm/c; printf '\xef\xbb\xbf' > /dev/shm/c/big.txt
for f in /dev/shm/cp/d*/f*; do cat $f >> /dev/shm/c/big.txt; rm $f; done
W=/dev/shm/cp.words-1000.txt
for r in 1 2 3; do
  for e in gpu auto cpu; do
    s=$(date +%s%N); n=$($D/gpugrep --engine $e -j16 -r -n -F -f $W /dev/shm/c | wc -l); echo "c $e -n |wc $(ms $s) ms $n" >> $S
  done
done
$D/gpugrep --engine gpu --stats -j16 -r -n -F -f $W /dev/shm/c 2> $O/stats-gpu-n-c.txt | wc -l >> $S
rm -rf /dev/shm/c /dev/shm/cp
python3 benches/gpu/gen-prose.py $D/words /dev/shm/d 16 400000 >> $S 2>&1
W=/dev/shm/d.words-1000.txt
for e in cpu gpu auto; do
  s=$(date +%s%N); n=$($D/gpugrep --engine $e -j16 -r -n -F -f $W /dev/shm/d | wc -l); echo "d $e -n |wc $(ms $s) ms $n" >> $S
done
cat $S
