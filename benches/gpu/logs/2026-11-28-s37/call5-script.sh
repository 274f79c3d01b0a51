#!/usr/bin/env bash
# session 37, call 5 (16 cores): auto's lag rule with lanes busy half the
# time (not 80 %): the templates with --stats, and the generated packs.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for r in 1 2; do
  /usr/bin/time -f "%e s %M KB" -o $O/t.txt $D/gpugrep --stats -j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G > $O/ans.txt 2> $O/stats-templates-$r.txt
  echo "templates auto: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt); $(grep '^cpu:' $O/stats-templates-$r.txt)" >> $S
done
for n in 1000 10000; do
  /usr/bin/time -f "%e s" -o $O/t.txt $D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16 > $O/ans.txt 2>/dev/null
  echo "gen $n -c auto: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
done
/usr/bin/time -f "%e s" -o $O/t.txt $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/l16 > /dev/null 2>&1
echo "gen 1000 -n auto: $(tail -1 $O/t.txt) md5 $($D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/l16 2>/dev/null | md5sum)" >> $S
cat $S
