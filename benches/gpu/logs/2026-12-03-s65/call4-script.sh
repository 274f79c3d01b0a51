#!/usr/bin/env bash
# session 65, call 4 (call 3's machine, warm): the everyday matrix's rows
# below 1.0 in call 3 (literals and regexes the session's finders do not
# reach), 15 rounds, e2a5987 against fefb3d7 and rg.
set -u
source benches/gpu/logs/2026-12-03-s65/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
}
row "tree -n -F 'spin_lock_irqsave(&ctx'" "-r -n -F 'spin_lock_irqsave(&ctx' $E/tree" "-n -F 'spin_lock_irqsave(&ctx' $E/tree"
row "tree -c -i todo" "-r -c -i todo $E/tree" "-c -i todo $E/tree"
row "tree -c -x -F '}'" "-r -c -x -F '}' $E/tree" "-c -x -F '}' $E/tree"
row "tree -c -E 'TODO|FIXME|XXX'" "-r -c -E 'TODO|FIXME|XXX' $E/tree" "-c -E 'TODO|FIXME|XXX' $E/tree"
row "tree -c -E '\\w+_t\\b'" "-r -c -E '\\w+_t\\b' $E/tree" "-c -E '\\w+_t\\b' $E/tree"
row "many -n -F 'error[E0659]'" "-r -n -F 'error[E0659]' $E/many" "-n -F 'error[E0659]' $E/many"
echo "done after $SECONDS s" >> $S
cat $S
