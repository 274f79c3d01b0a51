#!/usr/bin/env bash
# session 24, call 7: auto's open beside the compile, rule packs only (new:
# the working tree after 5e607c5) against df808d3 (prev): 16 GiB of logs,
# 1,000 and 10,000 rules, -c and -n, 3 rounds alternating, --engine gpu
# beside; md5 new = prev; the GPU suites that start or feed the pipeline.
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
for r in 1 2 3; do
  for b in prev new; do
    for n in 1000 10000; do
      R=/dev/shm/rules/rules-$n.txt
      s=$(date +%s%N); gg $b -j16 -h -c -E -f $R -r $L > $O/c-$b-$n.txt; echo "$n auto -c $b $(ms $s) ms" >> $S
    done
    R=/dev/shm/rules/rules-1000.txt
    s=$(date +%s%N); gg $b -j16 -h -n -E -f $R -r $L > /dev/null; echo "1000 auto -n $b $(ms $s) ms" >> $S
  done
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -h -c -E -f $R -r $L > /dev/null; echo "1000 gpu -c $(ms $s) ms" >> $S
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -h -n -E -f $R -r $L > /dev/null; echo "1000 gpu -n $(ms $s) ms" >> $S
done
for n in 1000 10000; do echo "md5 $n prev $(md5sum < $O/c-prev-$n.txt | cut -c1-8) new $(md5sum < $O/c-new-$n.txt | cut -c1-8)" >> $S; done
echo "md5 -n 1000 prev $($D/gpugrep-prev -j16 -h -n -E -f $R -r $L | md5sum | cut -c1-8) new $($D/gpugrep -j16 -h -n -E -f $R -r $L | md5sum | cut -c1-8)" >> $S
rm -f $O/c-*.txt; rm -rf /dev/shm/rules/logs-16G
export GPUGREP_BIN=$D/gpugrep
for t in gpu_start gpu_end_to_end gpu_rule_split; do
  timeout 110 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
cat $S
