#!/usr/bin/env bash
# session 23, call 4: issue 16's dense -n of one large file (call 3's
# generator refused one file larger than its 64 MiB pool): 8 GiB of
# BOM/CRLF prose made as 128 files and joined into one (one BOM at its
# start, the others inside lines), -n -F -f 1,000 words into /dev/null,
# prev / new alternating, rg -j16 once; md5 new = prev = cpu.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
python3 benches/gpu/gen-prose.py $D/words /dev/shm/p 8 128 >> $S 2>&1
F=/dev/shm/one.txt; W=/dev/shm/p.words-1000.txt
find /dev/shm/p -type f | sort | xargs cat > $F; rm -rf /dev/shm/p
ls -l $F >> $S
for r in 1 2 3; do
  for b in prev new; do
    s=$(date +%s%N); gg $b --engine gpu -j16 -n -F -f $W $F > /dev/null; echo "one file $b gpu -n >null $(ms $s) ms" >> $S
  done
done
s=$(date +%s%N); $D/gpugrep --engine cpu -j16 -n -F -f $W $F > /dev/null; echo "one file cpu -n >null $(ms $s) ms" >> $S
s=$(date +%s%N); $D/rg --no-config -uu -a -j16 -n -F -f $W $F > /dev/null; echo "one file rg -n >null $(ms $s) ms" >> $S
for b in prev new; do echo "md5 $b $(gg $b --engine gpu -j16 -n -F -f $W $F | md5sum)" >> $S; done
echo "md5 cpu $($D/gpugrep --engine cpu -j16 -n -F -f $W $F | md5sum)" >> $S
$D/gpugrep --engine gpu -j16 --stats -n -F -f $W $F 2> $O/stats-one-new.txt > /dev/null
$D/gpugrep-prev --engine gpu -j16 --stats -n -F -f $W $F 2> $O/stats-one-prev.txt > /dev/null
cat $S
