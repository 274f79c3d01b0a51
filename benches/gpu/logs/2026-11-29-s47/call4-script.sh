#!/usr/bin/env bash
# session 47, call 4: call 3's build plus PACED_MARGIN (a regex's
# automaton starts CUDA only where the CPU engine would take 1.5 times the
# GPU's time). Auto against the CPU engine at 4 and 8 GiB of loghub (64
# files), 16 GiB of loghub in files of 1 MiB (--shape small: the pace is
# known early) and 16 GiB of CI logs, two rounds; the GPU alone once.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
for z in 8G 4G; do
  python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size $z > $X/real.txt 2>&1
done
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G --shape small >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
ls $W >> $S
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied\|GPU not started\|GPU started' $X/err.txt | sed 's/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | tr '\n' ' ' | head -c 200)" >> $S
}
G=$D/gpugrep
for L in $W/loghub-4G $W/loghub-8G $W/loghub-16G-small /dev/shm/ci; do
  echo "== $L" >> $S
  for p in '[0-9a-f]{40}' '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+'; do
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
echo "all done after $SECONDS s" >> $S
cat $S
