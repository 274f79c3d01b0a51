#!/usr/bin/env bash
# session 35, call 3 (16 cores): call 2 again after the fix (rules whose
# windows were too short take the walk of the -i rule, so the pack stays
# on the multi kernel): compile alone, -c -i of 1,000 and 10,000 rules
# over 4 GiB of CI logs in 64 files, head (57b652d) against new; the
# rule-pack tests on the GPU; each command under a 60 s limit.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules; : > /dev/shm/empty
T() { timeout 60 /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2; do
  for n in 1000 10000; do
    echo "compile $n new -i: $(T $D/gpugrep-new -c -i -E -f $R/rules-$n.txt /dev/shm/empty)" >> $S
    echo "compile $n new auto -i: $(T $D/gpugrep-new -j16 -c -i -E -f $R/rules-$n.txt /dev/shm/empty)" >> $S
  done
done
for r in 1 2; do
  for b in head new; do
    echo "4G -c -i 1000 $b auto: $(T $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-1000.txt -r $L)" >> $S
    echo "4G -c -i 10000 $b auto: $(T $D/gpugrep-$b -j16 -h -c -i -E -f $R/rules-10000.txt -r $L)" >> $S
  done
done
echo "4G -c -i 1000 new cpu: $(T $D/gpugrep-new --engine cpu -j16 -h -c -i -E -f $R/rules-1000.txt -r $L)" >> $S
echo "4G -c 1000 new auto (no -i): $(T $D/gpugrep-new -j16 -h -c -E -f $R/rules-1000.txt -r $L)" >> $S
echo "4G -c 1000 head auto (no -i): $(T $D/gpugrep-head -j16 -h -c -E -f $R/rules-1000.txt -r $L)" >> $S
timeout 60 $D/gpugrep-new -j16 --stats -h -c -i -E -f $R/rules-1000.txt -r $L 2> $O/stats-i-1000.txt > /dev/null
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep-new GPUGREP_RULE_PACK_CASES=12 timeout 150 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
cat $S
