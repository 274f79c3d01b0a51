#!/usr/bin/env bash
# session 57, call 1: session 56's regression test on the GPU; a pure
# automaton pack's -n over 256 MiB chunks against the CPU; a scratch build
# (gg-diag: split.rs checks each tile's count against its bitmap words
# after the confirm and automaton kernels, recount off) to find which
# kernel's counts disagree.
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
echo "data after $SECONDS s; truth 10165068 (s56 call 6)" >> $S
export GPUGREP_BIN=$G
timeout 250 $D/t/gpu_rule_split --test-threads 1 > $O/test-gpu_rule_split.txt 2>&1
echo "gpu_rule_split rc $? after $SECONDS s: $(grep -h "test result" $O/test-gpu_rule_split.txt)" >> $S
grep -h "printed_lines_match" $O/test-gpu_rule_split.txt >> $S
# scratch diagnostic, recount off
for c in 256M 64M 16M; do
  for i in 1 2; do
    GPUGREP_DIAG_COUNTS=1 GPUGREP_DIAG_NORECOUNT=1 GPUGREP_GPU_CHUNK=$c $D/gg-diag --engine gpu -j16 -h -n -E -f $R -r $B 2> $X/diag.txt | wc -l > $X/wc
    echo "diag $c run $i: lines $(cat $X/wc); $(grep -c 'DIAGSUM confirm.*bad=0 ' $X/diag.txt) confirm launches clean, $(grep -c 'DIAGSUM confirm' $X/diag.txt) in all; automaton clean $(grep -c 'DIAGSUM automaton.*bad=0 ' $X/diag.txt) of $(grep -c 'DIAGSUM automaton' $X/diag.txt)" >> $S
    grep -v 'bad=0 ' $X/diag.txt | head -40 > $O/diag-$c-$i.txt
  done
done
# pure automaton pack, -n, against the CPU
cpu=$($G --engine cpu -j16 -h -n -E -f $D/auto3.txt -r $B | tee >(wc -l > $X/wc) | md5sum | cut -c1-8); sleep 1
echo "auto3 cpu: $cpu $(cat $X/wc)" >> $S
for c in 256M 64M; do for i in 1 2 3; do
  g=$(GPUGREP_GPU_CHUNK=$c $G --engine gpu -j16 -h -n -E -f $D/auto3.txt -r $B | tee >(wc -l > $X/wc) | md5sum | cut -c1-8); sleep 1
  echo "auto3 gpu $c run $i: $g $(cat $X/wc)" >> $S
done; done
GPUGREP_GPU_CHUNK=256M $G --engine gpu --stats -j16 -h -c -E -f $D/auto3.txt -r $B 2>&1 | tail -4 >> $S
echo "all done after $SECONDS s" >> $S
cat $S
