#!/usr/bin/env bash
# session 47, call 5: the session's build (the automaton under auto from
# 512 MiB of files per thread; the driver loaded only then, NVIDIA's
# device node checked before) against base (gg-base: 4e396c5's code with
# the kernel change) on everyday -c searches of literal-less regexes that
# now list their inputs first (Linux tree, 100,000 small logs, one 1 GiB
# log; 7 rounds alternating, rg -j16 beside), then 8 and 16 GiB of loghub
# and 16 GiB of CI logs, auto against the CPU engine.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev; mkdir -p $E/logs
tar -C $E -xJf $D/tree.tar.xz
$D/gpugrep-corpus --kind logs --out $E/many --size 400M --files 100000 > $X/c1.txt 2>&1
$D/gpugrep-corpus --kind logs --out $E/logs/ci.log --size 1G > $X/c2.txt 2>&1
echo "everyday corpora after $SECONDS s: $(du -sh $E/tree $E/many $E/logs | tr '\n' ' ')" >> $S
G=$D/gpugrep; B=$D/gg-base
TIMEFORMAT=%R
for c in tree many logs; do
  for p in '[0-9a-f]{40}' '([0-9]{1,3}\.){3}[0-9]{1,3}' '\w+@\w+\.\w+' '\b[0-9a-f]{40}\b'; do
    nb=""; nn=""; nr=""
    for r in 1 2 3 4 5 6 7; do
      nb="$nb $( { time $B -j16 -r -c -E "$p" $E/$c > $X/b.txt 2>&1; } 2>&1 )"
      nn="$nn $( { time $G -j16 -r -c -E "$p" $E/$c > $X/n.txt 2>&1; } 2>&1 )"
      nr="$nr $( { time $D/rg -j16 -c "$p" $E/$c > $X/r.txt 2>&1; } 2>&1 )"
    done
    same=$(cmp -s <(sort $X/b.txt) <(sort $X/n.txt) && echo same || echo DIFFER)
    echo "$c '$p': base$nb | new$nn | rg$nr | base/new $same, sum $(awk -F: '{s+=$NF} END {print s+0}' $X/n.txt) rg $(awk -F: '{s+=$NF} END {print s+0}' $X/r.txt)" >> $S
  done
done
$G --debug -j16 -r -c -E '[0-9a-f]{40}' $E/tree 2>&1 >/dev/null | grep engine >> $S
rm -rf $E
W=/dev/shm/real
for z in 16G 8G; do
  python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size $z > $X/real.txt 2>&1
done
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied\|GPU not started\|GPU started' $X/err.txt | sed 's/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | tr '\n' ' ' | head -c 200)" >> $S
}
for L in $W/loghub-8G $W/loghub-16G /dev/shm/ci; do
  echo "== $L" >> $S
  for p in '[0-9a-f]{40}' '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+'; do
    t "'$p' auto" $G --stats -j16 -h -c -E "$p" -r $L
    t "'$p' cpu" $G --engine cpu -j16 -h -c -E "$p" -r $L
  done
  for f in p3 p10 p30; do
    t "$f auto" $G --stats -j16 -h -c -E -f $D/$f.txt -r $L
    t "$f cpu" $G --engine cpu -j16 -h -c -E -f $D/$f.txt -r $L
  done
  t "p3 rg" $D/rg -j16 -c --no-filename -f $D/p3.txt $L
done
echo "all done after $SECONDS s" >> $S
cat $S
