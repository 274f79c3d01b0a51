#!/usr/bin/env bash
# session 40, call 1 (16 cores): the automaton kernel's ASCII part and its
# exceptions visited by live bit ("new", this session's tree) against
# 5c37677 ("base") on loghub's templates (three shapes, as in session 39),
# the CPU engine and rg beside; the generated packs, where the automaton
# also runs; then the automaton kernel against its reference.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
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
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for d in loghub-16G mix small; do
    t "templates $d gpu new" $new --engine gpu --stats -j16 -h -c -E -f $T -r $W/$d; (echo "== $d gpu new r$r"; cat $O/err.txt) >> $ST
    t "templates $d auto new" $new --stats -j16 -h -c -E -f $T -r $W/$d; (echo "== $d auto new r$r"; cat $O/err.txt) >> $ST
    t "templates $d auto base" $base -j16 -h -c -E -f $T -r $W/$d
    t "templates $d cpu" $new --engine cpu -j16 -h -c -E -f $T -r $W/$d
    [ $r = 1 ] && t "templates $d rg" $D/rg -j16 --no-filename -c -f $T $W/$d
  done
done
t "templates one -n gpu new" $new --engine gpu -j16 -n -E -f $T -r $L
t "templates one -n cpu" $new --engine cpu -j16 -n -E -f $T -r $L
rm -rf $W
echo "templates done after $SECONDS s" >> $S
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for r in 1 2; do
  for v in base new; do
    for n in 1000 10000; do
      t "gen $n l16 auto $v" ${!v} --stats -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
      [ $v = new ] && (echo "== gen $n auto new r$r"; cat $O/err.txt) >> $ST
    done
  done
done
echo "gen done after $SECONDS s" >> $S
rm -rf /dev/shm/l16
export GPUGREP_BIN=$D/gpugrep
GPUGREP_DIFF_CASES=1500 timeout 150 $D/gpu_automaton --test-threads=2 > $O/automaton.log 2>&1; echo "gpu_automaton rc $?" >> $S
echo "done after $SECONDS s" >> $S
cat $S
