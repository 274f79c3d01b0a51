#!/usr/bin/env bash
# session 69, call 6: the rows below 1.0 in call 5's matrix (3 reps) again
# at 11 rounds, new (gathered writes) against base (73ec6e9) and rg, into
# /dev/null; and `-n -w the` over the BOM prose with the byte bound on
# waiting output raised to 256 MiB (GPUGREP_LEAD_BYTES), against rg.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
N=$D/dev/gpugrep-new; B=$G
row() { # name, gpugrep args, rg args
  echo "== $1" >> $S
  timeout 40 python3 benches/cpu-time.py --rounds 11 new="$N --engine cpu -j16 $2" \
    base="$B --engine cpu -j16 $2" rg="$RG --no-config -uu -a -j16 $3" >> $S 2>&1
}
row "bom -c -i linux" "-r -c -i linux $E/bom" "-c -i linux $E/bom"
row "bom -o -E '[A-Z][a-z]+ing'" "-r -o -E '[A-Z][a-z]+ing' $E/bom" "-o '[A-Z][a-z]+ing' $E/bom"
row "many -l FATAL" "-r -l FATAL $E/many" "-l FATAL $E/many"
row "tree -C2 -F 'BUG_ON(!'" "-r -C2 -F 'BUG_ON(!' $E/tree" "-C2 -F 'BUG_ON(!' $E/tree"
row "tree -c -E '\\w+_t\\b'" "-r -c -E '\\w+_t\\b' $E/tree" "-c '\\w+_t\\b' $E/tree"
echo "== bom -n -w the, bound 256M" >> $S
timeout 40 python3 benches/cpu-time.py --rounds 11 new="$N --engine cpu -j16 -r -n -w the $E/bom" \
  l256="GPUGREP_LEAD_BYTES=256M $N --engine cpu -j16 -r -n -w the $E/bom" \
  rg="$RG --no-config -uu -a -j16 -n -w the $E/bom" >> $S 2>&1
echo "done after $SECONDS s" >> $S
cat $S
