#!/usr/bin/env bash
# session 26, call 7 (H100, nvidia-h100-x1): the multi kernel alone, D
# (3d6e550: key table an eighth full) against V4 (a quarter full); then end
# to end, 3d6e550 ("new") against 984e4c5 ("prev", session 25): issue 16's
# -c rows over 16 GiB of prose in 20,000 BOM+CRLF files (realworld.sh, with
# rg and Hyperscan), and -c of 1,000 and 10,000 rules over 16 GiB of logs.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for v in D V4 D V4; do
  echo "== $v" >> $O/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns\|^resident" >> $O/bench.txt
done
rm -rf $W
mkdir -p $O/rw
OUT=$O/rw D=$D SETS="1000 10000" CASES="-c" SIZE_GIB=16 FILES=20000 C=/dev/shm/rw bash benches/gpu/realworld.sh > $O/realworld.txt 2>&1
cp $O/rw/rw-stats-10000--c.txt $O/stats-10000.txt 2>/dev/null; rm -rf $O/rw
t() { local name=$1 b=$2 dir=$3; shift 3; local bin=$D/gpugrep; [ $b = prev ] && bin=$D/gpugrep-prev
  /usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $bin -j16 "$@" -r $dir > $O/ans.txt
  echo "$name $b $(cat $O/t.txt) answer $(awk -F: '{s += $NF} END {print s + 0}' $O/ans.txt)" >> $S; }
for r in 1 2 3; do
  for b in prev new; do
    for n in 1000 10000; do
      t "prose-$n-gpu" $b /dev/shm/rw --engine gpu -c -F -f /dev/shm/rw.words-$n.txt
      t "prose-$n-auto" $b /dev/shm/rw -c -F -f /dev/shm/rw.words-$n.txt
    done
  done
done
rm -rf /dev/shm/rw
mkdir -p /dev/shm/rules
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
$D/gpugrep-corpus --kind logs --out /dev/shm/rules/logs-16G --size 16G --files 64 >> $S 2>&1
for r in 1 2; do
  for b in prev new; do
    for n in 1000 10000; do
      t "rules-$n-gpu" $b /dev/shm/rules/logs-16G --engine gpu -c -E -f /dev/shm/rules/rules-$n.txt
      t "rules-$n-auto" $b /dev/shm/rules/logs-16G -c -E -f /dev/shm/rules/rules-$n.txt
    done
  done
done
rm -f $O/t.txt $O/ans.txt
cat $S
