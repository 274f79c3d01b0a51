#!/usr/bin/env bash
# session 24, call 4: auto with a rule pack, the inputs listed beside the
# compile and CUDA opened once they hold 1 GiB (new: the working tree after
# df808d3) against df808d3 (prev); --engine gpu beside it. 16 GiB of logs
# (64 files), 1,000 and 10,000 rules, -c and -n, 3 rounds alternating; a
# pack auto keeps on the CPU (-i) over 1 GiB, where the early open is
# wasted; md5 new = prev.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
L=/dev/shm/rules/logs-16G
mkdir -p /dev/shm/rules/logs-1G && cp $(find $L -name '*.log' | sort | head -4) /dev/shm/rules/logs-1G/
for r in 1 2 3; do
  for b in prev new; do
    for n in 1000 10000; do
      R=/dev/shm/rules/rules-$n.txt
      s=$(date +%s%N); gg $b -j16 -h -c -E -f $R -r $L > $O/c-$b-$n.txt; echo "$n auto -c $b $(ms $s) ms" >> $S
      s=$(date +%s%N); gg $b --engine gpu -j16 -h -c -E -f $R -r $L > /dev/null; echo "$n gpu -c $b $(ms $s) ms" >> $S
    done
    R=/dev/shm/rules/rules-1000.txt
    s=$(date +%s%N); gg $b -j16 -h -n -E -f $R -r $L > /dev/null; echo "1000 auto -n $b $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b -j16 -h -c -i -E -f $R -r /dev/shm/rules/logs-1G > $O/i-$b.txt; echo "1000 auto -i -c 1G $b $(ms $s) ms" >> $S
  done
done
for n in 1000 10000; do echo "md5 $n prev $(md5sum < $O/c-prev-$n.txt) new $(md5sum < $O/c-new-$n.txt)" >> $S; done
echo "md5 -i prev $(md5sum < $O/i-prev.txt) new $(md5sum < $O/i-new.txt)" >> $S
$D/gpugrep --debug --stats -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null 2> $O/debug-new-1000.txt
$D/gpugrep-prev --debug --stats -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null 2> $O/debug-prev-1000.txt
$D/gpugrep --debug -j16 -h -c -i -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/rules/logs-1G > /dev/null 2> $O/debug-new-i.txt
rm -f $O/c-*.txt
cat $S
