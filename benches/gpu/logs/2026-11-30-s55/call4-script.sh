#!/usr/bin/env bash
# session 55, call 4 (a diagnosis; no code landed): where the printer's
# time goes in dense output from one flat directory at 16 threads: perf of
# bom8 `-n -F the` into /dev/null (the printing thread is the main one),
# and the same into a file on /dev/shm; rg beside it.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
mkdir -p $E/logs $E/many $E/big && echo x > $E/logs/ci.log
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
mkdir -p $E/bom8 && (cd $E/bom && for f in *; do cat "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" > $E/bom8/"$f"; done)
echo "corpora after $SECONDS s" >> $S
G="$D/gpugrep --engine cpu -j16 -r -n -F the $E/bom8"
timeout 60 perf record -g -o $X/p.data $G > /dev/null 2> $X/perr.txt
echo "perf rc $? $(tail -1 $X/perr.txt)" >> $S
perf report -i $X/p.data --no-children --sort tid,sym --stdio 2>/dev/null | grep -v '^$' | grep -E '^ +[0-9.]+%' | head -60 > $O/perf-tid-sym.txt
perf report -i $X/p.data --no-children --sort tid --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' | head -20 > $O/perf-tid.txt
for r in 1 2 3; do
  for t in "gg|$G" "rg|$D/rg --no-config -uu -a -j16 -n -F the $E/bom8"; do
    IFS='|' read -r name cmd <<< "$t"
    /usr/bin/time -f "%e s %U u %S sys %M KB" $cmd > /dev/null 2> $X/e.txt; echo "$name null r$r: $(tail -1 $X/e.txt)" >> $S
    /usr/bin/time -f "%e s %U u %S sys %M KB" $cmd > /dev/shm/out.txt 2> $X/e.txt; echo "$name file r$r: $(tail -1 $X/e.txt) $(wc -c < /dev/shm/out.txt) bytes" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S; head -30 $O/perf-tid.txt
