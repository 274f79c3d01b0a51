#!/usr/bin/env bash
# session 60, call 3: the GPU CLI suites (`check-all.sh cli`: end to end,
# real-world files, cli_patterns, rule_packs and the rest under
# GPUGREP_TEST_ENGINE=gpu) on 9831fad's -w matcher (pack-dev.sh's build).
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
rm -rf .dev && ln -s $D/dev .dev
echo "commit $(cat $D/commit)" > $OUT/commit.txt
bash benches/gpu/check-all.sh cli > $OUT/check-all.txt 2>&1
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
cat $OUT/summary.txt
