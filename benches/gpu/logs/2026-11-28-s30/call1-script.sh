#!/usr/bin/env bash
# session 30, call 1 (H100 host): (a) the build's GPU tests (gpu_end_to_end,
# split_file); (b) 400,000 files of 43 KB (BOM, CRLF), -c with 1,000 and
# 10,000 words: auto of the old build (b3bace4, CUDA opened after the
# listing) against auto of the new (CUDA opened while listing, once the
# files found hold 4 rings) and --engine gpu, 3 rounds alternating; the
# new auto's --debug/--stats; (c) issue 16's rows not run before:
# 400,000 files -n (gpu, auto, cpu, rg); one 16 GiB file (LF, no BOM)
# -w -c, -i -c, -v -c, -o (gpu, auto, cpu; rg took 67 s on its -c row).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
timeout 150 $D/gpu_end_to_end --test-threads=12 > $O/e2e.txt 2>&1; echo "rc $?" >> $O/e2e.txt
timeout 60 $D/split_file --test-threads=8 > $O/split.txt 2>&1; echo "rc $?" >> $O/split.txt
grep -h "test result\|rc \|FAILED\|panicked" $O/e2e.txt $O/split.txt >> $S
unset GPUGREP_BIN
t0=$(date +%s)
python3 benches/gpu/gen-prose.py $D/words /dev/shm/many 16 400000 > /dev/null
echo "400k corpus written in $(( $(date +%s) - t0 )) s" >> $S
for n in 1000 10000; do
  for r in 1 2 3; do
    for b in old-auto new-auto new-gpu; do
      bin=$D/gpugrep; [[ $b == old-* ]] && bin=$D/gpugrep-old
      e=${b#*-}
      /usr/bin/time -f "%e s %M KB" -o $O/t.txt $bin --engine $e -j16 -r -c -F -f /dev/shm/many.words-$n.txt /dev/shm/many | awk -F: '{s+=$NF} END {print s}' > $O/n.txt
      echo "400k -c $n $b: $(cat $O/t.txt) total $(cat $O/n.txt)" >> $S
    done
  done
done
$D/gpugrep -j16 --debug --stats -r -c -F -f /dev/shm/many.words-1000.txt /dev/shm/many > /dev/null 2> $O/new-auto-stats.txt
$D/gpugrep-old -j16 --debug --stats -r -c -F -f /dev/shm/many.words-1000.txt /dev/shm/many > /dev/null 2> $O/old-auto-stats.txt
mkdir -p $O/many
OUT=$O/many D=$D SETS="1000 10000" CASES="-n" TOOLS="gpu auto rg" C=/dev/shm/many \
  timeout 170 bash benches/gpu/realworld.sh > $O/many/table.txt 2>&1
echo "many rc $?" >> $O/many/table.txt
rm -rf /dev/shm/many
mkdir -p $O/one
OUT=$O/one D=$D SETS="1000 10000" CASES="-w -c|-i -c|-v -c|-o" TOOLS="gpu auto" SIZE_GIB=16 FILES=1 GEN_FLAGS="--lf --no-bom" \
  C=/dev/shm/one timeout 180 bash benches/gpu/realworld.sh > $O/one/table.txt 2>&1
echo "one rc $?" >> $O/one/table.txt
cat $S $O/many/table.txt $O/one/table.txt
grep -h "engine\|listed\|ready after\|seconds$" $O/new-auto-stats.txt $O/old-auto-stats.txt
