#!/usr/bin/env bash
# session 47, call 3: call 2's build plus the exit without the driver's
# handlers while a CUDA start or release is under way (release::InDriver,
# main). Auto against the CPU engine at 2, 4 and 16 GiB of loghub and 16
# GiB of CI logs (two rounds each), the GPU alone once; then 20 runs of
# auto at 2 GiB (the gate opens, the CPU engine ends first): exit codes.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
for z in 16G 4G 2G; do
  python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size $z > $X/real.txt 2>&1
done
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied\|GPU not started\|GPU started' $X/err.txt | sed 's/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | tr '\n' ' ' | head -c 200)" >> $S
}
G=$D/gpugrep
for L in $W/loghub-2G $W/loghub-4G $W/loghub-16G /dev/shm/ci; do
  echo "== $L" >> $S
  for p in '[0-9a-f]{40}' '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+' '([0-9]{1,3}\.){3}[0-9]{1,3}'; do
    for r in 1 2; do
      t "'$p' auto r$r" $G --stats -j16 -h -c -E "$p" -r $L
      t "'$p' cpu r$r" $G --engine cpu -j16 -h -c -E "$p" -r $L
    done
    t "'$p' gpu" $G --engine gpu -j16 -h -c -E "$p" -r $L
  done
  for f in p3 p10 p30; do
    for r in 1 2; do
      t "$f auto r$r" $G --stats -j16 -h -c -E -f $D/$f.txt -r $L
      t "$f cpu r$r" $G --engine cpu -j16 -h -c -E -f $D/$f.txt -r $L
    done
    t "$f gpu" $G --engine gpu -j16 -h -c -E -f $D/$f.txt -r $L
  done
done
echo "== 20 runs each, loghub-2G, exit codes and seconds" >> $S
for f in p3 p10; do
  codes=""; secs=""
  for r in $(seq 20); do
    /usr/bin/time -f "%e" -o $X/t.txt $G -j16 -h -c -E -f $D/$f.txt -r $W/loghub-2G > /dev/null 2>&1; codes="$codes $?"; secs="$secs $(cat $X/t.txt | tail -1)"
  done
  echo "$f auto: codes$codes; s$secs" >> $S
  secs=""
  for r in $(seq 5); do
    /usr/bin/time -f "%e" -o $X/t.txt $G --engine cpu -j16 -h -c -E -f $D/$f.txt -r $W/loghub-2G > /dev/null 2>&1; secs="$secs $(cat $X/t.txt | tail -1)"
  done
  echo "$f cpu: s$secs" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
