#!/usr/bin/env bash
# session 20, call 4: the cases at rg's floor (many small files, the tree),
# 10 rounds alternating with rg at 16 threads (63d082a); -j1 over a tree
# searched as it is walked against prev (d57e446, listed first) and rg -j1.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev; P=$PWD/benches/patterns
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1; grep -m1 'model name' /proc/cpuinfo >> $O/machine.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 1 --timeout 5 --no-grep --only '^(many-n|tree-n|bom-lit)$' > $O/gen.txt 2>&1
t() { # label tool args...
  local l=$1 tool=$2; shift 2
  /usr/bin/time -f "$tool|$l|%e|%M|%U|%S" "$@" > $O/out-$tool-$l.txt 2>> $O/time.txt
}
for r in $(seq 10); do
  for tool in new rg; do
    case $tool in
      new) G="$D/gpugrep --engine cpu -j16 -r"; X=-E; F="-E -f";;
      rg) G="$D/rg -j16"; X=-e; F=-f;;
    esac
    t many-i-ascii $tool $G -c -i 'connection timeout' $E/many
    t many-lit-rare $tool $G -n -F 'error[E0659]' $E/many
    t many-n $tool $G -n FATAL $E/many
    t tree-i-ascii $tool $G -c -i todo $E/tree
    t tree-i-utf8 $tool $G -c -i 'müller' $E/tree
    t tree-re-inner $tool $G -c $X '\w+_t\b' $E/tree
    t tree-alt100 $tool $G -c $F $P/alt100-c.txt $E/tree
    t tree-ipv4 $tool $G -c $X '([0-9]{1,3}\.){3}[0-9]{1,3}' $E/tree
    t bom-lit $tool $G -n -F kernel $E/bom
  done
done
for r in 1 2 3; do
  for tool in prev new rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j1 -r";;
      new) G="$D/gpugrep --engine cpu -j1 -r";;
      rg) G="$D/rg -j1";;
    esac
    t j1-many-c $tool $G -c ERROR $E/many
    t j1-tree-n $tool $G -n kernel $E/tree
    t j1-bom-c $tool $G -c kernel $E/bom
  done
done
for f in $O/out-new-*.txt; do l=${f#$O/out-new-}; cmp -s <(sort $f | grep -v ':0$') <(sort $O/out-rg-$l) || echo "DIFF rg $l"; [ -e $O/out-prev-$l ] && { cmp -s $f $O/out-prev-$l || echo "DIFF prev $l"; }; done > $O/check.txt
rm -f $O/out-*
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-24s %.4f s (%.3f-%.3f) %.0f KB n=%d\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k], n[k]}' $O/time.txt | sort > $O/summary-times.txt
cat $O/summary-times.txt $O/check.txt
