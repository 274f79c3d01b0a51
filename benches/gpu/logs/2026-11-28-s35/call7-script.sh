#!/usr/bin/env bash
# session 35, call 7 (16 cores): issue 17's main row unchanged? -h -c of
# 1,000 rules (no -i, no -w) over 16 GiB of CI logs in 64 files, head
# (57b652d) and the session's last code (f418457), 4 rounds alternating.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
L=/dev/shm/logs; R=/dev/shm/rules
T() { timeout 30 /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null; echo "rc $? $(tail -1 $O/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $O/ans.txt)"; }
for r in 1 2 3 4; do
  for b in head new; do
    echo "16G -c 1000 $b auto: $(T $D/gpugrep-$b -j16 -h -c -E -f $R/rules-1000.txt -r $L)" >> $S
  done
done
cat $S
