#!/usr/bin/env bash
# session 30, call 4 (H100 host, call 3's builds): (a) issue 16's main
# shape, 16 GiB of prose in 20,000 files (BOM, CRLF), -c with 1,000 and
# 10,000 words: old auto / new auto (CUDA opened while listing) / gpu, 3
# rounds alternating (the twenty-fourth session saw auto lose the CPU's
# share when CUDA opened early for literal sets); (b) the one-file row
# never reached: one 16 GiB file (LF, no BOM), 10,000 words -o, gpu,
# auto, cpu into wc -l.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/rw 16 20000 > /dev/null
for n in 1000 10000; do
  for r in 1 2 3; do
    for b in old-auto new-auto new-gpu; do
      bin=$D/gpugrep; [[ $b == old-* ]] && bin=$D/gpugrep-old
      /usr/bin/time -f "%e s %M KB" -o $O/t.txt $bin --engine ${b#*-} -j16 -r -c -F -f /dev/shm/rw.words-$n.txt /dev/shm/rw | awk -F: '{s+=$NF} END {print s}' > $O/n.txt
      echo "20k -c $n $b: $(cat $O/t.txt) total $(cat $O/n.txt)" >> $S
    done
  done
done
$D/gpugrep -j16 --debug -r -c -F -f /dev/shm/rw.words-1000.txt /dev/shm/rw 2>&1 >/dev/null | grep -v "debug: patterns" > $O/new-auto-debug.txt
rm -rf /dev/shm/rw
python3 benches/gpu/gen-prose.py $D/words /dev/shm/one 16 1 --lf --no-bom > /dev/null
for e in gpu auto cpu; do
  /usr/bin/time -f "%e s %M KB" -o $O/t.txt timeout 100 $D/gpugrep --engine $e -j16 -r -o -F -f /dev/shm/one.words-10000.txt /dev/shm/one | wc -l > $O/n.txt
  echo "one file -o 10000 $e: $(cat $O/t.txt) lines $(cat $O/n.txt)" >> $S
done
cat $S $O/new-auto-debug.txt
