#!/usr/bin/env bash
# session 39, call 1 (16 cores): session 38's dense scan ("new", 9cbe81c)
# against the build before it ("old", 129126d) on the templates: 64 files
# of 256 MiB each of one log type (the benchmark's shape), 16 files of
# 1 GiB each with the log types changing every 16 MiB ("mix"), 2 GiB of
# 1 MiB files with the types changing from file to file ("small"); the
# scan's cache clears per thread (gg-xclear: new, printing each clear);
# gitleaks and the generated packs for regressions; -n into /dev/null.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
L=$W/loghub-16G; mkdir -p $W/mix $W/small
files=($(ls $L))
for k in $(seq 0 15); do
  for i in $(seq 0 15); do dd if=$L/${files[$(( (i*4 + k) % 64 ))]} bs=16M skip=$k count=1 status=none; done > $W/mix/m$k.log
done
for i in $(seq 0 2047); do dd if=$L/${files[$(( (i*4 + i/64) % 64 ))]} bs=1M skip=$(( i / 16 )) count=1 status=none > $W/small/s$i.log; done
du -sb $W/mix $W/small >> $S
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 100 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)" >> $S
}
N=$D/gpugrep; OLD=$D/gg-old
for r in 1 2; do
  for d in loghub-16G mix small; do
    t "templates $d new" $N --engine cpu -j16 -h -c -E -f $T -r $W/$d
    t "templates $d old" $OLD --engine cpu -j16 -h -c -E -f $T -r $W/$d
    t "templates $d rg" $D/rg -j16 -c --no-filename -f $T $W/$d
  done
done
for d in loghub-16G mix; do
  $D/gg-xclear --engine cpu -j16 -h -c -E -f $T -r $W/$d 2>&1 >/dev/null | awk '{print $2}' | sort | uniq -c > $O/xclear-$d.txt
  echo "xclear $d: threads $(wc -l < $O/xclear-$d.txt) clears $(awk '{s+=$1} END {print s}' $O/xclear-$d.txt)" >> $S
done
for v in N OLD; do
  t "templates -n $v" bash -c "${!v} --engine cpu -j16 -h -n -E -f $T -r $L > /dev/null"
  t "gitleaks cpu $v" ${!v} --engine cpu -j16 -h -c -P -f $G -r $L
done
t "templates auto new" $N --stats -j16 -h -c -E -f $T -r $L; grep '^cpu:' $O/err.txt >> $S
rm -rf $W/mix
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for n in 1000 10000; do
  for v in N OLD; do
    t "gen $n -c cpu $v" ${!v} --engine cpu -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
  done
  t "gen $n -c auto N" $N -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
done
echo "done after $SECONDS s" >> $S
cat $S
