#!/usr/bin/env bash
# session 67, call 2: the two BOM rows of call 1 again, 21 rounds, new
# (12083e6) against base (a0d81aa) and rg at 16 threads, with the race's
# --stats line of five runs each (through sh, the pattern quoted); the
# tree's 100-word alternation with benches/patterns/alt100-c.txt as
# rewritten this session (it held 100 "path:word" entries, none of which
# the tree holds), 15 rounds.
set -u
source benches/gpu/logs/2026-12-03-s67/setup.sh
B=$D/dev/gpugrep-base
row() { # name, gpugrep args, rg args
  local name=$1 ga=$2 ra=$3
  echo "== $name" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 21 new="$G --engine cpu -j16 $ga" \
    base="$B --engine cpu -j16 $ga" rg="$RG --no-config -uu -a -j16 $ra" >> $S 2>&1
  for i in 1 2 3 4 5; do
    sh -c "$G --engine cpu -j16 --stats $ga" 2>&1 >/dev/null | grep 'line finder race' >> $S
  done
}
row "bom -c -E '[A-Z]\\w+, [A-Z]\\w+'" "-r -c -E '[A-Z]\\w+, [A-Z]\\w+' $E/bom" "-c '[A-Z]\\w+, [A-Z]\\w+' $E/bom"
row "bom -o -E '[A-Z][a-z]+ing'" "-r -o -E '[A-Z][a-z]+ing' $E/bom" "-o '[A-Z][a-z]+ing' $E/bom"
row "tree -o -E '\\w+_lock\\('" "-r -o -E '\\w+_lock\\(' $E/tree" "-o '\\w+_lock\\(' $E/tree"
P=benches/patterns/alt100-c.txt
echo "== tree -c -E -f $P" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 15 new="$G --engine cpu -j16 -r -c -E -f $P $E/tree" \
  base="$B --engine cpu -j16 -r -c -E -f $P $E/tree" rg="$RG --no-config -uu -a -j16 -c -f $P $E/tree" >> $S 2>&1
$G --engine cpu -j16 -r -c -E -f $P $E/tree | sort | md5sum >> $S
$RG --no-config -uu -a -j16 -c -f $P $E/tree | sort | md5sum >> $S
echo "done after $SECONDS s" >> $S
cat $S
