#!/usr/bin/env bash
# session 19, call 2: counts among many files split in 256 KiB or 512 KiB
# pieces (GG_CP), a single operand's pieces as before, against prev
# (0e84e50) and rg, 5 rounds alternating; the tree cases that call 1's
# matrix had slower; then the matrix.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev; W=/dev/shm/wide
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 1 --timeout 5 --no-grep --only '^big-c$' > $O/gen.txt 2>&1
$D/gpugrep-corpus --kind logs --out $W --size 4G --files 16 >> $O/gen.txt 2>&1
t() { # label tool args...
  local l=$1 tool=$2; shift 2
  /usr/bin/time -f "$tool|$l|%e|%M|%U|%S" "$@" > $O/out-$tool-$l.txt 2>> $O/time.txt
}
for r in 1 2 3 4 5; do
  for tool in prev new256 new512 rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r";;
      new256) G="env GG_CP=262144 $D/gpugrep --engine cpu -j16 -r";;
      new512) G="env GG_CP=524288 $D/gpugrep --engine cpu -j16 -r";;
      rg) G="$D/rg -j16";;
    esac
    t big-c $tool $G -c -F INFO $E/big
    t big-cm $tool $G --count-matches -F INFO $E/big
    t wide-c $tool $G -c -F INFO $W
    t wide-c-err $tool $G -c -F ERROR $W
    t logs-c $tool $G -c ERROR $E/logs/ci.log
    t logs-v-c $tool $G -v -c INFO $E/logs/ci.log
    t bom-lit $tool $G -n -F kernel $E/bom
  done
done
for f in $O/out-new256-*.txt; do l=${f#$O/out-new256-}; for tool in prev new512; do cmp -s <(sort $f) <(sort $O/out-$tool-$l) || echo "DIFF $tool $l"; done; done > $O/check.txt
rm -f $O/out-*
ms() { local s=$(date +%s%N); "$@" > /dev/null; echo $(( ($(date +%s%N) - s) / 1000 )); }
for r in $(seq 12); do
  for tool in prev new rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r";;
      new) G="$D/gpugrep --engine cpu -j16 -r";;
      rg) G="$D/rg -j16";;
    esac
    echo "$tool tree -c return $(ms $G -c return $E/tree)" >> $O/low.txt
    echo "$tool tree -n -F spin_lock_irqsave(&ctx $(ms $G -n -F 'spin_lock_irqsave(&ctx' $E/tree)" >> $O/low.txt
    echo "$tool tree -c -E ipv4 $(ms $G -c -E '([0-9]{1,3}\.){3}[0-9]{1,3}' $E/tree)" >> $O/low.txt
    echo "$tool tree -C2 -F BUG_ON(! $(ms $G -C2 -F 'BUG_ON(!' $E/tree)" >> $O/low.txt
    echo "$tool bom -c -i josé $(ms $G -c -i 'josé' $E/bom)" >> $O/low.txt
  done
done
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-24s %.3f s (%.3f-%.3f) %.0f KB\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k]}' $O/time.txt | sort > $O/summary.txt
cat $O/summary.txt $O/check.txt
python3 benches/gpu/logs/2026-11-27-s19/medians.py $O/low.txt | tee $O/low-medians.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 280 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
