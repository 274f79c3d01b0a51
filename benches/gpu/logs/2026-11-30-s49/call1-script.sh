#!/usr/bin/env bash
# session 49, call 1: alternations found by a rare byte every branch holds,
# a regex's confirm and DFA trimmed where only lines count (c5ead08)
# against base (gg-base: a36d656). The everyday matrix's regex rows and
# the new alternation rows at 16 threads (benches/everyday, 3 runs, rg -j16
# beside), base then new; then the e-mail pair over 16 GiB of loghub:
# auto, CPU engine, GPU, base's CPU engine and auto, rg -j16.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
for b in gg-base gpugrep; do
  GPUGREP=$D/$b CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 240 benches/everyday $E \
    --only '(-re-|alt|email|hash|ipv4|-o$)' --reps 3 --no-grep --out $O/everyday-$b.tsv > $O/everyday-$b.log 2>&1
  echo "everyday $b: rc $? after $SECONDS s" >> $S
done
rm -rf $E
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
echo "loghub after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h 'probed\|lines found' $X/err.txt | sed 's/.*probed: //; s/.*lines found by //' | sort -u | tr '\n' ' ' | head -c 200)" >> $S
}
P=benches/gpu/logs/2026-11-30-s48/pmail.txt
L=$W/loghub-16G
find $L -type f | sort > $X/files.txt
for r in 1 2 3; do
  t "pair auto r$r" $D/gpugrep --debug -j16 -h -c -E -f $P --files-from $X/files.txt
  t "pair cpu r$r" $D/gpugrep --debug --engine cpu -j16 -h -c -E -f $P --files-from $X/files.txt
  t "pair gpu r$r" $D/gpugrep --engine gpu -j16 -h -c -E -f $P --files-from $X/files.txt
  t "pair base cpu r$r" $D/gg-base --engine cpu -j16 -h -c -E -f $P --files-from $X/files.txt
  t "pair base auto r$r" $D/gg-base -j16 -h -c -E -f $P --files-from $X/files.txt
  t "pair rg r$r" $D/rg -j16 -c --no-filename -f $P $L
  t "kv cpu r$r" $D/gpugrep --debug --engine cpu -j16 -h -c -E '[a-z]+=[0-9]+|[A-Z]+=[a-z]+' --files-from $X/files.txt
  t "kv base cpu r$r" $D/gg-base --engine cpu -j16 -h -c -E '[a-z]+=[0-9]+|[A-Z]+=[a-z]+' --files-from $X/files.txt
  t "kv rg r$r" $D/rg -j16 -c --no-filename '[a-z]+=[0-9]+|[A-Z]+=[a-z]+' $L
done
echo "all done after $SECONDS s" >> $S
cat $S
