#!/usr/bin/env bash
# session 30, call 3 (H100 host): the GPU's map of a file too large for a
# chunk released piece by piece (`search::Preloaded::map`), old (b3bace4)
# against new, 2 rounds alternating: (a) one 16 GiB file (LF, no BOM),
# 1,000 words, --engine gpu -o and -n into wc -l (call 1: -o peaked at
# 17.5 GB); (b) issue 17's -n: 16 GiB of CI logs in 64 files of 256 MiB
# (each larger than a chunk), 1,000 rules, -h -n into /dev/null, auto and
# gpu; (c) the build's GPU tests.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/one 16 1 --lf --no-bom > /dev/null
W=/dev/shm/one.words-1000.txt
for o in -o -n; do
  for r in 1 2; do
    for b in old new; do
      bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
      /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt $bin --engine gpu -j16 -r $o -F -f $W /dev/shm/one | wc -l > $O/n.txt
      echo "one file gpu $o 1000 $b: $(cat $O/t.txt) lines $(cat $O/n.txt)" >> $S
    done
  done
done
/usr/bin/time -f "%e s %M KB" -o $O/t.txt $D/gpugrep --engine cpu -j16 -r -o -F -f $W /dev/shm/one | wc -l > $O/n.txt
echo "one file cpu -o 1000: $(cat $O/t.txt) lines $(cat $O/n.txt)" >> $S
rm -rf /dev/shm/one
t0=$(date +%s)
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
echo "logs written in $(( $(date +%s) - t0 )) s" >> $S
R=/dev/shm/rules/rules-1000.txt
for e in auto gpu; do
  for r in 1 2; do
    for b in old new; do
      bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
      /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt $bin --engine $e -j16 -h -n -E -f $R -r /dev/shm/logs > /dev/null
      echo "logs $e -n 1000 rules $b: $(cat $O/t.txt)" >> $S
    done
  done
done
for b in old new; do
  bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
  $bin -j16 -h -n -E -f $R -r /dev/shm/logs | md5sum | sed "s/^/md5 $b /" >> $S
done
rm -rf /dev/shm/logs
export GPUGREP_BIN=$D/gpugrep
timeout 150 $D/gpu_end_to_end --test-threads=12 > $O/e2e.txt 2>&1; echo "rc $?" >> $O/e2e.txt
timeout 60 $D/split_file --test-threads=8 > $O/split.txt 2>&1; echo "rc $?" >> $O/split.txt
timeout 80 $D/gpu_rule_split --test-threads=12 > $O/rule_split.txt 2>&1; echo "rc $?" >> $O/rule_split.txt
grep -h "test result\|rc \|FAILED\|panicked" $O/e2e.txt $O/split.txt $O/rule_split.txt >> $S
cat $S
