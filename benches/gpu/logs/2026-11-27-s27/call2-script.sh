#!/usr/bin/env bash
# session 27, call 2 (H100, nvidia-h100-x1): end to end over 16 GiB of
# prose in 20,000 BOM+CRLF files (realworld.sh): the rows the tally kernel
# answers (-c, -l, -w -c, -v -c, --count-matches) with 1,000 and 10,000
# real words, gpugrep (G + new tally) against rg, Hyperscan and its CPU
# engine; then -c against 8596bd3 ("prev") and the new tally with the D
# kernel ("T").
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
mkdir -p $O/rw
OUT=$O/rw D=$D SETS="10000 1000" CASES="-c|-l|-w -c|-v -c|--count-matches" SIZE_GIB=16 FILES=20000 C=/dev/shm/rw bash benches/gpu/realworld.sh > $O/realworld.txt 2>&1
for f in $O/rw/rw-stats-*; do echo "== $f"; cat $f; done > $O/stats.txt 2>&1; rm -rf $O/rw
t() { local name=$1 b=$2 dir=$3; shift 3
  /usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $D/gpugrep$b -j16 "$@" -r $dir > $O/ans.txt
  echo "$name $b $(cat $O/t.txt) answer $(awk -F: '{s += $NF} END {print s + 0}' $O/ans.txt)" >> $S; }
for r in 1 2; do
  for b in -prev -T ""; do
    for n in 1000 10000; do
      t "prose-$n-gpu" "$b" /dev/shm/rw --engine gpu -c -F -f /dev/shm/rw.words-$n.txt
      t "prose-$n-auto" "$b" /dev/shm/rw -c -F -f /dev/shm/rw.words-$n.txt
    done
  done
done
rm -f $O/t.txt $O/ans.txt
cat $O/realworld.txt >> $S
cat $S
