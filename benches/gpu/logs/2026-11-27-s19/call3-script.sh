#!/usr/bin/env bash
# session 19, call 3: the session's code (counts split among many files in
# 256 KiB pieces, cuts found as taken, a failed thread stops the printer,
# outputs settled at their length): GPU suites and the split tests under
# the GPU engine; 5 rounds alternating with prev (0e84e50) and rg; the
# everyday matrix at 16 threads.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev; W=/dev/shm/wide
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 150 $D/$t --test-threads=4 > $O/suite-$t.log 2>&1; echo "suite $t $?" >> $O/summary.txt
done
for t in walk_order cli_patterns split_file cli_stats; do
  GPUGREP_TEST_ENGINE=gpu timeout 150 $D/$t --test-threads=4 > $O/suite-gpu-$t.log 2>&1; echo "suite gpu $t $?" >> $O/summary.txt
done
cat $O/summary.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 200 benches/everyday $E --reps 1 --timeout 5 --no-grep --only '^big-c$' > $O/gen.txt 2>&1
$D/gpugrep-corpus --kind logs --out $W --size 4G --files 16 >> $O/gen.txt 2>&1
t() { # label tool args...
  local l=$1 tool=$2; shift 2
  /usr/bin/time -f "$tool|$l|%e|%M|%U|%S" "$@" > $O/out-$tool-$l.txt 2>> $O/time.txt
}
for r in 1 2 3 4 5; do
  for tool in prev new rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r";;
      new) G="$D/gpugrep --engine cpu -j16 -r";;
      rg) G="$D/rg -j16";;
    esac
    t big-c $tool $G -c -F INFO $E/big
    t big-cm $tool $G --count-matches -F INFO $E/big
    t wide-c $tool $G -c -F INFO $W
    t logs-r-c $tool $G -c ERROR $E/logs/ci.log
    t bom-lit $tool $G -n -F kernel $E/bom
    t bom-c $tool $G -c -F kernel $E/bom
    t many-c $tool $G -c -F ERROR $E/many
  done
done
for f in $O/out-new-*.txt; do l=${f#$O/out-new-}; cmp -s <(sort $f) <(sort $O/out-prev-$l) || echo "DIFF prev $l"; done > $O/check.txt
rm -f $O/out-*
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-24s %.3f s (%.3f-%.3f) %.0f KB\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k]}' $O/time.txt | sort > $O/summary-times.txt
cat $O/summary-times.txt $O/check.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 280 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
