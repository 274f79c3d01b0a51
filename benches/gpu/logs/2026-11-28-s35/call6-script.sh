#!/usr/bin/env bash
# session 35, call 6 (16 cores): rule packs under -w with each rule its
# own word regex ("new", 2nd commit) against 57b652d ("head"): 1,000
# rules over 4 GiB of CI logs in 64 files, auto, --engine gpu and cpu,
# 2 rounds; rg -j16 once; the rule-pack tests on the GPU.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
cp $D/gpugrep-new $D/gpugrep
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules
T() { timeout 40 /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2; do
  for o in "-w -c" "-i -w -c"; do
    for b in head new; do
      for e in auto gpu cpu; do
        echo "$o $b $e: $(T $D/gpugrep-$b --engine $e -j16 -h $o -E -f $R/rules-1000.txt -r $L)" >> $S
      done
    done
  done
done
echo "-w -c rg: $(T $D/rg -j16 --no-filename -w -c -f $R/rules-1000.txt $L)" >> $S
echo "-i -w -c rg: $(T $D/rg -j16 --no-filename -i -w -c -f $R/rules-1000.txt $L)" >> $S
timeout 40 $D/gpugrep-new -j16 --stats -h -w -c -E -f $R/rules-1000.txt -r $L 2> $O/stats-w.txt > /dev/null
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=12 timeout 100 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
cat $S
