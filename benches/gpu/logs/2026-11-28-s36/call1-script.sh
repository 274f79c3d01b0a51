#!/usr/bin/env bash
# session 36, call 1 (16 cores): rule packs under -i with the CPU's literal
# sets ASCII-lowered (fee1e5a) against head (7663097's code): compile
# alone with --debug's phases, -c -i of 1,000 and 10,000 rules over 4 GiB
# of CI logs in 64 files (auto and the CPU engine); the rule-pack tests
# on the GPU; each command under a time limit.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules; : > /dev/shm/empty
T() { local lim=$1; shift; timeout $lim /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2 3; do
  for n in 1000 10000; do
    for i in "" "-i"; do
      for b in head new; do
        echo "compile $n $b auto $i: $(T 60 $D/gpugrep-$b -j16 -c $i -E -f $R/rules-$n.txt /dev/shm/empty)" >> $S
      done
      $D/gpugrep-new --debug -j16 -c $i -E -f $R/rules-$n.txt /dev/shm/empty 2>&1 | grep -o "; compiled.*" | sed "s/^/phases $n $i: /" >> $S
    done
  done
done
echo "rg -i 10000 compile: $(T 60 $D/rg -j16 -c -i -f $R/rules-10000.txt /dev/shm/empty)" >> $S
for r in 1 2; do
  for b in head new; do
    for n in 1000 10000; do
      echo "4G -c -i $n $b auto: $(T 60 $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in head new; do
  echo "4G -c -i 1000 $b cpu: $(T 60 $D/gpugrep-$b --engine cpu -j16 -h -c -i -E -f $R/rules-1000.txt -r $L)" >> $S
done
echo "4G -c -i 10000 new cpu: $(T 120 $D/gpugrep-new --engine cpu -j16 -h -c -i -E -f $R/rules-10000.txt -r $L)" >> $S
echo "4G -c 10000 new auto (no -i): $(T 60 $D/gpugrep-new -j16 -h -c -E -f $R/rules-10000.txt -r $L)" >> $S
echo "4G hsgrep -i 10000: $(T 90 $D/hsgrep -j 16 -i -f $R/rules-10000.txt $L)" >> $S
timeout 60 $D/gpugrep-new -j16 --debug --stats -h -c -i -E -f $R/rules-10000.txt -r $L 2> $O/stats-i-10000.txt > /dev/null
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=12 timeout 150 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
cat $S
