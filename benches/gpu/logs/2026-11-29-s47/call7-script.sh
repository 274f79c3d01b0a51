#!/usr/bin/env bash
# session 47, call 7: the session's last build: the automaton under auto
# for 2 regexes or more over files named (not -r). 16 GiB of loghub and
# of CI logs named on the command line: auto, base's auto (gg-base), the
# CPU engine, the GPU alone, rg, -c; the same with -r (stays on the CPU
# engine); 100,000 small logs through --files-from (base / new, 7 rounds).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/many --size 400M --files 100000 > $X/c1.txt 2>&1
find /dev/shm/many -type f > $X/many.txt
echo "corpora after $SECONDS s" >> $S
G=$D/gpugrep; B=$D/gg-base
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h 'tallied\|GPU not started\|GPU started' $X/err.txt | sed 's/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | tr '\n' ' ' | head -c 200)" >> $S
}
for L in $W/loghub-16G /dev/shm/ci; do
  echo "== $L" >> $S
  for f in p3 p10 p30; do
    for r in 1 2; do
      t "$f auto r$r" $G --stats -j16 -h -c -E -f $D/$f.txt $L/*
      t "$f base r$r" $B -j16 -h -c -E -f $D/$f.txt $L/*
    done
    t "$f cpu" $G --engine cpu -j16 -h -c -E -f $D/$f.txt $L/*
    t "$f gpu" $G --engine gpu -j16 -h -c -E -f $D/$f.txt $L/*
    t "$f rg" $D/rg -j16 -c --no-filename -f $D/$f.txt $L
    t "$f auto -r" $G --stats -j16 -h -c -E -f $D/$f.txt -r $L
  done
done
TIMEFORMAT=%R
for f in p3 p10; do
  nb=""; nn=""
  for r in 1 2 3 4 5 6 7; do
    nb="$nb $( { time $B -j16 -c -E -f $D/$f.txt --files-from $X/many.txt > $X/b.txt 2>&1; } 2>&1 )"
    nn="$nn $( { time $G -j16 -c -E -f $D/$f.txt --files-from $X/many.txt > $X/n.txt 2>&1; } 2>&1 )"
  done
  echo "many $f --files-from: base$nb | new$nn | $(cmp -s $X/b.txt $X/n.txt && echo same || echo DIFFER)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
