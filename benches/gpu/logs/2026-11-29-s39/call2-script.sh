#!/usr/bin/env bash
# session 39, call 2 (16 cores): the session's code (the dense scan
# withdrawn) on the templates over the three shapes of call 1 (64 files of
# 256 MiB each of one log type; 16 files of 1 GiB with the types changing
# every 16 MiB, "mix"; 2 GiB of 1 MiB files, "small"): CPU engine, auto,
# rg, Hyperscan; "nfa" (the rules' literals through Aho-Corasick's NFA
# rather than its DFA) on the 16 GiB; gitleaks; the generated packs.
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
echo "corpora after $SECONDS s" >> $S
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)" >> $S
}
N=$D/gpugrep
for r in 1 2; do
  for d in loghub-16G mix small; do
    t "templates $d cpu" $N --engine cpu -j16 -h -c -E -f $T -r $W/$d
    t "templates $d auto" $N --stats -j16 -h -c -E -f $T -r $W/$d; grep '^cpu:' $O/err.txt >> $S
    t "templates $d rg" $D/rg -j16 -c --no-filename -f $T $W/$d
  done
  t "templates loghub-16G nfa" $D/gg-nfa --engine cpu -j16 -h -c -E -f $T -r $L
done
for d in loghub-16G mix small; do
  t "templates $d hs" $D/hsgrep -j 16 -f $T $W/$d; tail -2 $O/ans.txt $O/err.txt >> $O/hs-$d.txt
done
t "gitleaks auto" $N --stats -j16 -h -c -P -f $G -r $L; grep '^cpu:' $O/err.txt >> $S
t "gitleaks hs" $D/hsgrep -j 16 -f $G $L
t "gitleaks mix auto" $N -j16 -h -c -P -f $G -r $W/mix
t "gitleaks mix rg" $D/rg -j16 -c --no-filename --regex-size-limit 2G --dfa-size-limit 1G -f $G $W/mix
rm -rf $W/mix
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for n in 1000 10000; do
  t "gen $n -c auto" $N --stats -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16; grep '^cpu:' $O/err.txt >> $S
done
echo "done after $SECONDS s" >> $S
cat $S
