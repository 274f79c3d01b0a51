#!/usr/bin/env bash
# session 56, call 8: the tiles' counts taken from the bitmap again after
# a split pack's automaton kernel merged its marks (compact.cu `recount`):
# call 6-7's -n over 8 large files, 64 MiB and 256 MiB chunks, and the
# 16 GiB -n (lines against -c's count, md5 across runs); gpu_rule_split,
# gpu_differential, memcheck.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
B=/dev/shm/big8; mkdir -p $B
for f in $(ls $W/loghub-16G | grep -E 'Proxifier|Linux' | head -8); do cp $W/loghub-16G/$f $B/; done
R=$W/rules-templates.txt
G=$D/gpugrep
echo "data after $SECONDS s; truth 10165068 (call 6)" >> $S
n() { local l=$1; shift; echo "$l: $(env "$@" -h -n -r $B | wc -l)" >> $S; }
for i in 1 2 3; do
  n "big8 -n gpu" $G --engine gpu -j16 -E -f $R
  n "big8 -n gpu chunk 256M" GPUGREP_GPU_CHUNK=256M $G --engine gpu -j16 -E -f $R
done
for i in 1 2; do
  echo "16G -n auto: $($G -j16 -h -n -E -f $R -r $W/loghub-16G | tee >(wc -l > $X/wc) | md5sum | cut -c1-8) $(sleep 1; cat $X/wc) (-c: 125587472)" >> $S
done
export GPUGREP_BIN=$G
for t in gpu_rule_split gpu_differential; do
  timeout 200 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
f=$(ls $W/loghub-16G | head -1); head -c 4M $W/loghub-16G/$f > $X/small.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $G --engine gpu -n -E -f $R $X/small.log > $X/san.txt 2>&1
echo "memcheck templates -n rc $? $(tail -1 $X/san.txt)" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
