#!/usr/bin/env bash
# session 53, call 2: past the far bound one file at a time under one lock
# (queue/behind.rs: take_wanted, take_earliest_file; nothing taken out of
# the queue to be looked at), with the call-1 changes. new = that build
# (one front place a worker); gg-fr = the same with the places from
# GG_FRONTS and counters (GG_COUNT); base = b3f2c24; rg. The 936 MB flat
# directory at 16 and 8 threads; the BOM prose, flat and in directories of
# 1,000; 10,000 words -n over 4 GiB of prose in 5,000 files (session 28's
# case for the front places) into a pipe.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
i=0; for f in $E/bom/*; do d=$E/bomsplit/d$((i / 1000)); mkdir -p $d; ln "$f" $d/; i=$((i + 1)); done
python3 benches/gpu/gen-prose.py $D/words /dev/shm/rw 4 5000 > $X/gen-prose.txt 2>&1
echo "corpora after $SECONDS s" >> $S
for f in 16 64; do for r in 1 2; do
  echo "fronts $f: $(GG_FRONTS=$f GG_COUNT=1 $D/gg-fr --engine cpu -j 16 -r -n -F the $E/bom8 2>&1 >/dev/null)" >> $O/counted.txt
done; done
for row in "bom8 j16|16|-n -F the $E/bom8" "bom8 j8|8|-n -F the $E/bom8" "bom j16|16|-n -F the $E/bom" \
  "split j16|16|-n -F the $E/bomsplit"; do
  IFS='|' read -r name j a <<< "$row"
  echo "== $name: $a" >> $S
  timeout 90 python3 benches/cpu-time.py --rounds 5 base="$D/gg-base --engine cpu -j $j -r $a" \
    new="$D/gpugrep --engine cpu -j $j -r $a" f64="GG_FRONTS=64 $D/gg-fr --engine cpu -j $j -r $a" \
    f256="GG_FRONTS=256 $D/gg-fr --engine cpu -j $j -r $a" rg="$D/rg --no-config -uu -a -j $j $a" >> $S 2>&1
done
W=/dev/shm/rw.words-10000.txt
echo "== rw 10000 -n j16 into a pipe" >> $S
timeout 150 python3 benches/cpu-time.py --rounds 3 base="$D/gg-base --engine cpu -j16 -r -n -F -f $W /dev/shm/rw | cat" \
  new="$D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/rw | cat" \
  f64="GG_FRONTS=64 $D/gg-fr --engine cpu -j16 -r -n -F -f $W /dev/shm/rw | cat" \
  rg="$D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/rw | cat" >> $S 2>&1
for v in gg-base gpugrep; do echo "md5 bom8 -n the j16 $v: $($D/$v --engine cpu -j 16 -r -n -F the $E/bom8 | md5sum | cut -c1-12)" >> $S; done
echo "md5 bom8 -n the j16 f64: $(GG_FRONTS=64 $D/gg-fr --engine cpu -j 16 -r -n -F the $E/bom8 | md5sum | cut -c1-12)" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
