#!/usr/bin/env bash
# session 25, call 5: the cases call 4's matrix had below rg (the 100,000
# small logs, two of the tree's), 10 rounds alternating 5e14c61 (old),
# 79e255d (prev), 93e8e88 (new) and rg -j16, ms each; then the two GPU
# suites call 4 cut at 45 s.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt; T=$O/times.txt
mkdir -p $E && $D/gpugrep-corpus --kind logs --out $E/many --size 400M --files 100000 >> $S 2>&1
tar -C $E -xJf .dev1/tree.tar.xz tree
P=$PWD/benches/patterns
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
run() { local b=$1; shift; case $b in
  old) $D/gpugrep-old --engine cpu -j16 "$@";; prev) $D/gpugrep-prev --engine cpu -j16 "$@";;
  new) $D/gpugrep --engine cpu -j16 "$@";; rg) $D/rg --no-config -uu -a -j16 "$@";; esac; }
for r in 1 2 3 4 5 6 7 8 9 10; do
  for b in old prev new rg; do
    r1=-r; [ $b = rg ] && r1=
    s=$(date +%s%N); run $b $r1 -n -F 'error[E0659]' $E/many > /dev/null; echo "many-lit-rare $b $(ms $s)" >> $T
    s=$(date +%s%N); run $b $r1 -l FATAL $E/many > /dev/null; echo "many-l $b $(ms $s)" >> $T
    s=$(date +%s%N); run $b $r1 -n FATAL $E/many > /dev/null; echo "many-n $b $(ms $s)" >> $T
    s=$(date +%s%N); run $b $r1 -c -E -f $P/alt100-c.txt $E/tree > /dev/null; echo "tree-alt100 $b $(ms $s)" >> $T
    s=$(date +%s%N); run $b $r1 -l -F 'spin_lock(' $E/tree > /dev/null; echo "tree-l $b $(ms $s)" >> $T
  done
done
python3 - $T >> $S <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, b, t = l.split(); d[(c, b)].append(int(t))
for c in sorted({c for c, _ in d}):
    print(c, '  '.join(f"{b} med {statistics.median(d[(c,b)]):.0f} mean {statistics.mean(d[(c,b)]):.1f}" for b in ['old','prev','new','rg']))
PY
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential; do
  timeout 200 $D/$t --test-threads=12 > $O/suite-$t.log 2>&1; echo "suite $t $? $(grep 'test result' $O/suite-$t.log)" >> $S
done
cat $S
