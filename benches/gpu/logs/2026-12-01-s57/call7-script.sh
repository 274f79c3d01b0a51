#!/usr/bin/env bash
# session 57, call 7: the new regression test tile_counts_hold_where_lanes_
# own_no_line_start on the GPU: with gpugrep (12.9 cubins), and with
# gg-diag (12.0 cubins) with its recount off (GPUGREP_DIAG_NORECOUNT=1):
# the code before session 56's workaround, which it must catch.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev2/pack.tar.xz
export GPUGREP_LOGHUB=$D/lh GPUGREP_TEMPLATES=$D/rules-templates.txt
for b in gpugrep gg-diag; do
  GPUGREP_DIAG_NORECOUNT=1 GPUGREP_BIN=$D/$b $D/t/gpu_rule_split --test-threads 1 tile_counts > $O/test-$b.txt 2>&1
  echo "$b rc $?: $(grep -h 'test result' $O/test-$b.txt)"
  grep -h "^-\|^+\|panicked\|skipped" $O/test-$b.txt | head -5
done
