#!/usr/bin/env bash
# session 48, call 3: the session's verdict rules (CPU alone only where
# probed twice as fast, CUDA at once with the CPU waiting from 1.75 times,
# else shared; samples picked across the list's period). Auto two runs
# and the GPU alone per pack over 16 GiB of loghub (64 files), CI logs,
# loghub in 1 MiB files; then the GPU test suites (gpu_end_to_end with the
# time it needs, gpu_automaton, gpu_start).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G --shape small >> $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
echo "corpora after $SECONDS s" >> $S
G=$D/gpugrep
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h 'probed\|tallied\|GPU not started\|GPU started' $X/err.txt | sed 's/.*probed: //; s/gpugrep: debug: //; s/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | sort -u | tr '\n' ' ' | head -c 260)" >> $S
}
P=benches/gpu/logs/2026-11-30-s48
for L in $W/loghub-16G /dev/shm/ci $W/loghub-16G-small; do
  echo "== $L" >> $S
  find $L -type f | sort > $X/files.txt
  for f in p3 p10 p30 pmail; do
    for r in 1 2; do
      t "$f auto r$r" $G --debug --stats -j16 -h -c -E -f $P/$f.txt --files-from $X/files.txt
    done
    t "$f gpu" $G --engine gpu -j16 -h -c -E -f $P/$f.txt --files-from $X/files.txt
    t "$f cpu" $G --engine cpu -j16 -h -c -E -f $P/$f.txt --files-from $X/files.txt
  done
done
rm -rf /dev/shm/real /dev/shm/ci
echo "benchmarks done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
for t in gpu_start gpu_automaton gpu_end_to_end; do
  timeout 300 $D/$t --test-threads=8 --nocapture > $O/$t.txt 2>&1
  echo "$t: rc $? after $SECONDS s $(grep -h 'test result' $O/$t.txt | tr '\n' ' ') $(grep -hE 'cases|mismatches|skipped' $O/$t.txt | tr '\n' ' ' | head -c 400)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
