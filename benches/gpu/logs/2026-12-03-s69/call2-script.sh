#!/usr/bin/env bash
# session 69, call 2: where the time of `-n -w the` over the BOM prose
# (20,516 files in one directory) goes at 16 threads: dev/gpugrep-x is
# 73ec6e9 with the printer timed (XTRACE: the run, the wait for the
# directory's listing, the first file printed) and packing switchable
# (XNOPACK); against -c, -l and rg.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
X=$D/dev/gpugrep-x
for i in 1 2 3 4 5; do XTRACE=1 $X -r -j16 -n -w the $E/bom 2>>$S >/dev/null; done
echo "-- XNOPACK" >> $S
for i in 1 2 3 4 5; do XNOPACK=1 XTRACE=1 $X -r -j16 -n -w the $E/bom 2>>$S >/dev/null; done
echo "-- tree -n struct" >> $S
for i in 1 2 3; do XTRACE=1 $X -r -j16 -n -F struct $E/tree 2>>$S >/dev/null; done
echo "-- ls -f, find" >> $S
python3 benches/cpu-time.py --rounds 5 lsf="ls -f $E/bom" find="find $E/bom -maxdepth 1" >> $S 2>&1
python3 benches/cpu-time.py --rounds 7 n="$X -r -j16 -n -w the $E/bom" nopack="XNOPACK=1 $X -r -j16 -n -w the $E/bom" \
  c="$X -r -j16 -c -w the $E/bom" l="$X -r -j16 -l -w the $E/bom" \
  rg="$RG --no-config -uu -a -j16 -n -w the $E/bom" rgc="$RG --no-config -uu -a -j16 -c -w the $E/bom" >> $S 2>&1
echo "done after $SECONDS s" >> $S
cat $S
