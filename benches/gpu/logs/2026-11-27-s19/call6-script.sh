#!/usr/bin/env bash
# session 19, call 6: more large files than threads (16 GiB in 64 logs, the
# thirteenth session's shape, where splitting -c had been slower): -c
# split in 256 KiB pieces (this session) against prev (not split) and rg,
# 3 rounds alternating.
set -u
O=$OUT; D=$PWD/.dev; L=/dev/shm/logs16
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
( time $D/gpugrep-corpus --kind logs --out $L --size 16G --files 64 ) > $O/gen.txt 2>&1
for r in 1 2 3; do
  for tool in prev new rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r";;
      new) G="$D/gpugrep --engine cpu -j16 -r";;
      rg) G="$D/rg -j16";;
    esac
    for p in INFO ERROR; do
      /usr/bin/time -f "$tool|-c $p|%e|%M|%U|%S" $G -c -F $p $L > $O/out-$tool-$p.txt 2>> $O/time.txt
    done
  done
done
for p in INFO ERROR; do cmp -s <(sort $O/out-new-$p.txt) <(sort $O/out-prev-$p.txt) || echo "DIFF $p"; done > $O/check.txt
rm -f $O/out-*
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; u[k]+=$5; y[k]+=$6; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-16s %.3f s (%.3f-%.3f) %.0f KB user %.2f sys %.2f\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k], u[k]/n[k], y[k]/n[k]}' $O/time.txt | sort | tee $O/summary.txt
cat $O/check.txt
