#!/usr/bin/env bash
# session 58, call 1: benches/gpu/check-all.sh at f16f7e3 (12.9's cubins),
# with loghub's Proxifier log and templates packed (pack-dev.sh LOGHUB=...),
# so gpu_rule_split's regression runs on the real log; never run on a
# device before (session 57 had no device time left).
set -u
mkdir -p /tmp/d && tar -C /tmp/d -xJf .dev1/pack.tar.xz
rm -rf .dev && ln -s /tmp/d/dev .dev
export PATH=/tmp/d/dev:$PATH LD_LIBRARY_PATH=/tmp/d/dev/lib
start=$SECONDS
OUT=$OUT/check timeout 570 bash benches/gpu/check-all.sh > $OUT/check-all.txt 2>&1
echo "check-all rc $? after $((SECONDS-start)) s" >> $OUT/check-all.txt
grep -h "test result\|skip" $OUT/check/rule-split.log | head -20 >> $OUT/check-all.txt
cat $OUT/check-all.txt
