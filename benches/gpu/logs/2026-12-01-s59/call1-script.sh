#!/usr/bin/env bash
# session 59, call 1: benches/gpu/check-all.sh whole at 9a3dd48 (the kernels
# of 37c7c04, 12.9's cubins; the CLI suites in two chains), with loghub's
# Proxifier log and templates packed. Logs tarred: a call returns 8 files.
set -u
mkdir -p /tmp/d && tar -C /tmp/d -xJf .dev1/pack.tar.xz
rm -rf .dev && ln -s /tmp/d/dev .dev
export PATH=/tmp/d/dev:$PATH LD_LIBRARY_PATH=/tmp/d/dev/lib
start=$SECONDS
OUT=/tmp/check timeout 585 bash benches/gpu/check-all.sh > $OUT/check-all.txt 2>&1
echo "check-all rc $? after $((SECONDS-start)) s" >> $OUT/check-all.txt
cp /tmp/check/summary.txt $OUT/summary.txt 2>/dev/null
grep -h "test result\|skip" /tmp/check/rule-split.log | head -20 >> $OUT/check-all.txt
for f in /tmp/check/*.log; do echo "== $(basename $f): $(grep -h '^test result' $f | tr '\n' ' ')"; done >> $OUT/check-all.txt
tar -C /tmp -czf $OUT/check-logs.tar.gz check
cat $OUT/check-all.txt
