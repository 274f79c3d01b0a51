#!/usr/bin/env bash
# session 23, call 7 (new: the working tree after 893a021, mimalloc's
# purge delay 10 ms): the everyday matrix at 16 threads (issue 15: speed
# and peak memory against rg); then the 20,512-file BOM directory's -n,
# new against eed3c70 (prev, purge delay 1 s), peak memory and time, 5
# rounds alternating.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 400 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
tail -4 $O/everyday-16.txt >> $S
for r in 1 2 3 4 5; do
  for b in prev new rg; do
    case $b in prev) c="$D/gpugrep-prev --engine cpu";; new) c="$D/gpugrep --engine cpu";; rg) c="$D/rg --no-config -uu -a";; esac
    /usr/bin/time -f "%e s %M KB" -o $O/t.txt $c -j16 -r -n -F kernel $E/bom > /dev/null; echo "bom-lit $b $(cat $O/t.txt)" >> $S
  done
done
cat $S
