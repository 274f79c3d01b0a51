#!/usr/bin/env bash
# session 65, call 2: the line-end finder deciding lines by the reverse
# DFA (dev/gpugrep, 7e1a8cf) against dev/gpugrep-base (fefb3d7) and rg at
# 16 threads, 15 rounds; the option hunt's lowest rows of call 1 beside
# them (unchanged code: how far 16 threads' spread goes).
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s65/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
}
row "bom -c -E '[[:space:]]+\$'" "-r -c -E '[[:space:]]+\$' $E/bom" "-c '[[:space:]]+\$' $E/bom"
row "bom -c -E '\\W+\$'" "-r -c -E '\\W+\$' $E/bom" "-c '\\W+\$' $E/bom"
row "tree -c -E '[[:space:]]+\$'" "-r -c -E '[[:space:]]+\$' --exclude=*.gif $E/tree" "-c '[[:space:]]+\$' -g !*.gif $E/tree"
row "bom -c -x -E '[=-]+'" "-r -c -x -E '[=-]+' $E/bom" "-c -x '[=-]+' $E/bom"
row "tree -c -E '.{200,}'" "-r -c -E '.{200,}' $E/tree" "-c '.{200,}' $E/tree"
row "bom -n -w -i error" "-r -n -w -i error $E/bom" "-n -w -i error $E/bom"
row "tree -C2 BUG_ON" "-r -C2 BUG_ON $E/tree" "-C2 BUG_ON $E/tree"
row "tree -l -F 'spin_lock('" "-r -l -F 'spin_lock(' $E/tree" "-l -F 'spin_lock(' $E/tree"
row "bom -c -E '\\w+@\\w+\\.\\w+'" "-r -c -E '\\w+@\\w+\\.\\w+' $E/bom" "-c '\\w+@\\w+\\.\\w+' $E/bom"
echo "done after $SECONDS s" >> $S
cat $S
