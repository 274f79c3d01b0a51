#!/usr/bin/env bash
# session 66, call 2 (call 1's machine, warm): the option hunt's highest
# peaks against rg's, 15 rounds, f2d9754 against 5a3dac7 and rg.
set -u
source benches/gpu/logs/2026-12-03-s66/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
}
row "tree -n -w int" "-r -n -w int $E/tree" "-n -w int $E/tree"
row "bom -o -w -E '[a-z]+ing'" "-r -o -w -E '[a-z]+ing' $E/bom" "-o -w '[a-z]+ing' $E/bom"
row "tree -c -E '\\bstruct \\w+ \\*\\w+\\b'" "-r -c -E '\\bstruct \\w+ \\*\\w+\\b' $E/tree" "-c '\\bstruct \\w+ \\*\\w+\\b' $E/tree"
echo "done after $SECONDS s" >> $S
cat $S
