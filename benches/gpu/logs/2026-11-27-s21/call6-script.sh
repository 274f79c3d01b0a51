#!/usr/bin/env bash
# session 21, call 6: a file given to the CPU (past 16 M matches) left
# unread by the pipeline: one 16 GiB BOM file, -n, gpu/auto/cpu, new
# against prev (9968c3c: read to the end); then 400,000 small files, -n.
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
for r in 1 2; do
  for v in "prev --engine gpu" "new --engine gpu" "new --engine auto" "new --engine cpu" "prev --engine auto"; do
    read -r b e <<<"$v"; G=$D/gpugrep; [ $b = prev ] && G=$D/gpugrep-prev
    s=$(date +%s%N); n=$($G $e -j16 -r -n -F -f $W /dev/shm/c | wc -l); echo "c $b $e -n |wc $(ms $s) ms $n" >> $S
  done
done
$D/gpugrep --engine gpu --stats -j16 -r -n -F -f $W /dev/shm/c 2> $O/stats-gpu-n-c.txt | wc -l >> $S
s=$(date +%s%N); n=$($D/gpugrep --engine gpu -j16 -r -c -F -f $W /dev/shm/c); echo "c new gpu -c $(ms $s) ms $n" >> $S
rm -rf /dev/shm/c /dev/shm/cp
python3 benches/gpu/gen-prose.py $D/words /dev/shm/d 16 400000 >> $S 2>&1
W=/dev/shm/d.words-1000.txt
for r in 1 2; do
  for v in "prev --engine cpu" "new --engine cpu" "new --engine gpu" "new --engine auto"; do
    read -r b e <<<"$v"; G=$D/gpugrep; [ $b = prev ] && G=$D/gpugrep-prev
    s=$(date +%s%N); n=$($G $e -j16 -r -n -F -f $W /dev/shm/d | wc -l); echo "d $b $e -n |wc $(ms $s) ms $n" >> $S
  done
done
cat $S
