#!/usr/bin/env bash
# session 27, call 3: the rule-pack part (sourced environment: O, D, S).
set -u
O=$OUT; D=/tmp/d; S=$O/summary.txt
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
t() { local name=$1 b=$2; shift 2
  /usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $D/gpugrep$b -j16 "$@" -r /dev/shm/rules/logs-16G > $O/ans.txt
  echo "$name $b $(cat $O/t.txt) answer $(awk -F: '{s += $NF} END {print s + 0}' $O/ans.txt)" >> $S; }
for r in 1 2; do
  for b in -prev ""; do
    for n in 1000 10000; do
      t "rules-$n-gpu-c" "$b" --engine gpu -c -E -f /dev/shm/rules/rules-$n.txt
      t "rules-$n-auto-c" "$b" -c -E -f /dev/shm/rules/rules-$n.txt
    done
  done
done
for b in -prev ""; do
  for n in 1000 10000; do
    /usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $D/gpugrep$b -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/rules/logs-16G > /dev/null
    echo "rules-$n-auto-n $b $(cat $O/t.txt)" >> $S
  done
done
for n in 1000 10000; do
  for f in -c -n; do
    $D/gpugrep --engine gpu -j16 --stats $f -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/rules/logs-16G > /dev/null 2> $O/stats-$n$f.txt
  done
done
/usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $D/rg --no-config -uu -a -j16 -c -f /dev/shm/rules/rules-1000.txt /dev/shm/rules/logs-16G > $O/ans.txt
echo "rules-1000-rg-c $(cat $O/t.txt) answer $(awk -F: '{s += $NF} END {print s + 0}' $O/ans.txt)" >> $S
for f in $O/stats-*; do echo "== $f"; cat $f; done > $O/stats.txt; rm -f $O/stats-* $O/t.txt $O/ans.txt
