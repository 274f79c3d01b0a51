#!/usr/bin/env bash
# session 45, call 3 (16 cores): -w's boundaries in the GPU's automata
# (new, 951b89c) against ec88be9 (base) and rg over other
# shapes of loghub: mixed files, 1 MiB files, CRLF, BOM + CRLF; -w -i, -w -v.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G --shape mix > $X/mix.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 4G --shape small > $X/small.txt 2>&1
L=$W/loghub-16G
# 16 files of 256 MiB (one a system) with CRLF, and the same with a BOM.
mkdir -p /dev/shm/crlf /dev/shm/bom
for f in $L/*-0.log; do
  b=$(basename $f)
  sed 's/$/\r/' $f > /dev/shm/crlf/$b
  { printf '\xef\xbb\xbf'; cat /dev/shm/crlf/$b; } > /dev/shm/bom/$b
done
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied' $X/err.txt | sed 's/ready after.*//' | head -c 150) $(grep -h 'fallback' $X/err.txt | head -c 150)" >> $S
}
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for c in $W/loghub-16G-mix $W/loghub-4G-small /dev/shm/crlf /dev/shm/bom; do
  n=$(basename $c)
  for v in base new; do
    t "$n templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $c --stats
  done
  t "$n templates -w -c rg" $D/rg -j16 -w -c --no-filename -f $T $c
done
for v in base new; do
  t "templates -w -i -c auto $v" ${!v} -j16 -h -w -i -c -E -f $T -r $L --stats
  t "templates -w -v -c auto $v" ${!v} -j16 -h -w -v -c -E -f $T -r $L --stats
  ${!v} -j16 -h -w -n -E -f $T -r /dev/shm/bom | md5sum | sed "s/^/md5 bom templates -w -n auto $v /" >> $S
  ${!v} -j16 -h -w -c -E -f $T -r $W/loghub-4G-small | md5sum | sed "s/^/md5 small templates -w -c auto $v /" >> $S
done
t "templates -w -i -c rg" $D/rg -j16 -w -i -c --no-filename -f $T $L
echo "all done after $SECONDS s" >> $S
cat $S
