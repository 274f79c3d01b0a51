#!/usr/bin/env bash
# session 25, call 6 (new: the session's code, packing checked by size
# first; old: 5e14c61): the everyday matrix at 16 threads (issue 15); then
# the cases near rg's floor and the BOM directory's -n, 10 rounds
# alternating old / new / rg -j16 (ms; peak KB for bom-lit).
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; } > $O/machine.txt 2>&1
S=$O/summary.txt; T=$O/times.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 290 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
tail -4 $O/everyday-16.txt >> $S
P=$PWD/benches/patterns
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for r in 1 2 3 4 5 6 7 8 9 10; do
  for b in old new rg; do
    case $b in old) g="$D/gpugrep-old --engine cpu -j16 -r";; new) g="$D/gpugrep --engine cpu -j16 -r";; rg) g="$D/rg --no-config -uu -a -j16";; esac
    s=$(date +%s%N); $g -n -F 'error[E0659]' $E/many > /dev/null; echo "many-lit-rare $b $(ms $s)" >> $T
    s=$(date +%s%N); $g -n FATAL $E/many > /dev/null; echo "many-n $b $(ms $s)" >> $T
    s=$(date +%s%N); $g -l FATAL $E/many > /dev/null; echo "many-l $b $(ms $s)" >> $T
    case $b in rg) a="-c -f $P/alt100-c.txt";; *) a="-c -E -f $P/alt100-c.txt";; esac
    s=$(date +%s%N); $g $a $E/tree > /dev/null; echo "tree-alt100 $b $(ms $s)" >> $T
    s=$(date +%s%N); $g -l -F 'spin_lock(' $E/tree > /dev/null; echo "tree-l $b $(ms $s)" >> $T
    s=$(date +%s%N); $g -c -i 'müller' $E/tree > /dev/null; echo "tree-i-utf8 $b $(ms $s)" >> $T
    /usr/bin/time -f "%e %M" -o $O/t.txt $g -n -F kernel $E/bom > /dev/null; echo "bom-lit-KB $b $(cut -d' ' -f2 $O/t.txt)" >> $T
  done
done
python3 - $T >> $S <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, b, t = l.split(); d[(c, b)].append(int(t))
for c in sorted({c for c, _ in d}):
    print(c, '  '.join(f"{b} med {statistics.median(d[(c,b)]):.0f} mean {statistics.mean(d[(c,b)]):.1f} [{min(d[(c,b)])}-{max(d[(c,b)])}]" for b in ['old','new','rg']))
PY
cat $S
