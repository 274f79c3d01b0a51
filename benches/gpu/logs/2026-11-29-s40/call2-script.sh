#!/usr/bin/env bash
# session 40, call 2 (16 cores): the rule book's automata up to 2,048
# positions (RULE_WORDS 64; the templates' 14 open rules get automata) on
# top of call 1's automaton change: loghub's templates (three shapes, -c,
# and -n into /dev/null) against the CPU engine, rg and Hyperscan; the
# generated packs; then the split kernels against their mirror, and
# compute-sanitizer memcheck on the confirm and automaton kernels.
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
new=$D/gpugrep
for r in 1 2; do
  for d in loghub-16G mix small; do
    t "templates $d gpu" $new --engine gpu --stats -j16 -h -c -E -f $T -r $W/$d; (echo "== $d gpu r$r"; cat $O/err.txt) >> $ST
    t "templates $d auto" $new --stats -j16 -h -c -E -f $T -r $W/$d; (echo "== $d auto r$r"; cat $O/err.txt) >> $ST
    t "templates $d cpu" $new --engine cpu -j16 -h -c -E -f $T -r $W/$d
    [ $r = 1 ] && t "templates $d hs" $D/hsgrep -j 16 -f $T $W/$d
  done
done
n() { # label cmd...: -n into /dev/null, wall and lines (wc -l of a second run skipped)
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > /dev/null 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt)" >> $S
}
for r in 1 2; do
  n "templates one -n gpu" $new --engine gpu -j16 -h -n -E -f $T -r $L
  n "templates one -n auto" $new -j16 -h -n -E -f $T -r $L
  n "templates one -n cpu" $new --engine cpu -j16 -h -n -E -f $T -r $L
  [ $r = 1 ] && n "templates one -n rg" $D/rg -j16 --no-filename -n -f $T $L
done
$new -j16 -h -n -E -f $T -r $L | md5sum > $O/md5-auto.txt; $new --engine cpu -j16 -h -n -E -f $T -r $L | md5sum > $O/md5-cpu.txt
echo "md5 auto $(cat $O/md5-auto.txt) cpu $(cat $O/md5-cpu.txt)" >> $S
rm -rf $W
echo "templates done after $SECONDS s" >> $S
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for r in 1 2; do
  for n in 1000 10000; do
    t "gen $n l16 auto" $new --stats -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
    (echo "== gen $n auto r$r"; grep -E "gpu|cpu:" $O/err.txt) >> $ST
  done
done
rm -rf /dev/shm/l16
echo "gen done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
GPUGREP_SPLIT_CASES=60 timeout 150 $D/gpu_rule_split --test-threads=2 > $O/rule-split.log 2>&1; echo "gpu_rule_split rc $? $(grep -E 'test result|cases' $O/rule-split.log | tr '\n' ' ')" >> $S
GPUGREP_DIFF_SMALL=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_rule_split kernels_match_reference > $O/memcheck.log 2>&1; echo "memcheck confirm rc $?" >> $S
GPUGREP_DIFF_SMALL=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_automaton kernel_matches_reference >> $O/memcheck.log 2>&1; echo "memcheck automaton rc $?" >> $S
echo "done after $SECONDS s" >> $S
cat $S
