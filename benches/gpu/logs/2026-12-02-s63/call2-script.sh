#!/usr/bin/env bash
# session 63, call 2 (warm after call 1): bom-i-utf8 (below 1.0 at 3 reps
# in call 1's matrix) and tree -n -w int, 15 rounds.
source benches/gpu/logs/2026-12-02-s63/setup.sh; B=$D/dev/gpugrep-base
timeout 100 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r -c -i 'josé' $E/bom" base="$B --engine cpu -j16 -r -c -i 'josé' $E/bom" rg="$RG --no-config -uu -a -j16 -c -i 'josé' $E/bom" >> $S 2>&1
timeout 100 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r -n -w int $E/tree" base="$B --engine cpu -j16 -r -n -w int $E/tree" rg="$RG --no-config -uu -a -j16 -n -w int $E/tree" >> $S 2>&1
cat $S
