#!/usr/bin/env bash
# session 22, call 1 (0567f01): -w -c of 1,000 words on 16 GiB of BOM
# prose (CPU engine against rg, 3 rounds alternating); the everyday matrix
# at 16 threads; open+read+close of the matrix's corpora by full path
# against openat(directory fd, name) (openat-bench.c), 16 threads.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
W=/dev/shm/a.words-1000.txt
for r in 1 2 3; do
  s=$(date +%s%N); n=$(/usr/bin/time -f "%M" -o $O/t.txt $D/gpugrep --engine cpu -j16 -r -c -w -F -f $W /dev/shm/a | awk -F: '{s+=$NF} END {print s}'); echo "w-c cpu $(ms $s) ms $n $(cat $O/t.txt) KB" >> $S
  s=$(date +%s%N); n=$(/usr/bin/time -f "%M" -o $O/t.txt $D/rg --no-config -uu -a -j16 -c -w -F -f $W /dev/shm/a | awk -F: '{s+=$NF} END {print s}'); echo "w-c rg $(ms $s) ms $n $(cat $O/t.txt) KB" >> $S
done
rm -rf /dev/shm/a /dev/shm/a.*
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 400 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
tail -4 $O/everyday-16.txt >> $S
for c in many tree bom; do for r in 1 2 3 4 5; do for m in 0 1; do $D/oa $m 16 $E/$c >> $S 2>&1; done; done; done
cat $S
