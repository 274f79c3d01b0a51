#!/usr/bin/env bash
# session 62, call 1: a split file's pieces read or mapped by the time each
# way takes (dev/gpugrep) against the fault count alone (dev/gpugrep-base:
# 44b49a4 with the window analysis's ranges set a word at a time) over
# 8 logs of 128 MiB, -j16 and -j2, 9 rounds alternating, with the verdict
# forced each way (GPUGREP_MAP_PAGEWISE=0|1) and rg; --stats' verdicts of
# 5 runs each; then `-c -E '.{200,}'` over the tree, dev/gpugrep against
# dev/gpugrep-head (44b49a4) and rg, 15 rounds.
set -u
source benches/gpu/logs/2026-12-02-s62/setup.sh
B=$D/dev/gpugrep-base; H=$D/dev/gpugrep-head; big=$E/big
for J in 16 2; do
  for o in "-n -F ERROR" "-n -F INFO" "-c -F ERROR"; do
    echo "== $o -j$J" >> $S
    timeout 90 python3 benches/cpu-time.py --rounds 9 new="$G --engine cpu -j$J -r $o $big" \
      base="$B --engine cpu -j$J -r $o $big" \
      map="GPUGREP_MAP_PAGEWISE=0 $G --engine cpu -j$J -r $o $big" \
      read="GPUGREP_MAP_PAGEWISE=1 $G --engine cpu -j$J -r $o $big" \
      rg="$RG --no-config -uu -a -j$J $o $big" >> $S 2>&1
    for i in 1 2 3 4 5; do
      $G --stats --engine cpu -j$J -r $o $big 2>&1 >/dev/null | grep split >> $S
    done
  done
done
echo "== tree-long-lines -j16" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r -c -E '.{200,}' $E/tree" \
  head="$H --engine cpu -j16 -r -c -E '.{200,}' $E/tree" \
  rg="$RG --no-config -uu -a -j16 -c '.{200,}' $E/tree" >> $S 2>&1
echo "done after $SECONDS s" >> $S
cat $S
