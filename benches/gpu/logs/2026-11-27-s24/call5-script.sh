#!/usr/bin/env bash
# session 24, call 5: the ring's pin (and with it the CUDA context) dropped
# in a thread of its own once the GPU's part of a run is done, while the
# CPU still prints, and auto's open beside the compile (new: the working
# tree) against df808d3 (prev): -n of 1,000 rules (auto, gpu), -n of two
# dense literals (gpu), -c of an absent literal (gpu), a one-line file
# (gpu), 3 rounds alternating; md5 new = prev.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G; R=/dev/shm/rules/rules-1000.txt
echo "one line INFO" > /dev/shm/tiny
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); gg $b -j16 -h -n -E -f $R -r $L > /dev/null; echo "rules auto -n $b $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null; echo "rules gpu -n $b $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L > /dev/null; echo "lits gpu -n $b $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b --engine gpu -j16 -c -F zzqxzz -r $L > /dev/null; echo "absent gpu -c $b $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b --engine gpu -c -F INFO /dev/shm/tiny > /dev/null; echo "tiny gpu -c $b $(ms $s) ms" >> $S
  done
done
for b in prev new; do echo "rules -n $b md5 $(gg $b -j16 -h -n -E -f $R -r $L | md5sum)" >> $S; done
for b in prev new; do echo "lits gpu -n $b md5 $(gg $b --engine gpu -j16 -h -n -F -e INFO -e WARN -r $L | md5sum)" >> $S; done
$D/gpugrep --engine gpu --debug --stats -j16 -h -n -E -f $R -r $L 2> $O/debug-new-rules-n.txt > /dev/null
cat $S
