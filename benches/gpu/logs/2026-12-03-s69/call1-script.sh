#!/usr/bin/env bash
# session 69, call 1: peak memory and time of dense output at 16 threads
# against the byte bound on output waiting to be printed
# (GPUGREP_LEAD_BYTES: 64M, the default, then 24M, 12M, 6M) and rg -j16,
# 5 rounds alternating, build 73ec6e9.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
row() { # name, rounds, gpugrep args, rg args
  local name=$1 n=$2 ga=$3 ra=$4
  echo "== $name" >> $S
  timeout 90 python3 benches/cpu-time.py --rounds $n \
    l64="$G --engine cpu -j16 $ga" \
    l24="GPUGREP_LEAD_BYTES=24M $G --engine cpu -j16 $ga" \
    l12="GPUGREP_LEAD_BYTES=12M $G --engine cpu -j16 $ga" \
    l6="GPUGREP_LEAD_BYTES=6M $G --engine cpu -j16 $ga" \
    rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
}
row "tree -v -n '^\\s'" 5 "-r -v -n -E '^\\s' --exclude='*.gif' $E/tree" "-v -n '^\\s' -g '!*.gif' $E/tree"
row "tree -n -F struct" 5 "-r -n -F struct $E/tree" "-n -F struct $E/tree"
row "bom -n -w the" 5 "-r -n -w the $E/bom" "-n -w the $E/bom"
row "tree -n '\\w+_t\\b'" 5 "-r -n -E '\\w+_t\\b' $E/tree" "-n '\\w+_t\\b' $E/tree"
row "many -n ERROR" 5 "-r -n ERROR $E/many" "-n ERROR $E/many"
row "tree -n -i e" 3 "-r -n -i e $E/tree" "-n -i e $E/tree"
row "big -n ERROR" 3 "-r -n ERROR $E/big" "-n ERROR $E/big"
row "logs -n -i error" 5 "-r -n -i error $E/logs" "-n -i error $E/logs"
echo "done after $SECONDS s" >> $S
cat $S
