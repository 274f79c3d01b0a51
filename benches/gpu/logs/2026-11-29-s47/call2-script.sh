#!/usr/bin/env bash
# session 47, call 2: auto runs a regex without good literals on the GPU's
# automaton under -c, from 1 GiB of files, CUDA started by the CPU
# engine's pace (choose::settle, Search::paced). Call 1's shapes over 16
# GiB of loghub and CI logs and 2 / 1 GiB of loghub: auto, --engine cpu,
# --engine gpu, rg, two rounds; -n and -l auto (stay on the CPU engine).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
for z in 16G 2G 1G; do
  python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size $z > $X/real.txt 2>&1
done
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied\|GPU not started\|GPU started' $X/err.txt | tr '\n' ' ' | head -c 260)" >> $S
}
G=$D/gpugrep
for L in $W/loghub-16G /dev/shm/ci $W/loghub-2G $W/loghub-1G; do
  echo "== $L" >> $S
  for p in '[0-9a-f]{40}' '\w+@\w+\.\w+' '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+' '([0-9]{1,3}\.){3}[0-9]{1,3}'; do
    for r in 1 2; do
      t "'$p' auto r$r" $G --stats -j16 -h -c -E "$p" -r $L
      t "'$p' cpu r$r" $G --engine cpu -j16 -h -c -E "$p" -r $L
    done
    t "'$p' gpu" $G --engine gpu -j16 -h -c -E "$p" -r $L
    t "'$p' rg" $D/rg -j16 -c --no-filename "$p" $L
  done
  for f in p3 p10 p30; do
    for r in 1 2; do
      t "$f auto r$r" $G --stats -j16 -h -c -E -f $D/$f.txt -r $L
      t "$f cpu r$r" $G --engine cpu -j16 -h -c -E -f $D/$f.txt -r $L
    done
    t "$f gpu" $G --engine gpu -j16 -h -c -E -f $D/$f.txt -r $L
    t "$f rg" $D/rg -j16 -c --no-filename -f $D/$f.txt $L
  done
done
L=$W/loghub-16G
t "p3 -l auto" $G --stats -j16 -l -E -f $D/p3.txt -r $L
t "p3 -l cpu" $G --engine cpu -j16 -l -E -f $D/p3.txt -r $L
/usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt bash -c "$G -j16 -n -E -f $D/p3.txt -r $L | wc -l" > $X/ans.txt 2>&1
echo "p3 -n auto: $(tail -1 $X/t.txt) lines $(head -1 $X/ans.txt)" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
