#!/usr/bin/env bash
# session 38, call 4 (16 cores): the session's code (auto takes back files
# from a lagging GPU) on the templates in 64 files and in one 8 GiB file,
# gitleaks, the generated packs (no lag: nothing may change there); where
# the templates' -n goes (36 s against rg's 13 s in call 3): the same
# search into /dev/null, into cat, without splitting files, on 8 threads.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
mkdir -p $W/one
ls $W/loghub-16G | head -32 | while read f; do cat $W/loghub-16G/$f; done > $W/one/one.log
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt; B=$D/gpugrep
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 100 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
}
for r in 1 2; do
  t "templates cpu" $B --engine cpu -j16 -h -c -E -f $T -r $W/loghub-16G
  t "templates auto" $B --stats -j16 -h -c -E -f $T -r $W/loghub-16G; cp $O/err.txt $O/stats-templates-auto-$r.txt; grep '^cpu:' $O/err.txt >> $S
  t "templates rg" $D/rg -j16 -c --no-filename -f $T $W/loghub-16G
  t "templates one cpu" $B --engine cpu -j16 -h -c -E -f $T $W/one/one.log
  t "templates one auto" $B --stats -j16 -h -c -E -f $T $W/one/one.log; cp $O/err.txt $O/stats-one-auto-$r.txt; grep '^cpu:' $O/err.txt >> $S
done
t "templates one rg" $D/rg -j16 -c --no-filename -f $T $W/one/one.log
t "gitleaks auto" $B --stats -j16 -h -c -P -f $G -r $W/loghub-16G; grep '^cpu:' $O/err.txt >> $S
t "gitleaks cpu" $B --engine cpu -j16 -h -c -P -f $G -r $W/loghub-16G
n() { # label cmd...: wall of a -n run whose output goes where the label says
  local l=$1; shift
  timeout 80 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@"
  echo "templates -n $l: $(tail -1 $O/t.txt)" >> $S
}
n "cpu > /dev/null" bash -c "$B --engine cpu -j16 -h -n -E -f $T -r $W/loghub-16G > /dev/null"
n "cpu | cat" bash -c "$B --engine cpu -j16 -h -n -E -f $T -r $W/loghub-16G | cat > /dev/null"
n "cpu no split | cat" bash -c "GPUGREP_SPLIT_MIN=1T $B --engine cpu -j16 -h -n -E -f $T -r $W/loghub-16G | cat > /dev/null"
n "cpu -j8 | cat" bash -c "$B --engine cpu -j8 -h -n -E -f $T -r $W/loghub-16G | cat > /dev/null"
n "rg > /dev/null" bash -c "$D/rg -j16 -n --no-filename -f $T $W/loghub-16G > /dev/null"
n "rg | cat" bash -c "$D/rg -j16 -n --no-filename -f $T $W/loghub-16G | cat > /dev/null"
n "auto | cat" bash -c "$B -j16 -h -n -E -f $T -r $W/loghub-16G | cat > /dev/null"
rm -rf $W/one
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for n in 1000 10000; do
  t "gen $n -c auto" $B --stats -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16; grep '^cpu:' $O/err.txt >> $S
done
/usr/bin/time -f "%e s" -o $O/t.txt $B -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/l16 2>/dev/null | md5sum > $O/md5.txt
echo "gen 1000 -n auto: $(tail -1 $O/t.txt) md5 $(cat $O/md5.txt)" >> $S
echo "done after $SECONDS s" >> $S
cat $S
