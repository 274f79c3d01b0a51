#!/usr/bin/env bash
# session 35, call 2 (16 cores): a rule pack under -i with its literals
# from the rules parsed without -i ("new") against 57b652d ("head"):
# compile alone, -c -i over 4 GiB of CI logs in 64 files (auto and the
# CPU engine, rg -j16), the rule-pack tests on the GPU; then the cliff
# hunt (benches/gpu/cliffs.sh) of 1,000 rules over the same logs.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules; : > /dev/shm/empty
T() { /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "$(cat $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2 3; do
  for n in 1000 10000; do
    for b in head new; do
      echo "compile $n $b -i: $(T $D/gpugrep-$b -c -i -E -f $R/rules-$n.txt /dev/shm/empty)" >> $S
      echo "compile $n $b: $(T $D/gpugrep-$b -c -E -f $R/rules-$n.txt /dev/shm/empty)" >> $S
    done
    echo "compile $n rg -i: $(T $D/rg -c -i -f $R/rules-$n.txt /dev/shm/empty)" >> $S
  done
done
for r in 1 2; do
  for b in head new; do
    echo "4G -c -i 1000 $b auto: $(T $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-1000.txt -r $L)" >> $S
    echo "4G -c -i 1000 $b cpu: $(T $D/gpugrep-$b --engine cpu -j16 -h -c -i -E -f $R/rules-1000.txt -r $L)" >> $S
  done
  echo "4G -c -i 1000 rg: $(T $D/rg -j16 --no-filename -c -i -f $R/rules-1000.txt $L)" >> $S
done
for b in head new; do
  echo "4G -c -i 10000 $b auto: $(T $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-10000.txt -r $L)" >> $S
done
$D/gpugrep-new -j16 --stats -h -c -i -E -f $R/rules-1000.txt -r $L 2> $O/stats-i-1000.txt > /dev/null
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep-new GPUGREP_RULE_PACK_CASES=24 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
ln -sf $D/gpugrep-new $D/gpugrep
D=$D OUT=$O TIMEOUT=40 bash benches/gpu/cliffs.sh rules1000 $L $R/rules-1000.txt '-c|-l|-o|-v -c|-i -c|-w -c|-n -i|-x -c|-L|-C1|--count-matches|-i -w -n' > $O/cliffs.txt 2>&1
cat $S $O/cliffs.txt
