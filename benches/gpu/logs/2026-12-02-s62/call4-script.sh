#!/usr/bin/env bash
# session 62, call 4: -T through the GPU engine: `--engine gpu` against
# `--engine cpu` (c0c4276, .dev1/pack2.tar.xz), outputs compared by md5,
# over 1 GiB of logs in 16 files and 1 GiB of prose with byte-order marks
# and CRLF in 64 files (gen-prose.py), 1,000 and 100 words.
set -u
D=/tmp/d2; mkdir -p $D && tar -C $D -xJf .dev1/pack2.tar.xz
G=$D/dev/gpugrep; S=$OUT/summary.txt; E=/dev/shm/t
echo "commit $(cat $D/commit)" > $S
mkdir -p $E
$D/dev/gpugrep-corpus --kind logs --out $E/logs --size 1G --files 16 > $OUT/gen.txt 2>&1
python3 benches/gpu/gen-prose.py $D/words $E/prose 1 64 >> $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* | tr '\n' ' ')" >> $S
export LC_ALL=C.UTF-8
check() { # dir, args...
  local dir=$1; shift
  a=$($G --engine cpu -j16 -r "$@" $dir | md5sum | cut -c1-12)
  b=$($G --engine gpu -j16 -r "$@" $dir 2>$OUT/err.txt | md5sum | cut -c1-12)
  n=$($G --engine cpu -j16 -r "$@" $dir | wc -l)
  used=$($G --engine gpu --stats -j16 -r "$@" $dir 2>&1 >/dev/null | grep -m1 -iE "^engine|kernel" | tr '\n' ' ')
  echo "$([ $a = $b ] && echo same || echo DIFF) cpu $a gpu $b lines $n | $* | $used" >> $S
}
for dir in $E/logs $E/prose; do
  check $dir -T -n -F -f $D/w1000.txt
  check $dir -T -H -b -F -f $D/w1000.txt
  check $dir -T -n -o -F -f $D/w100.txt
  check $dir -T -n -b -C1 -F -f $D/w100.txt
  check $dir -T -c -F -f $D/w1000.txt
  check $dir -T -n -E 'ERROR|FATAL|[Tt]imeout'
done
echo "done after $SECONDS s" >> $S
cat $S
