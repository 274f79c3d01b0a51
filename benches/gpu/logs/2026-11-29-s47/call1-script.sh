#!/usr/bin/env bash
# session 47, call 1: (a) tally.cu's word byte now common.cuh's is_word_byte
# (PTX and cubins regenerated): the tally's differential tests on the GPU and
# compute-sanitizer over them; (b) where an exact automaton alone (regexes
# without good literals) pays on the GPU: single everyday regexes and packs
# of 3, 10 and 30 literal-less regexes (call1-p*.txt), 16 GiB of loghub and
# of CI logs and 1 GiB / 256 MiB of loghub, `--engine cpu`, `--engine gpu`,
# rg, `-c`; `-n` into wc for two of them.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
timeout 120 $D/gpu_differential gpu_tally --test-threads=4 --nocapture > $O/gpu_differential.txt 2>&1; echo "gpu_differential tally: rc $? $(grep -h 'test result' $O/gpu_differential.txt); $(grep -h 'differential tally' $O/gpu_differential.txt | tr '\n' ' ')" >> $S
GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_tally > $O/memcheck-tally.txt 2>&1; echo "memcheck tally: rc $? $(grep -h 'ERROR SUMMARY' $O/memcheck-tally.txt | tr '\n' ' ')" >> $S
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G >> $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 256M >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'tallied' $X/err.txt | head -c 100)" >> $S
}
G=$D/gpugrep
for L in $W/loghub-16G /dev/shm/ci $W/loghub-1G $W/loghub-256M; do
  echo "== $L" >> $S
  for p in '[0-9a-f]{40}' '\w+@\w+\.\w+' '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+'; do
    t "'$p' cpu" $G --engine cpu -j16 -h -c -E "$p" -r $L
    t "'$p' gpu" $G --stats --engine gpu -j16 -h -c -E "$p" -r $L
    t "'$p' rg" $D/rg -j16 -c --no-filename "$p" $L
  done
  for f in p3 p10 p30; do
    t "$f cpu" $G --engine cpu -j16 -h -c -E -f $D/$f.txt -r $L
    t "$f gpu" $G --stats --engine gpu -j16 -h -c -E -f $D/$f.txt -r $L
    t "$f rg" $D/rg -j16 -c --no-filename -f $D/$f.txt $L
  done
done
L=$W/loghub-16G
for f in p3 p10; do
  for e in cpu gpu; do
    /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt bash -c "$G --engine $e -j16 -n -E -f $D/$f.txt -r $L | wc -l" > $X/ans.txt 2>&1
    echo "$f -n $e: $(tail -1 $X/t.txt) lines $(head -1 $X/ans.txt)" >> $S
  done
done
echo "all done after $SECONDS s" >> $S
cat $S
