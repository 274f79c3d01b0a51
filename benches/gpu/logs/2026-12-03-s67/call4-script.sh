#!/usr/bin/env bash
# session 67, call 4: rows whose line finder is raced, the warm-up
# (dev/gpugrep, 89921f4's code) against dev/gpugrep-base (12083e6) and rg
# at 16 threads, 15 rounds each, as far as the call's time allows.
set -u
source benches/gpu/logs/2026-12-03-s67/setup.sh
B=$D/dev/gpugrep-base
row() { # corpus, arguments (rg's the same without -E)
  local c=$1 a=$2
  (( SECONDS < 400 )) || { echo "== $c $a skipped: time" >> $S; return; }
  echo "== $c $a" >> $S
  timeout 40 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r $a $E/$c" \
    base="$B --engine cpu -j16 -r $a $E/$c" rg="$RG --no-config -uu -a -j16 ${a/-E /} $E/$c" >> $S 2>&1
  sh -c "$G --engine cpu -j16 --stats -r $a $E/$c" 2>&1 >/dev/null | grep 'line finder race' >> $S
}
row tree "-c -E '\\w+@\\w+\\.\\w+'"
row tree "-o -E '\\w+_lock\\('"
row tree "-c -x -E '\\s*\\}\\s*'"
row tree "-c -E '\\w+->\\w+\\(|\\w+\\.\\w+\\('"
row tree "-c -E '([0-9]{1,3}\\.){3}[0-9]{1,3}'"
row bom "-o -E '[A-Z][a-z]+ing'"
row bom "-c -E '[[:space:]]+\$'"
row bom "-c -E '\\w+@\\w+\\.\\w+'"
row logs "-c -E '[0-9a-f]{40}'"
row logs "-c -E '[0-9]{2}:[0-9]{2}:[0-9]{2}'"
row logs "-c -E '[A-Z]+_SUSPEND'"
row many "-c -E '([0-9]{1,3}\\.){3}[0-9]{1,3}'"
echo "done after $SECONDS s" >> $S
cat $S
