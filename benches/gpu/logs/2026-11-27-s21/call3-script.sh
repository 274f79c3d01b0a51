#!/usr/bin/env bash
# session 21, call 3: why the CPU engine's -n over 20,000 files of 860 KB
# (-j16) takes 11.5 s into `wc -l` (6.8 s into /dev/null) where one 16 GiB
# file takes 5.1 s: the bound on output waiting for the printer
# (GPUGREP_LEAD_BYTES, now also for walked trees), walked against listed;
# and where the GPU path's -n goes (--stats), 20,000 files and one file.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
W=/dev/shm/a.words-1000.txt
G="$D/gpugrep --engine cpu -j16 -n -F -f $W"
(cd /dev/shm && find a -type f | sort > /dev/shm/list.txt)
for r in 1 2; do
  for lb in 64M 256M 1G; do
    s=$(date +%s%N); GPUGREP_LEAD_BYTES=$lb $G -r /dev/shm/a > /dev/null; echo "a cpu -n lead $lb >null $(ms $s) ms" >> $S
    s=$(date +%s%N); n=$(GPUGREP_LEAD_BYTES=$lb $G -r /dev/shm/a | wc -l); echo "a cpu -n lead $lb |wc $(ms $s) ms $n" >> $S
  done
  s=$(date +%s%N); n=$(cd /dev/shm && $G --files-from list.txt | wc -l); echo "a cpu -n listed |wc $(ms $s) ms $n" >> $S
  s=$(date +%s%N); $D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/a > /dev/null; echo "a rg -n >null $(ms $s) ms" >> $S
done
/usr/bin/time -f "%e s %M KB" -o $O/t.txt env GPUGREP_LEAD_BYTES=1G $G -r /dev/shm/a | wc -l >> $S; echo "peak 1G: $(cat $O/t.txt)" >> $S
/usr/bin/time -f "%e s %M KB" -o $O/t.txt $G -r /dev/shm/a | wc -l >> $S; echo "peak 64M: $(cat $O/t.txt)" >> $S
$D/gpugrep --engine gpu -j16 --stats -r -n -F -f $W /dev/shm/a 2> $O/stats-gpu-n-a.txt | wc -l >> $S
rm -rf /dev/shm/a
python3 benches/gpu/gen-prose.py $D/words /dev/shm/cp 16 256 --no-bom >> $S 2>&1
mkdir -p /dev/shm/c; printf '\xef\xbb\xbf' > /dev/shm/c/big.txt
for f in /dev/shm/cp/d*/f*; do cat $f >> /dev/shm/c/big.txt; rm $f; done
W=/dev/shm/cp.words-1000.txt
$D/gpugrep --engine gpu -j16 --stats -r -n -F -f $W /dev/shm/c 2> $O/stats-gpu-n-c.txt | wc -l >> $S
$D/gpugrep --engine cpu -j16 --stats -r -n -F -f $W /dev/shm/c 2> $O/stats-cpu-n-c.txt | wc -l >> $S
for r in 1 2; do
  s=$(date +%s%N); $D/gpugrep --engine cpu -j16 -n -F -f $W /dev/shm/c > /dev/null; echo "c cpu -n >null $(ms $s) ms" >> $S
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -n -F -f $W /dev/shm/c > /dev/null; echo "c gpu -n >null $(ms $s) ms" >> $S
done
cat $S
