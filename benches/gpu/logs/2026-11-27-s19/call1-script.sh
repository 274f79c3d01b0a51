#!/usr/bin/env bash
# session 19, call 1: a large file among few searched with -c now split
# (pieces of 256 KiB or 1 MiB, GG_CP) against the session's start (prev,
# 0e84e50) and rg, 5 rounds alternating; then the everyday matrix.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev; W=/dev/shm/wide
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
# The matrix's corpora (its first run writes them) and 4 GiB in 16 logs.
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 1 --timeout 5 --no-grep --only '^big-c$' > $O/gen.txt 2>&1
$D/gpugrep-corpus --kind logs --out $W --size 4G --files 16 >> $O/gen.txt 2>&1
ls -l $E/big/000 $W/* >> $O/gen.txt 2>&1
t() { # label tool args...
  local l=$1 tool=$2; shift 2
  /usr/bin/time -f "$tool|$l|%e|%M|%U|%S" "$@" > $O/out-$tool-$l.txt 2>> $O/time.txt
}
for r in 1 2 3 4 5; do
  for tool in prev new256 new1m rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r";;
      new256) G="env GG_CP=262144 $D/gpugrep --engine cpu -j16 -r";;
      new1m) G="env GG_CP=1048576 $D/gpugrep --engine cpu -j16 -r";;
      rg) G="$D/rg -j16";;
    esac
    t big-c $tool $G -c -F INFO $E/big
    t big-cm $tool $G --count-matches -F INFO $E/big
    t big-vc $tool $G -v -c -F INFO $E/big
    t big-c-err $tool $G -c -F ERROR $E/big
    t wide-c $tool $G -c -F INFO $W
    t wide-c-err $tool $G -c -F ERROR $W
    t bom-lit $tool $G -n -F kernel $E/bom
    t bom-i-utf8 $tool $G -c -i josé $E/bom
    t big-n-sparse $tool $G -n -F ERROR $E/big
  done
done
for f in $O/out-new256-*.txt; do l=${f#$O/out-new256-}; for tool in prev new1m; do cmp -s <(sort $f) <(sort $O/out-$tool-$l) || echo "DIFF $tool $l"; done; done > $O/check.txt
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-24s %.3f s (%.3f-%.3f) %.0f KB\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k]}' $O/time.txt | sort > $O/summary.txt
cat $O/summary.txt $O/check.txt
rm -f $O/out-*
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 330 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
