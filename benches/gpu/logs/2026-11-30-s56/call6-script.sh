#!/usr/bin/env bash
# session 56, call 6: which setting makes -n of the templates over large
# files (8 of loghub's 256 MiB files, 2 GiB) print other lines from run to
# run (calls 5 and the probes after it: 16 GiB -n printed 30-60 lines
# fewer or more than -c counts, differently each run; -j1 and
# GPUGREP_GPU_LANES=1 printed the right ones). Line counts of each run.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
B=/dev/shm/big8; mkdir -p $B
for f in $(ls $W/loghub-16G | grep -E 'Proxifier|Linux' | head -8); do cp $W/loghub-16G/$f $B/; done
R=$W/rules-templates.txt
G=$D/gpugrep
echo "truth -c: $($G --engine cpu -j16 -h -c -E -f $R -r $B | awk '{s+=$1} END {print s}') after $SECONDS s" >> $S
n() { # label env... -- args
  local l=$1; shift
  echo "$l: $(env "$@" -h -n -r $B | wc -l)" >> $S
}
for i in 1 2; do
  n "gpu -n" $G --engine gpu -j16 -E -f $R
  n "gpu -n chunk 256M" GPUGREP_GPU_CHUNK=256M $G --engine gpu -j16 -E -f $R
  n "gpu -n chunk 16M" GPUGREP_GPU_CHUNK=16M $G --engine gpu -j16 -E -f $R
  n "gpu -n spin" GPUGREP_GPU_SYNC=spin $G --engine gpu -j16 -E -f $R
  n "gpu -n -j4" $G --engine gpu -j4 -E -f $R
  n "gpu -n lanes 4" GPUGREP_GPU_LANES=4 $G --engine gpu -j16 -E -f $R
  n "gpu -n split 1G" GPUGREP_SPLIT_MIN=1G $G --engine gpu -j16 -E -f $R
  n "gpu -n -F 2 literals" $G --engine gpu -j16 -F -e ' close, ' -e 'open through'
done
n "cpu -n -F 2 literals" $G --engine cpu -j16 -F -e ' close, ' -e 'open through'
$G --stats --engine gpu -j16 -h -n -E -f $R -r $B 2>&1 >/dev/null | tail -9 >> $S
echo "all done after $SECONDS s" >> $S
cat $S
