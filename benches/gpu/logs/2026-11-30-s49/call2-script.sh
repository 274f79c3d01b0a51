#!/usr/bin/env bash
# session 49, call 2: the GPU test suites on c5ead08 (a regex's confirm
# trimmed where only lines count is what the GPU's candidate lines are
# confirmed by): gpu_end_to_end, gpu_differential, gpu_automaton, gpu_start.
set -u
O=$OUT; D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential gpu_automaton gpu_start; do
  timeout 200 $D/$t --test-threads=8 --nocapture > $O/$t.txt 2>&1
  echo "$t: rc $? after $SECONDS s $(grep -h 'test result' $O/$t.txt | tr '\n' ' ') $(grep -hE 'cases|mismatches|skipped' $O/$t.txt | tr '\n' ' ' | head -c 400)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
