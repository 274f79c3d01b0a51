#!/usr/bin/env bash
# session 69, call 4: packing output that waits for a large directory's
# listing (run::packed), at 16 threads into /dev/null: dev/gpugrep-x is
# 73ec6e9 with packing switchable (XNOPACK) or stopped once XPACKMAX
# bytes of output were packed; 11 rounds alternating, with rg.
set -u
rm -rf /tmp/d
source benches/gpu/logs/2026-12-03-s67/setup.sh
X=$D/dev/gpugrep-x
row() { # name, gpugrep args, rg args
  echo "== $1" >> $S
  timeout 100 python3 benches/cpu-time.py --rounds 11 pack="$X -j16 $2" nopack="XNOPACK=1 $X -j16 $2" \
    max8="XPACKMAX=8000000 $X -j16 $2" max16="XPACKMAX=16000000 $X -j16 $2" \
    rg="$RG --no-config -uu -a -j16 $3" >> $S 2>&1
}
row "bom -n -w the" "-r -n -w the $E/bom" "-n -w the $E/bom"
row "bom -n -F kernel" "-r -n -F kernel $E/bom" "-n -F kernel $E/bom"
row "bom -n -i -F linux" "-r -n -i -F linux $E/bom" "-n -i -F linux $E/bom"
row "bom -n -F the" "-r -n -F the $E/bom" "-n -F the $E/bom"
row "bom -o -w -E '[a-z]+ing'" "-r -o -w -E '[a-z]+ing' $E/bom" "-o -w '[a-z]+ing' $E/bom"
row "bom -c the" "-r -c the $E/bom" "-c the $E/bom"
echo "done after $SECONDS s" >> $S
cat $S
