#!/usr/bin/env bash
# session 51, call 4: the build to keep (thread-local caches of one map per
# type; a clear line finder race decided after 256 KiB each) against base
# 30f6ab5: tree-call's time at 16 threads (benches/cpu-time.py), the hunt,
# the walked rows of benches/everyday, the real packs' -n through auto (1
# GiB), and the GPU suites that confirm with the CPU's regexes.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
E=/dev/shm/ev
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  LOGS_SIZE=1G MANY_SIZE=400M BIG_SIZE=1G timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $X/gen.txt 2>&1
echo "corpora after $SECONDS s" >> $S
C="'\w+->\w+\(|\w+\.\w+\('"
echo "tree-call -j16" >> $S
timeout 60 python3 benches/cpu-time.py --rounds 15 new="$D/gpugrep --engine cpu -j 16 -r -c -E $C $E/tree" \
  base="$D/gg-base --engine cpu -j 16 -r -c -E $C $E/tree" rg="$D/rg --no-config -uu -a -j 16 -c $C $E/tree" >> $S 2>&1
$D/gpugrep --engine cpu --stats -j16 -r -c -E "\w+->\w+\(|\w+\.\w+\(" $E/tree 2>&1 >/dev/null | grep -i "race" >> $S
for b in gpugrep gg-base; do
  timeout 120 benches/run --cases benches/cases-regex-hunt.tsv --corpus logs=$E/logs/ci.log --corpus tree=$E/tree \
    --corpus bom=$E/bom --corpus loghub=/dev/shm/real/loghub-1G --gpugrep $D/$b --gpugrep-args "--engine cpu -j 16" \
    --rg $D/rg --rg-threads 16 --no-grep --reps 3 --locale C.UTF-8 --out $O/hunt-$b.tsv > $X/hunt-$b.log 2>&1
  echo "hunt $b: rc $? after $SECONDS s" >> $S
  grep -i "geomean" $X/hunt-$b.log | head -3 >> $S
done
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 \
  timeout 100 benches/everyday $E --only '^(many|tree|bom)' --reps 3 --timeout 10 --no-grep --out $O/everyday-gpugrep.tsv > $X/ev.log 2>&1
echo "everyday gpugrep: rc $? after $SECONDS s" >> $S
grep -i "geomean\|peak" $X/ev.log | head -4 >> $S
awk -F'\t' '$3 !~ /^rg/ && $8+0 < 1.0 && NR > 1 {print "  below 1.0:", $1, $4, $8, $14}' $O/everyday-gpugrep.tsv >> $S
L=/dev/shm/real/loghub-1G
for p in "templates -E" "gitleaks -P"; do
  set -- $p
  echo "$1 -n auto, 1 GiB (md5 of output per build below)" >> $S
  timeout 90 python3 benches/cpu-time.py --rounds 3 new="$D/gpugrep -j 16 -h -n $2 -f /dev/shm/real/rules-$1.txt -r $L" \
    base="$D/gg-base -j 16 -h -n $2 -f /dev/shm/real/rules-$1.txt -r $L" >> $S 2>&1
  for b in gpugrep gg-base; do echo "  $b $($D/$b -j 16 -h -n $2 -f /dev/shm/real/rules-$1.txt -r $L | md5sum)" >> $S; done
done
echo "packs done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_end_to_end gpu_differential gpu_rule_split; do
  timeout 120 $D/$t --test-threads=8 --nocapture > $X/$t.txt 2>&1
  echo "$t: rc $? after $SECONDS s $(grep -h 'test result' $X/$t.txt | tr '\n' ' ') $(grep -hE 'mismatch|skipped' $X/$t.txt | head -3 | tr '\n' ' ' | head -c 300)" >> $S
done
GPUGREP_TEST_ENGINE=gpu timeout 90 $D/rule_packs --test-threads=8 > $X/rule_packs.txt 2>&1
echo "rule_packs (gpu): rc $? $(grep -h 'test result' $X/rule_packs.txt)" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
