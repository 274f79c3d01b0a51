#!/usr/bin/env bash
# session 59, call 5: the option-combination hunt (never run at 16 threads)
# and the regex hunt at 16 threads on the host, 12698dc against rg, 5 reps
# (benches/run, no GNU grep, no ugrep), then their rows below 1.0 again,
# 15 rounds alternating (benches/cpu-time.py) while time is left.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; G=$D/dev/gpugrep; RG=$D/dev/rg
echo "commit $(cat $D/commit)" > $S
mkdir -p $E/many $E/big
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 120 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
timeout 60 python3 benches/rules/real.py --gitleaks /dev/null --loghub $D/loghub --out /dev/shm/rp --size 1G >> $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* /dev/shm/rp/loghub-1G | tr '\n' ' ')" >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 120 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
timeout 120 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
  --corpus bom=$E/bom --corpus loghub=/dev/shm/rp/loghub-1G "${common[@]}" --out $OUT/regex16.tsv > $OUT/regex16.txt 2>&1
echo "regex hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/regex16.tsv >> $S
for t in option16 regex16; do
  python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/$t.tsv --below 1.0 --commands
done | while IFS=$'\t' read -r case gg rg; do
  (( SECONDS > 370 )) && break
  echo "== $case" >> $S
  timeout 40 python3 benches/cpu-time.py --rounds 15 gpugrep="$gg" rg="$rg" >> $S 2>&1
done
echo "done after $SECONDS s" >> $S
cat $S
