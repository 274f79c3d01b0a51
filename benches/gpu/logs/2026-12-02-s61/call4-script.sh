#!/usr/bin/env bash
# session 61, call 4: a split file's map against reading its pieces on the
# host: big-n-sparse and big-n-dense (8 logs of 128 MiB) with the map
# judged as now (default), always mapped (GPUGREP_MAP_PAGEWISE=0) and
# always read (=1), dev/gpugrep (42838d1), at 16 and 2 threads, 9 rounds
# alternating with rg; minor faults tell how many pages a fault maps.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; G=$D/dev/gpugrep; RG=$D/dev/rg
echo "commit $(cat $D/commit)" > $S
mkdir -p $E
[[ -d $E/big ]] || $D/dev/gpugrep-corpus --kind logs --out $E/big --size 1G --files 8 > $OUT/gen.txt 2>&1
export LC_ALL=C.UTF-8
for J in 16 2; do
  for o in "-n -F ERROR" "-n -F INFO" "-c -F ERROR"; do
    echo "== $o -j$J" >> $S
    timeout 100 python3 benches/cpu-time.py --rounds 9 def="$G --engine cpu -j$J -r $o $E/big" \
      map="GPUGREP_MAP_PAGEWISE=0 $G --engine cpu -j$J -r $o $E/big" \
      read="GPUGREP_MAP_PAGEWISE=1 $G --engine cpu -j$J -r $o $E/big" \
      rg="$RG --no-config -uu -a -j$J $o $E/big" >> $S 2>&1
  done
done
echo "done after $SECONDS s" >> $S
cat $S
