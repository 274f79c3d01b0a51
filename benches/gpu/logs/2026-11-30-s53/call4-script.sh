#!/usr/bin/env bash
# session 53, call 4: the final build (new: calls 1-2's changes, and the
# front places: one a worker, and up to 1,024 while those searched hold
# less than 16 MiB of output) against base = b3f2c24 and rg: the 936 MB
# flat directory at 16, 8 and 4 threads, and at 16 into a pipe; the BOM
# prose, flat and in directories of 1,000; 10,000 words -n over 4 GiB of
# prose in 5,000 files into a pipe; CI logs (4 GiB in 64 files) -n -w
# INFO; the tree's -n, -l.
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
$D/gpugrep-corpus --kind logs --size 4G --files 64 --out /dev/shm/ci > $X/gen-ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
for row in "bom8 j16|16|-n -F the $E/bom8" "bom8 j8|8|-n -F the $E/bom8" "bom8 j4|4|-n -F the $E/bom8" \
  "bom j16|16|-n -F the $E/bom" "split j16|16|-n -F the $E/bomsplit" "ci j16|16|-n -w -F INFO /dev/shm/ci" \
  "tree-n j16|16|-n -F return $E/tree" "tree-l j16|16|-l -F return $E/tree"; do
  IFS='|' read -r name j a <<< "$row"
  echo "== $name: $a" >> $S
  timeout 90 python3 benches/cpu-time.py --rounds 5 base="$D/gg-base --engine cpu -j $j -r $a" \
    new="$D/gpugrep --engine cpu -j $j -r $a" rg="$D/rg --no-config -uu -a -j $j $a" >> $S 2>&1
done
echo "== bom8 j16 into a pipe" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 5 base="$D/gg-base --engine cpu -j16 -r -n -F the $E/bom8 | cat" \
  new="$D/gpugrep --engine cpu -j16 -r -n -F the $E/bom8 | cat" rg="$D/rg --no-config -uu -a -j16 -n -F the $E/bom8 | cat" >> $S 2>&1
W=/dev/shm/rw.words-10000.txt
echo "== rw 10000 -n j16 into a pipe" >> $S
timeout 120 python3 benches/cpu-time.py --rounds 3 base="$D/gg-base --engine cpu -j16 -r -n -F -f $W /dev/shm/rw | cat" \
  new="$D/gpugrep --engine cpu -j16 -r -n -F -f $W /dev/shm/rw | cat" \
  rg="$D/rg --no-config -uu -a -j16 -n -F -f $W /dev/shm/rw | cat" >> $S 2>&1
for v in gg-base gpugrep; do
  echo "md5 $v: bom8 $($D/$v --engine cpu -j 16 -r -n -F the $E/bom8 | md5sum | cut -c1-12) ci $($D/$v --engine cpu -j 16 -r -n -w -F INFO /dev/shm/ci | md5sum | cut -c1-12) rw $($D/$v --engine cpu -j16 -r -n -F -f $W /dev/shm/rw | md5sum | cut -c1-12)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
