#!/usr/bin/env bash
# session 59, call 6: where `-o -w -E '[a-z]+ing'` over the BOM prose spends
# its user time at 16 threads (call 5: 0.095 s against rg's 0.055, user 0.79
# against 0.34 s; 2 threads on the dev VM 1.09x rg): the same with -j 4/8/16,
# without -w, without -o; perf's profile at -j16 if the host has perf.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; G=$D/dev/gpugrep; RG=$D/dev/rg
mkdir -p $E/many $E/big $E/logs && echo x > $E/logs/ci.log
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 90 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/bom)" > $S
B=$E/bom; export LC_ALL=C.UTF-8
for j in 16 8 4; do
  echo "== -o -w, -j$j" >> $S
  timeout 30 python3 benches/cpu-time.py --rounds 5 gpugrep="$G --engine cpu -j $j -r -o -w -E '[a-z]+ing' $B" \
    rg="$RG --no-config -uu -a -j $j -o -w '[a-z]+ing' $B" >> $S 2>&1
done
echo "== -j16 -o (no -w), -c -w, -n -w" >> $S
timeout 40 python3 benches/cpu-time.py --rounds 5 o="$G --engine cpu -j 16 -r -o -E '[a-z]+ing' $B" \
  rg-o="$RG --no-config -uu -a -j 16 -o '[a-z]+ing' $B" cw="$G --engine cpu -j 16 -r -c -w -E '[a-z]+ing' $B" \
  rg-cw="$RG --no-config -uu -a -j 16 -c -w '[a-z]+ing' $B" nw="$G --engine cpu -j 16 -r -n -w -E '[a-z]+ing' $B" \
  rg-nw="$RG --no-config -uu -a -j 16 -n -w '[a-z]+ing' $B" >> $S 2>&1
if command -v perf >/dev/null; then
  timeout 30 perf record -g -o /tmp/p.data $G --engine cpu -j 16 -r -o -w -E '[a-z]+ing' $B > /dev/null 2>$OUT/perf-rec.txt
  timeout 40 perf report -i /tmp/p.data --no-children --sort symbol 2>/dev/null | grep -v '^#' | grep '%' | head -60 > $OUT/perf-ow16.txt
  timeout 30 perf report -i /tmp/p.data --no-children --sort comm,dso 2>/dev/null | grep -v '^#' | grep '%' | head -20 >> $OUT/perf-ow16.txt
else echo "no perf" >> $S; fi
echo "done after $SECONDS s" >> $S
cat $S
