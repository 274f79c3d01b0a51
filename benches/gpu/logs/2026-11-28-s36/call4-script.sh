#!/usr/bin/env bash
# session 36, call 4 (16 cores), diagnosis for the next session: --stats
# of 10,000 rules' -c with and without -i over 16 GiB (where -i's extra
# second goes), and --count-matches (alone, not with -c) of 1,000 rules
# over 4 GiB under auto and --engine gpu. Build: 865bd0c's code (the
# session's last code differs only in tests).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l4 --size 4G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
R=/dev/shm/rules
T() { local lim=$1; shift; timeout $lim /usr/bin/time -f "%e s %U u %S s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for i in "" "-i"; do
  echo "16G -c $i 10000: $(T 60 $D/gpugrep-fold -j16 -h -c $i -E -f $R/rules-10000.txt -r /dev/shm/l16)" >> $S
  timeout 60 $D/gpugrep-fold -j16 --debug --stats -h -c $i -E -f $R/rules-10000.txt -r /dev/shm/l16 2> $O/stats-16G-c$i-10000.txt > /dev/null
done
for r in 1 2; do
  for e in auto gpu cpu; do
    echo "4G --count-matches 1000 $e: $(T 60 $D/gpugrep-fold --engine $e -j16 -h --count-matches -E -f $R/rules-1000.txt -r /dev/shm/l4)" >> $S
  done
done
for e in auto gpu; do
  timeout 60 $D/gpugrep-fold --engine $e -j16 --debug --stats -h --count-matches -E -f $R/rules-1000.txt -r /dev/shm/l4 2> $O/stats-cm-$e.txt > /dev/null
done
cat $S
