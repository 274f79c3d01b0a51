#!/usr/bin/env bash
# session 19, call 8: a count's pieces read from the file (pread, 128 KiB
# pieces; "pread", this build) against mapped 256 KiB pieces (feab95d,
# "split"), prev (0e84e50) and rg: 64 logs of 256 MiB, 16 logs of 256 MiB,
# big/ (8 logs, 1 GiB), one 1 GiB log walked; 3 rounds alternating.
set -u
O=$OUT; D=$PWD/.dev
nproc > $O/machine.txt; nvidia-smi -L >> $O/machine.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l64 --size 16G --files 64 > $O/gen.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 4G --files 16 >> $O/gen.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/big --size 1G --files 8 >> $O/gen.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/one.log --size 1G >> $O/gen.txt 2>&1
ls -l /dev/shm/big/* >> $O/gen.txt
for r in 1 2 3; do
  for tool in prev split pread rg; do
    case $tool in
      prev) G="$D/gpugrep-prev --engine cpu -j16 -r";;
      split) G="$D/gpugrep-split --engine cpu -j16 -r";;
      pread) G="$D/gpugrep --engine cpu -j16 -r";;
      rg) G="$D/rg -j16";;
    esac
    for c in "l64|INFO" "l64|ERROR" "l16|INFO" "l16|ERROR" "big|INFO" "big|ERROR" "one.log|ERROR"; do
      d=${c%%|*}; p=${c#*|}
      /usr/bin/time -f "$tool|$d -c $p|%e|%M|%U|%S" $G -c -F $p /dev/shm/$d > $O/out-$tool-$d-$p.txt 2>> $O/time.txt
    done
  done
done
for f in $O/out-pread-*.txt; do l=${f#$O/out-pread-}; for t in prev split; do cmp -s <(sort $f) <(sort $O/out-$t-$l) || echo "DIFF $t $l"; done; done > $O/check.txt
rm -f $O/out-*
awk -F'|' '{k=$2" "$1; n[k]++; s[k]+=$3; m[k]+=$4; u[k]+=$5; y[k]+=$6; if (!(k in lo) || $3<lo[k]) lo[k]=$3; if ($3>hi[k]) hi[k]=$3} END {for (k in n) printf "%-22s %.3f s (%.3f-%.3f) %.0f KB user %.2f sys %.2f\n", k, s[k]/n[k], lo[k], hi[k], m[k]/n[k], u[k]/n[k], y[k]/n[k]}' $O/time.txt | sort | tee $O/summary.txt
cat $O/check.txt
