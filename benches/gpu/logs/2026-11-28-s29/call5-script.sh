#!/usr/bin/env bash
# session 29, call 5 (H100 host): (a) one 16 GiB file (LF, no BOM), the CPU
# engine's 10,000-word -n into wc -l, old (0245602) against new (the
# front file's writer waits for its parts: `parallel::part`), peak memory
# (call 4: 7.6 GB); (b) 400,000 files of 43 KB, 1,000 words -c: auto
# against --engine gpu, 3 rounds alternating, and auto's --stats.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export LD_LIBRARY_PATH=$D/lib
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/one 16 1 --lf --no-bom > /dev/null
for b in old new old new; do
  /usr/bin/time -f "one file, cpu -n 10000, $b: %e s %M KB" -o $O/t.txt $D/gpugrep-$b --engine cpu -j16 -r -n -F -f /dev/shm/one.words-10000.txt /dev/shm/one | wc -l > $O/n.txt
  echo "$(cat $O/t.txt) lines $(cat $O/n.txt)" >> $S
done
rm -rf /dev/shm/one
python3 benches/gpu/gen-prose.py $D/words /dev/shm/many 16 400000 > /dev/null
for r in 1 2 3; do
  for e in gpu auto; do
    /usr/bin/time -f "400k files -c 1000, $e: %e s %M KB" -o $O/t.txt $D/gpugrep --engine $e -j16 -r -c -F -f /dev/shm/many.words-1000.txt /dev/shm/many | awk -F: '{s+=$NF} END {print s}' > $O/n.txt
    echo "$(cat $O/t.txt) total $(cat $O/n.txt)" >> $S
  done
done
$D/gpugrep -j16 --stats -r -c -F -f /dev/shm/many.words-1000.txt /dev/shm/many > /dev/null 2> $O/auto-stats.txt
cat $S $O/auto-stats.txt
