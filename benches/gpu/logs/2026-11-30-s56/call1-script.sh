#!/usr/bin/env bash
# session 56, call 1: a large directory's streamed listing held back once
# enough output waits (scratch knobs GG_STREAM_HOLD bytes, GG_STREAM_BATCH
# files a streamed batch; unset = as at 04f250a). bom8 and the BOM prose
# `-n -F the`, bom8 `-c`, 16 and 8 threads, into /dev/null, 5 rounds
# (benches/cpu-time.py), md5 of the outputs; the everyday matrix's BOM rows
# for base and two variants.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
echo "corpora after $SECONDS s: bom $(ls $E/bom | wc -l) files $(du -sm $E/bom | cut -f1) MB, bom8 $(du -sm $E/bom8 | cut -f1) MB" >> $S
G=$D/gpugrep
for row in "bom8-n j16|16|-n -F the $E/bom8" "bom-n j16|16|-n -F the $E/bom" "bom8-n j8|8|-n -F the $E/bom8"; do
  IFS='|' read -r name j a <<< "$row"
  echo "== $name: $a" >> $S
  timeout 120 python3 benches/cpu-time.py --rounds 5 base="$G --engine cpu -j $j -r $a" \
    h4m="GG_STREAM_HOLD=4194304 $G --engine cpu -j $j -r $a" \
    h16m="GG_STREAM_HOLD=16777216 $G --engine cpu -j $j -r $a" \
    h4m-b32="GG_STREAM_HOLD=4194304 GG_STREAM_BATCH=32 $G --engine cpu -j $j -r $a" \
    h16m-b32="GG_STREAM_HOLD=16777216 GG_STREAM_BATCH=32 $G --engine cpu -j $j -r $a" \
    h4m-l32m="GG_STREAM_HOLD=4194304 GPUGREP_LEAD_BYTES=32M $G --engine cpu -j $j -r $a" \
    rg="$D/rg --no-config -uu -a -j $j $a" >> $S 2>&1
done
echo "== bom8-c j16" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 5 base="$G --engine cpu -j 16 -r -c -F the $E/bom8" \
  h4m="GG_STREAM_HOLD=4194304 $G --engine cpu -j 16 -r -c -F the $E/bom8" \
  rg="$D/rg --no-config -uu -a -j 16 -c -F the $E/bom8" >> $S 2>&1
for v in "" "GG_STREAM_HOLD=4194304" "GG_STREAM_HOLD=4194304 GG_STREAM_BATCH=32"; do
  echo "md5 [$v]: bom8 $(env $v $G --engine cpu -j16 -r -n -F the $E/bom8 | md5sum | cut -c1-12) bom $(env $v $G --engine cpu -j16 -r -n -F the $E/bom | md5sum | cut -c1-12) j1 $($G --engine cpu -j1 -r -n -F the $E/bom8 | md5sum | cut -c1-12)" >> $S
done
echo "benches after $SECONDS s" >> $S
for v in base h4m h4m-b32; do
  case $v in base) env=();; h4m) env=(GG_STREAM_HOLD=4194304);; h4m-b32) env=(GG_STREAM_HOLD=4194304 GG_STREAM_BATCH=32);; esac
  env "${env[@]}" GPUGREP=$G CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
    timeout 110 benches/everyday $E --only '^bom' --reps 5 --no-grep > $O/everyday-bom-$v.txt 2>&1
  echo "everyday $v rc $? after $SECONDS s" >> $S
done
cat $S; for v in base h4m h4m-b32; do tail -16 $O/everyday-bom-$v.txt; done
