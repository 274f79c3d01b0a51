#!/usr/bin/env bash
# session 29, call 2 (16 cores): the everyday matrix (issue 15) with the
# session's final build (a split file's map judged by its first piece's
# faults: read or mapped in one call where it faults a page at a time),
# gpugrep --engine cpu -j16 against rg -j16 (ugrep left out: with it the
# matrix did not fit a call, call 1); then 7 rounds alternating old
# (0245602) / new / rg on the rows of the large logs.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
export LD_LIBRARY_PATH=$D/lib
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt; T=$O/times.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 400 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
grep -E 'geomean|peak memory|below' $O/everyday-16.txt >> $S
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for r in 1 2 3 4 5 6 7; do
  for b in old new rg; do
    case $b in rg) g="$D/rg --no-config -uu -a -j16";; *) g="$D/gpugrep-$b --engine cpu -j16 -r";; esac
    for c in "-n -F ERROR" "-n -F INFO" "-c -F INFO"; do
      s=$(date +%s%N); $g $c $E/big > /dev/null; echo "big ${c// /_} $b $(ms $s)" >> $T
    done
  done
done
python3 - $T >> $S <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, o, b, t = l.split(); d[(c + ' ' + o, b)].append(int(t))
for c in sorted({c for c, _ in d}):
    print(c, '  '.join(f"{b} med {statistics.median(d[(c,b)]):.0f} [{min(d[(c,b)])}-{max(d[(c,b)])}]" for b in ['old','new','rg']))
PY
cat $S
