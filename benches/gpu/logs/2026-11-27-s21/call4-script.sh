#!/usr/bin/env bash
# session 21, call 4: the ordered walk's front rule (a thread too far ahead
# searches the first file of the earliest batch when nothing unbegun comes
# before it) and BOM files split: new against prev (9968c3c), 3 rounds
# alternating, -n over 20,000 files of 860 KB (1,000 words); then the
# everyday matrix at 16 threads (new).
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
W=/dev/shm/a.words-1000.txt
for r in 1 2 3; do
  for b in prev new; do
    G="$D/gpugrep-$b --engine cpu -j16 -r -n -F -f $W /dev/shm/a"; [ $b = new ] && G="$D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/a"
    s=$(date +%s%N); n=$(/usr/bin/time -f "%M" -o $O/t.txt $G | wc -l); echo "a $b -n |wc $(ms $s) ms $n lines $(cat $O/t.txt) KB" >> $S
    s=$(date +%s%N); $G > /dev/null; echo "a $b -n >null $(ms $s) ms" >> $S
  done
done
s=$(date +%s%N); n=$($D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/a | wc -l); echo "a rg -n |wc $(ms $s) ms $n" >> $S
rm -rf /dev/shm/a /dev/shm/a.*
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 420 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
tail -4 $O/everyday-16.txt >> $S
cat $S
