#!/usr/bin/env bash
# session 48, call 5: the session's last build (48fb7ed: the bound at 448 MiB a thread,
# 7 GiB at 16). Auto (two runs) against the CPU engine and the GPU alone;
# -j16 -h -c; 4 GiB of CI logs (now under the bound), 8 GiB of loghub in 64
# files and in 1 MiB files, and of CI logs; then gpu_start, gpu_automaton.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
for z in 4G 8G; do
  python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size $z > $X/real.txt 2>&1
  python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size $z --shape small >> $X/real.txt 2>&1
  $D/gpugrep-corpus --kind logs --size $z --files 64 --out /dev/shm/ci-$z > $X/ci.txt 2>&1
done
ls $W >> $S
echo "corpora after $SECONDS s" >> $S
G=$D/gpugrep
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h 'probed\|tallied\|GPU not started\|GPU started\|engine: cpu' $X/err.txt | sed 's/.*probed: //; s/gpugrep: debug: //; s/ bytes in \([0-9]*\) chunks.*(0 dense, searched by the CPU; \([0-9]*\) tallied on the GPU), \([0-9]*\) files.*;/: \1 chunks, \2 tallied, \3 files;/' | sort -u | tr '\n' ' ' | head -c 260)" >> $S
}
P=benches/gpu/logs/2026-11-30-s48
for L in /dev/shm/ci-4G $W/loghub-8G $W/loghub-8G-small /dev/shm/ci-8G; do
  echo "== $L" >> $S
  find $L -type f | sort > $X/files.txt
  for f in p3 p10 p30 pmail; do
    for r in 1 2; do
      t "$f auto r$r" $G --debug --stats -j16 -h -c -E -f $P/$f.txt --files-from $X/files.txt
    done
    t "$f cpu" $G --engine cpu -j16 -h -c -E -f $P/$f.txt --files-from $X/files.txt
    t "$f gpu" $G --engine gpu -j16 -h -c -E -f $P/$f.txt --files-from $X/files.txt
  done
done
rm -rf /dev/shm/real /dev/shm/ci-*
export GPUGREP_BIN=$D/gpugrep
for t in gpu_start gpu_automaton; do
  timeout 120 $D/$t --test-threads=8 --nocapture > $O/$t.txt 2>&1
  echo "$t: rc $? after $SECONDS s $(grep -h 'test result' $O/$t.txt | tr '\n' ' ') $(grep -hE 'cases|mismatches|skipped' $O/$t.txt | tr '\n' ' ' | head -c 300)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
