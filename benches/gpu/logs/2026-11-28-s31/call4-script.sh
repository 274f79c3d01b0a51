#!/usr/bin/env bash
# session 31, call 4 (16 cores): the everyday matrix (issue 15) with the
# session's build (fb81f5f: the searcher takes a line-start match without
# looking back; line numbers two digits at a time; the after-context NUL
# fix), gpugrep --engine cpu -j16 against rg -j16; then the floor cases of
# the twenty-ninth session's call 2, 10 rounds alternating old (c281fa9) /
# new / rg.
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
cases=("tree|-c -E -e '\w+_t\b'" "tree|-C2 -F -e 'BUG_ON(!'" "tree|-c -E -e '\w+@\w+\.\w+'" "tree|-c -E -e 'TODO|FIXME|XXX'" "tree|-c -E -e '([0-9]{1,3}\.){3}[0-9]{1,3}'" "many|-l -e FATAL")
names=(tree-re-inner tree-ctx tree-email tree-alt3 tree-ipv4 many-l)
for r in 1 2 3 4 5 6 7 8 9 10; do
  for b in old new rg; do
    case $b in rg) g="$D/rg --no-config -uu -a -j16";; *) g="$D/gpugrep-$b --engine cpu -j16 -r";; esac
    for i in "${!cases[@]}"; do
      dir=${cases[$i]%%|*}; args=${cases[$i]#*|}
      [[ $b == rg ]] && args=${args//-E /}  # rg's -E names an encoding
      s=$(date +%s%N); eval "$g $args $E/$dir" > /dev/null; echo "${names[$i]} $b $(ms $s)" >> $T
    done
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
