#!/usr/bin/env bash
# session 47, call 8: the session's last build (cb116f9's code) on the real
# GPU: gpu_automaton, gpu_end_to_end, gpu_rule_split (the exit now leaves
# through _exit while a thread is inside the driver: outputs must be whole).
set -u
O=$OUT; D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
for t in gpu_automaton gpu_end_to_end gpu_rule_split; do
  timeout 90 $D/$t --test-threads=8 --nocapture > $O/$t.txt 2>&1
  echo "$t: rc $? $(grep -h 'test result' $O/$t.txt | tr '\n' ' ') $(grep -hE 'cases|mismatches|skipped' $O/$t.txt | tr '\n' ' ' | head -c 400)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
