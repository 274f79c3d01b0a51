#!/usr/bin/env bash
# session 45, call 5 (16 cores): the scan for byte-order marks inside files
# beside the GPU's search instead of before it (new) against ec88be9 (base):
# the templates' -w -c over 16 GiB of loghub, 16 files with CRLF and a BOM
# each, and those with a BOM starting a line inside one file.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
mkdir -p /dev/shm/bom /dev/shm/inside
for f in $L/*-0.log; do
  b=$(basename $f)
  { printf '\xef\xbb\xbf'; sed 's/$/\r/' $f; } > /dev/shm/bom/$b
done
cp /dev/shm/bom/* /dev/shm/inside/
awk 'NR == 5000 { printf "\xef\xbb\xbf" } { print }' /dev/shm/bom/Linux-0.log > /dev/shm/inside/Linux-0.log
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied' $X/err.txt | sed 's/ready after.*//' | head -c 150) $(grep -h 'fallback' $X/err.txt | head -c 200)" >> $S
}
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2 3; do
  t "templates -w -c auto new (16 GiB)" $new -j16 -h -w -c -E -f $T -r $L --stats
done
t "templates -c auto new (16 GiB)" $new -j16 -h -c -E -f $T -r $L --stats
for c in /dev/shm/bom /dev/shm/inside; do
  n=$(basename $c)
  t "$n templates -w -c auto new" $new -j16 -h -w -c -E -f $T -r $c --stats
  for v in base new; do
    ${!v} -j16 -w -n -E -f $T -r $c | md5sum | sed "s/^/md5 $n templates -w -n auto $v /" >> $S
    ${!v} -j16 -w -c -E -f $T -r $c | md5sum | sed "s/^/md5 $n templates -w -c auto $v /" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
