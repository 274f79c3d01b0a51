#!/usr/bin/env bash
# session 20, call 3: shift-or windows in blocks, each distinct set tested once per 32 bytes
# (ca60914) against prev (d57e446) and rg, 5 rounds alternating on the
# regexes without a literal; then the everyday matrix at 16 threads.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1; grep -m1 'model name' /proc/cpuinfo >> $O/machine.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 1 --timeout 5 --no-grep --only '^big-c$' > $O/gen.txt 2>&1
t() { # label tool args...
  local l=$1 tool=$2; shift 2
  /usr/bin/time -f "$tool|$l|%e|%M|%U|%S" "$@" > $O/out-$tool-$l.txt 2>> $O/time.txt
}
IP='([0-9]{1,3}\.){3}[0-9]{1,3}'; H='[0-9a-f]{40}'; HB='\b[0-9a-f]{40}\b'; EM='\w+@\w+\.\w+'
for r in 1 2 3 4 5; do
  for tool in prev new rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r"; X=-E;;
      new) G="$D/gpugrep --engine cpu -j16 -r"; X=-E;;
      rg) G="$D/rg -j16"; X=-e;;
    esac
    t tree-ipv4 $tool $G -c $X "$IP" $E/tree
    t tree-hash $tool $G -c $X "$H" $E/tree
    t tree-email $tool $G -c $X "$EM" $E/tree
    t many-ipv4 $tool $G -c $X "$IP" $E/many
    t many-hash-b $tool $G -c $X "$HB" $E/many
    t bom-email $tool $G -c $X "$EM" $E/bom
    if [ $tool != rg ] || [ $r = 1 ]; then
      t logs-ipv4 $tool $G -c $X "$IP" $E/logs
      t logs-hash $tool $G -c $X "$H" $E/logs
    fi
  done
done
for f in $O/out-new-*.txt; do l=${f#$O/out-new-}; cmp -s <(sort $f) <(sort $O/out-prev-$l) || echo "DIFF prev $l"; cmp -s <(sort $f | grep -v ':0$') <(sort $O/out-rg-$l) || echo "DIFF rg $l"; done > $O/check.txt
rm -f $O/out-*
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-24s %.3f s (%.3f-%.3f) %.0f KB n=%d\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k], n[k]}' $O/time.txt | sort > $O/summary-times.txt
cat $O/summary-times.txt $O/check.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 300 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
