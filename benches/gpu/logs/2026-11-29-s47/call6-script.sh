#!/usr/bin/env bash
# session 47, call 6: the session's build with the automaton under auto
# for two regexes or more only (one regex walks a tree while searching it,
# as before). Everyday -c searches against base (gg-base) and rg, 7
# rounds alternating: single regexes (must equal base) and packs of 3 and
# 10 literal-less regexes (call1-p3.txt, call1-p10.txt), which now list
# their inputs first; then 16 GiB of loghub and CI logs, auto / CPU engine.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev; mkdir -p $E/logs
tar -C $E -xJf $D/tree.tar.xz
$D/gpugrep-corpus --kind logs --out $E/many --size 400M --files 100000 > $X/c1.txt 2>&1
$D/gpugrep-corpus --kind logs --out $E/logs/ci.log --size 1G > $X/c2.txt 2>&1
echo "everyday corpora after $SECONDS s" >> $S
G=$D/gpugrep; B=$D/gg-base
TIMEFORMAT=%R
cmp3() { # label args...
  local l=$1; shift
  nb=""; nn=""; nr=""
  for r in 1 2 3 4 5 6 7; do
    nb="$nb $( { time $B -j16 -r -c "$@" > $X/b.txt 2>&1; } 2>&1 )"
    nn="$nn $( { time $G -j16 -r -c "$@" > $X/n.txt 2>&1; } 2>&1 )"
    nr="$nr $( { time $D/rg -j16 -c "$@" > $X/r.txt 2>&1; } 2>&1 )"
  done
  same=$(cmp -s <(sort $X/b.txt) <(sort $X/n.txt) && echo same || echo DIFFER)
  echo "$l: base$nb | new$nn | rg$nr | base/new $same, sum $(awk -F: '{s+=$NF} END {print s+0}' $X/n.txt) rg $(awk -F: '{s+=$NF} END {print s+0}' $X/r.txt)" >> $S
}
for c in tree many logs; do
  cmp3 "$c hash" -E '[0-9a-f]{40}' $E/$c
  cmp3 "$c ipv4" -E '([0-9]{1,3}\.){3}[0-9]{1,3}' $E/$c
  cmp3 "$c email" -E '\w+@\w+\.\w+' $E/$c
  cmp3 "$c p3" -E -f $D/p3.txt $E/$c
  cmp3 "$c p10" -E -f $D/p10.txt $E/$c
done
rm -rf $E
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied\|GPU not started\|GPU started' $X/err.txt | sed 's/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | tr '\n' ' ' | head -c 200)" >> $S
}
for L in $W/loghub-16G /dev/shm/ci; do
  echo "== $L" >> $S
  t "ipv4 auto (one regex)" $G --stats -j16 -h -c -E '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+' -r $L
  for f in p3 p10 p30; do
    t "$f auto" $G --stats -j16 -h -c -E -f $D/$f.txt -r $L
    t "$f base auto" $B -j16 -h -c -E -f $D/$f.txt -r $L
    t "$f gpu" $G --engine gpu -j16 -h -c -E -f $D/$f.txt -r $L
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
