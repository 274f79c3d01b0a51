#!/usr/bin/env bash
# session 29, call 1 (16 cores): the everyday matrix (issue 15) with the
# session's build ("new": a split file's pieces read from it while its
# output is sparse, else mapped in one call each) against rg -j16 and
# ugrep -J16; then 7 rounds alternating old (0245602) / new / rg on the
# rows of the large logs, with each build's page faults.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
export LD_LIBRARY_PATH=$D/lib
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; uname -r; mount | grep /dev/shm; } > $O/machine.txt 2>&1
S=$O/summary.txt; T=$O/times.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP=$D/ugrep TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 400 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
grep -E 'geomean|peak memory|below' $O/everyday-16.txt >> $S
ls -l $E/big/000 >> $S
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for r in 1 2 3 4 5 6 7; do
  for b in old new rg; do
    case $b in rg) g="$D/rg --no-config -uu -a -j16";; *) g="$D/gpugrep-$b --engine cpu -j16 -r";; esac
    for c in "-n -F ERROR" "-n -F INFO" "-c -F INFO"; do
      s=$(date +%s%N); $g $c $E/big > /dev/null; echo "big ${c// /_} $b $(ms $s)" >> $T
    done
    s=$(date +%s%N); $g -n -F ERROR $E/logs/ci.log > /dev/null; echo "logs -n_ERROR $b $(ms $s)" >> $T
  done
done
for b in old new; do
  /usr/bin/time -f "$b -n ERROR big: %e s %U user %S sys %R minor faults %M KB" -o $O/t.txt $D/gpugrep-$b --engine cpu -j16 -r -n -F ERROR $E/big > /dev/null
  cat $O/t.txt >> $S
done
# How the host's tmpfs maps a file: one thread over the largest log's map.
/usr/bin/time -f "old -j1 -c ERROR largest log: %e s %S sys %R minor faults" -o $O/t.txt $D/gpugrep-old --engine cpu -j1 -c -F ERROR $E/big/000/000000.log > /dev/null
cat $O/t.txt >> $S
/usr/bin/time -f "rg -n ERROR big: %e s %U user %S sys %R minor faults %M KB" -o $O/t.txt $D/rg --no-config -uu -a -j16 -n -F ERROR $E/big > /dev/null
cat $O/t.txt >> $S
python3 - $T >> $S <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, o, b, t = l.split(); d[(c + ' ' + o, b)].append(int(t))
for c in sorted({c for c, _ in d}):
    print(c, '  '.join(f"{b} med {statistics.median(d[(c,b)]):.0f} [{min(d[(c,b)])}-{max(d[(c,b)])}]" for b in ['old','new','rg']))
PY
cat $S
