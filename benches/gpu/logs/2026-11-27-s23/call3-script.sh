#!/usr/bin/env bash
# session 23, call 3: split_file and cli_patterns under the GPU engine
# with room (new), and issue 16's dense -n of one large file: 16 GiB of
# BOM/CRLF prose in one file, -n -F -f 1,000 words into /dev/null, prev /
# new alternating, rg -j16 once.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
gg() { local b=$1; shift; if [ $b = prev ]; then $D/gpugrep-prev "$@"; else $D/gpugrep "$@"; fi; }
export GPUGREP_BIN=$D/gpugrep
for t in split_file cli_patterns; do
  GPUGREP_TEST_ENGINE=gpu timeout 170 $D/$t --test-threads=12 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $? $(grep 'test result' $O/suite-gpu-$t.log)" >> $S
done
python3 benches/gpu/gen-prose.py $D/words /dev/shm/one 16 1 >> $S 2>&1
F=$(find /dev/shm/one -type f | head -1); W=/dev/shm/one.words-1000.txt
ls -l $F >> $S
for r in 1 2; do
  for b in prev new; do
    s=$(date +%s%N); gg $b --engine gpu -j16 -n -F -f $W $F > /dev/null; echo "one file $b gpu -n >null $(ms $s) ms" >> $S
    s=$(date +%s%N); gg $b -j16 -n -F -f $W $F > /dev/null; echo "one file $b auto -n >null $(ms $s) ms" >> $S
  done
done
s=$(date +%s%N); $D/rg --no-config -uu -a -j16 -n -F -f $W $F > /dev/null; echo "one file rg -n >null $(ms $s) ms" >> $S
$D/gpugrep --engine gpu -j16 --stats -n -F -f $W $F 2> $O/stats-one-new.txt > /dev/null
$D/gpugrep-prev --engine gpu -j16 --stats -n -F -f $W $F 2> $O/stats-one-prev.txt > /dev/null
cat $S
