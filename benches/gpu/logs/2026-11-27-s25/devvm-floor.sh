#!/bin/bash
E=/dev/shm/ev; RG=/work/main/.tools/bin/rg
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for r in $(seq 10); do
  for b in old new rg; do
    case $b in old) g="/tmp/gpugrep-5e14c61 --engine cpu -j2 -r";; new) g="/work/main/target/release/gpugrep --engine cpu -j2 -r";; rg) g="$RG --no-config -uu -a -j2";; esac
    s=$(date +%s%N); $g -C2 -F 'BUG_ON(!' $E/tree > /dev/null; echo "tree-ctx $b $(ms $s)"
    s=$(date +%s%N); $g -c -i todo $E/tree > /dev/null; echo "tree-i-ascii $b $(ms $s)"
    s=$(date +%s%N); $g -l -F 'spin_lock(' $E/tree > /dev/null; echo "tree-l $b $(ms $s)"
    s=$(date +%s%N); $g -c -E '\b[0-9a-f]{40}\b' $E/many > /dev/null; echo "many-hash-b $b $(ms $s)"
  done
done
