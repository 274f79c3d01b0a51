#!/usr/bin/env bash
# session 36, call 3 (16 cores): where -n -i of 1,000 rules spends the time
# -n without -i does not (--stats of both, 16 GiB), and --count-matches
# under auto against --engine gpu (4 GiB; the thirty-fifth session's
# cliff hunt: 3.9 against 3.1 s). Build: 865bd0c's code.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l4 --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
R=/dev/shm/rules
T() { local lim=$1; shift; timeout $lim /usr/bin/time -f "%e s %U u %S s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(wc -l < $O/ans.txt)"; }
for r in 1 2; do
  for i in "" "-i"; do
    echo "16G -n $i 1000 fold: $(T 60 $D/gpugrep-fold -j16 -h -n $i -E -f $R/rules-1000.txt -r /dev/shm/l16)" >> $S
  done
done
for i in "" "-i"; do
  timeout 60 $D/gpugrep-fold -j16 --debug --stats -h -n $i -E -f $R/rules-1000.txt -r /dev/shm/l16 2> $O/stats-n$i.txt > /dev/null
done
for r in 1 2; do
  for e in auto gpu; do
    echo "4G --count-matches 1000 $e: $(T 60 $D/gpugrep-fold --engine $e -j16 -h -c --count-matches -E -f $R/rules-1000.txt -r /dev/shm/l4)" >> $S
  done
done
for e in auto gpu; do
  timeout 60 $D/gpugrep-fold --engine $e -j16 --debug --stats -h -c --count-matches -E -f $R/rules-1000.txt -r /dev/shm/l4 2> $O/stats-cm-$e.txt > /dev/null
done
cat $S
