#!/usr/bin/env bash
# session 25, call 2 (5e14c61): (1) -n of 1,000 rules over 16 GiB of logs
# with the ring (GPUGREP_GPU_STAGING) and the printer's bound
# (GPUGREP_LEAD_BYTES) raised: user/system time and faults against -c and
# the CPU engine (issue 17); (2) the everyday matrix at 16 threads
# (issue 15) and bom-lit's peak memory, 5 rounds against rg.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R1=/dev/shm/rules/rules-1000.txt
t() { local name=$1 vars=$2; shift 2; env $vars /usr/bin/time -f "%e s user %U sys %S minflt %R" -o $O/t.txt $D/gpugrep "$@" -j16 -h -E -f $R1 -r $L > /dev/null; echo "$name $(cat $O/t.txt)" >> $S; }
for r in 1 2; do
  t "n-default" GPUGREP_X=1 -n
  t "n-ring4G" GPUGREP_GPU_STAGING=4G -n
  t "n-lead2G" GPUGREP_LEAD_BYTES=2G -n
  t "n-both" "GPUGREP_GPU_STAGING=4G GPUGREP_LEAD_BYTES=2G" -n
  t "c-default" GPUGREP_X=1 -c
done
t "n-cpu" GPUGREP_X=1 -n --engine cpu
env GPUGREP_GPU_STAGING=4G GPUGREP_LEAD_BYTES=2G $D/gpugrep --stats --debug -j16 -h -n -E -f $R1 -r $L 2> $O/stats-n-both.txt > /dev/null
$D/gpugrep --stats --debug -j16 -h -n -E -f $R1 -r $L 2> $O/stats-n-default.txt > /dev/null
rm -rf /dev/shm/rules
cp .dev1/tree.tar.xz $D/ 2>/dev/null
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 380 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
tail -4 $O/everyday-16.txt >> $S
for r in 1 2 3 4 5; do
  for b in new rg; do
    case $b in new) c="$D/gpugrep --engine cpu";; rg) c="$D/rg --no-config -uu -a";; esac
    /usr/bin/time -f "%e s %M KB" -o $O/t.txt $c -j16 -r -n -F kernel $E/bom > /dev/null; echo "bom-lit $b $(cat $O/t.txt)" >> $S
  done
done
cat $S
