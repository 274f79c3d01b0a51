#!/usr/bin/env bash
# session 39, call 4 (16 cores): auto's early lag verdict ("new": the
# lanes' own pace, counting the chunks they are searching as if done now,
# once 256 MiB and 0.25 s a lane are behind it, under 1 GiB/s) against
# the session's base ("base", 5139aae) on the templates' three shapes (call 2), and on the generated
# packs over 64 files of 256 MiB and over 2 GiB of 1 MiB files, where the
# GPU is fast and nothing may change.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
L=$W/loghub-16G; mkdir -p $W/mix $W/small
files=($(ls $L))
for k in $(seq 0 15); do
  for i in $(seq 0 15); do dd if=$L/${files[$(( (i*4 + k) % 64 ))]} bs=16M skip=$k count=1 status=none; done > $W/mix/m$k.log
done
for i in $(seq 0 2047); do dd if=$L/${files[$(( (i*4 + i/64) % 64 ))]} bs=1M skip=$(( i / 16 )) count=1 status=none > $W/small/s$i.log; done
echo "corpora after $SECONDS s" >> $S
T=$W/rules-templates.txt
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)" >> $S
}
base=$D/gpugrep; new=$D/gg-new
for r in 1 2; do
  for d in loghub-16G mix small; do
    for v in base new; do
      t "templates $d auto $v" ${!v} --stats -j16 -h -c -E -f $T -r $W/$d; grep '^cpu:' $O/err.txt >> $S
    done
  done
done
for d in mix small; do t "templates $d cpu" $base --engine cpu -j16 -h -c -E -f $T -r $W/$d; done
rm -rf $W
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
mkdir -p /dev/shm/lsmall; lf=($(find /dev/shm/l16 -type f | sort | head -64))
for i in $(seq 0 2047); do dd if=${lf[$(( i % 64 ))]} bs=1M skip=$(( i / 64 )) count=1 status=none > /dev/shm/lsmall/s$i.log; done
for r in 1 2; do
  for v in base new; do
    for n in 1000 10000; do
      t "gen $n l16 auto $v" ${!v} --stats -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16; grep '^cpu:' $O/err.txt >> $S
    done
    t "gen 1000 small auto $v" ${!v} --stats -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/lsmall; grep '^cpu:' $O/err.txt >> $S
  done
done
echo "done after $SECONDS s" >> $S
cat $S
