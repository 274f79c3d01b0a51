#!/usr/bin/env bash
# session 52, call 7 (a diagnosis): call 6 found -n of a frequent word
# over the BOM prose at 16 threads 0.69x rg (0.085 against 0.059 s), peak
# 49-55 MB against 13. The bound on output waiting (GPUGREP_LEAD_BYTES
# 64 MiB, 16 MiB, 4 MiB), 8 threads, and rg's own --sort path.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=64M MANY_SIZE=64M BIG_SIZE=64M timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
i=0; for f in $E/bom/*; do d=$E/bomsplit/d$((i / 1000)); mkdir -p $d; ln "$f" $d/; i=$((i + 1)); done
echo "corpora after $SECONDS s" >> $S
for d in bom bomsplit; do
  a="-n -F the $E/$d"
  echo "== $d: $a" >> $S
  timeout 100 python3 benches/cpu-time.py --rounds 9 new16="$D/gpugrep --engine cpu -j 16 -r $a" \
    lead16m="GPUGREP_LEAD_BYTES=16777216 $D/gpugrep --engine cpu -j 16 -r $a" \
    lead4m="GPUGREP_LEAD_BYTES=4194304 $D/gpugrep --engine cpu -j 16 -r $a" \
    new8="$D/gpugrep --engine cpu -j 8 -r $a" pipe16="$D/gpugrep --engine cpu -j 16 -r $a | cat" \
    rg16="$D/rg --no-config -uu -a -j 16 $a" rg8="$D/rg --no-config -uu -a -j 8 $a" \
    rgsort="$D/rg --no-config -uu -a -j 16 --sort path $a" rgpipe="$D/rg --no-config -uu -a -j 16 $a | cat" >> $S 2>&1
done
echo "all done after $SECONDS s" >> $S
cat $S
