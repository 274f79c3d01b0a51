#!/usr/bin/env bash
# session 20, call 5: call 4's cases at rg's floor timed in nanoseconds
# (call 4's /usr/bin/time gave 10 ms steps), 15 rounds alternating.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev; P=$PWD/benches/patterns
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1; grep -m1 'model name' /proc/cpuinfo >> $O/machine.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 1 --timeout 5 --no-grep --only '^(many-n|tree-n|bom-lit)$' > $O/gen.txt 2>&1
t() { # label tool args...
  local l=$1 tool=$2; shift 2
  local s=$(date +%s%N)
  "$@" > $O/out-$tool-$l.txt 2>/dev/null
  local e=$(date +%s%N)
  echo "$tool|$l|$(( (e - s) / 1000 ))" >> $O/time.txt
}
for r in $(seq 15); do
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
for f in $O/out-new-*.txt; do l=${f#$O/out-new-}; cmp -s <(sort $f | grep -v ':0$') <(sort $O/out-rg-$l) || echo "DIFF rg $l"; done > $O/check.txt
rm -f $O/out-*
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-24s mean %.1f ms (%.1f-%.1f) n=%d\n", k, s[k]/n[k]/1000, lo[k]/1000, hi[k]/1000, n[k]}' $O/time.txt | sort > $O/summary-times.txt
cat $O/summary-times.txt $O/check.txt
