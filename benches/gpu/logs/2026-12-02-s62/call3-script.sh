#!/usr/bin/env bash
# session 62, call 3 (call 2's machine, warm): the matrix rows below 1.0 in
# call 2, 15 rounds alternating, 9795025 (dev/gpugrep) / 44b49a4
# (dev/gpugrep-head) / rg, 16 threads.
set -u
source benches/gpu/logs/2026-12-02-s62/setup.sh
H=$D/dev/gpugrep-head
row() { # name, dir, gpugrep args, rg args
  echo "== $1" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r $3 $2" \
    head="$H --engine cpu -j16 -r $3 $2" rg="$RG --no-config -uu -a -j16 $4 $2" >> $S 2>&1
}
row bom-alt-email $E/bom "-c -E '\w+@\w+\.\w+|\w+@\w+\.(com|org|net)'" "-c '\w+@\w+\.\w+|\w+@\w+\.(com|org|net)'"
row tree-alt3 $E/tree "-c -E 'TODO|FIXME|XXX'" "-c 'TODO|FIXME|XXX'"
row tree-ctx $E/tree "-C2 -F 'BUG_ON(!'" "-C2 -F 'BUG_ON(!'"
row many-n $E/many "-n FATAL" "-n FATAL"
row many-i-ascii $E/many "-c -i 'connection timeout'" "-c -i 'connection timeout'"
echo "done after $SECONDS s" >> $S
cat $S
