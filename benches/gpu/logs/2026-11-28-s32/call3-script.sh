#!/usr/bin/env bash
# session 32, call 3 (16 cores): the everyday matrix (issue 15) with the
# session's build (plain lines written by the searcher, line numbers
# eight digits at once), gpugrep --engine cpu -j16 against rg -j16; then
# the printed-line cases and the last floor cases, 10 rounds alternating
# old (7d75261) / new / rg.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz && cp .dev1/tree.tar.xz $D/
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt; T=$O/times.txt
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 420 benches/everyday $E --reps 5 --timeout 5 --no-grep --out $O/everyday-16.tsv > $O/everyday-16.txt 2>&1
echo "everyday rc $?" >> $S
grep -E 'geomean|peak memory|below' $O/everyday-16.txt >> $S
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
cases=("big|-n -F INFO" "big|-n -F ERROR" "logs|-n FATAL" "many|-n FATAL" "many|-n -F 'error[E0659]'" "many|-l -e FATAL" "tree|-n -F 'mutex_lock(&'" "tree|-c -i 'müller'")
names=(big-n-dense big-n-sparse logs-n many-n many-lit-rare many-l tree-n tree-i-utf8)
for r in 1 2 3 4 5 6 7 8 9 10; do
  for b in old new rg; do
    case $b in rg) g="$D/rg --no-config -uu -a -j16";; *) g="$D/gpugrep-$b --engine cpu -j16 -r";; esac
    for i in "${!cases[@]}"; do
      dir=${cases[$i]%%|*}; args=${cases[$i]#*|}
      s=$(date +%s%N); eval "$g $args $E/$dir" > /dev/null; echo "${names[$i]} $b $(ms $s)" >> $T
    done
  done
done
for b in old new; do
  for i in 0 2 3 6; do
    dir=${cases[$i]%%|*}; args=${cases[$i]#*|}
    eval "$D/gpugrep-$b --engine cpu -j16 -r $args $E/$dir" | md5sum | sed "s/^/md5 ${names[$i]} $b /" >> $S
  done
done
python3 - $T >> $S <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, b, t = l.split(); d[(c, b)].append(int(t))
for c in sorted({c for c, _ in d}):
    print(c, '  '.join(f"{b} med {statistics.median(d[(c,b)]):.0f} [{min(d[(c,b)])}-{max(d[(c,b)])}]" for b in ['old','new','rg']))
PY
cat $S
