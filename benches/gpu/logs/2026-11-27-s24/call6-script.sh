#!/usr/bin/env bash
# session 24, call 6: auto's open beside the compile (new, 5e607c5) against
# df808d3 (prev) on issue 16's rows: 16 GiB of BOM + CRLF prose in 20,000
# files, 1,000 and 10,000 real words, -c, -n, -w -c, -i -c, -v -c,
# --count-matches, 2 rounds alternating (gpu beside -c); and 1.2 GiB of it
# (1,500 files), where the CPU engine is close to CUDA's start.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/a 16 20000 >> $S 2>&1
A=/dev/shm/a
for n in 1000 10000; do
  W=/dev/shm/a.words-$n.txt
  for r in 1 2; do
    for b in prev new; do
      for o in "-c" "-n" "-w -c" "-i -c" "-v -c" "--count-matches"; do
        s=$(date +%s%N); timeout 60 $( [ $b = prev ] && echo $D/gpugrep-prev || echo $D/gpugrep ) -j16 -r $o -F -f $W $A > $O/out.txt 2>/dev/null; t=$(ms $s)
        echo "$n auto '$o' $b $t ms $(md5sum < $O/out.txt | cut -c1-8)" >> $S
      done
    done
    s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -r -c -F -f $W $A > /dev/null; echo "$n gpu '-c' $(ms $s) ms" >> $S
  done
done
mkdir -p /dev/shm/c && cp -r $(ls -d $A/* | head -2) /dev/shm/c/ && du -sb /dev/shm/c >> $S
W=/dev/shm/a.words-1000.txt
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); gg $b -j16 -r -c -F -f $W /dev/shm/c > /dev/null; echo "1.2G 1000 auto -c $b $(ms $s) ms" >> $S
  done
  s=$(date +%s%N); $D/gpugrep --engine cpu -j16 -r -c -F -f $W /dev/shm/c > /dev/null; echo "1.2G 1000 cpu -c $(ms $s) ms" >> $S
done
$D/gpugrep --debug -j16 -r -c -F -f $W /dev/shm/c 2> $O/debug-1.2G.txt > /dev/null
rm -f $O/out.txt
cat $S
