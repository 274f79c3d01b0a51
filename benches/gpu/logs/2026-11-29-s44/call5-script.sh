#!/usr/bin/env bash
# session 44, call 5: rule_packs (with the -w and forced -x cases of
# anchored_packs_answer_where_their_dfa_gives_up) under the GPU and auto
# engines, at 375981f.
set -u
O=$OUT; D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
export GPUGREP_BIN=$D/gpugrep
for e in gpu auto; do
  GPUGREP_TEST_ENGINE=$e timeout 200 $D/rule_packs --test-threads=4 > $O/rp-$e.log 2>&1
  echo "rule_packs ($e) rc $? $(grep 'test result' $O/rp-$e.log)" >> $O/summary.txt
done
cat $O/summary.txt
