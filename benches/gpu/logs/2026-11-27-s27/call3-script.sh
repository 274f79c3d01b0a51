#!/usr/bin/env bash
# session 27, call 3 (H100, nvidia-h100-x1): the multi kernel alone, D
# (8596bd3), G (call 1) and G2 (G's 4 words queued together only when they
# fit the queue, else word by word); gpu_differential and its memcheck at
# G2; rule packs over 16 GiB of CI logs (64 files), -c and -n with 1,000
# and 10,000 rules, this session's gpugrep (G2, new tally, auto's one-byte
# rule only for -l/-L/-q) against 8596bd3 ("prev"), --stats of each GPU
# run, rg -j16 once for the 1,000-rule -c; then auto over the prose of
# call 2 with 10,000 words: -c, -v -c, -l.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/kb; python3 benches/gpu/logs/2026-11-27-s26/prose-block.py $D/words $W
for v in D G G2 D G G2; do
  echo "== $v" >> $O/bench.txt
  $D/kb-$v --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns\|^resident" >> $O/bench.txt
done
for v in D G2; do
  echo "== $v fold" >> $O/bench.txt
  $D/kb-$v --fold --multi $W/words-1000.txt --multi $W/words-10000.txt --text $W/prose.txt --gib 4 --reps 9 2>&1 | grep -v "^GPU 0\|^patterns\|^resident" >> $O/bench.txt
done
rm -rf $W
cat $O/bench.txt >> $S
export GPUGREP_BIN=$D/gpugrep
timeout 200 $D/gpu_differential --test-threads=8 > $O/diff.txt 2>&1; echo "rc $?" >> $O/diff.txt
GPUGREP_DIFF_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_multi gpu_tally gpu_line > $O/memcheck.txt 2>&1; echo "rc $?" >> $O/memcheck.txt
grep -h "differential\|test result\|rc \|ERROR SUMMARY" $O/diff.txt $O/memcheck.txt >> $S
bash benches/gpu/logs/2026-11-27-s27/call3-rules.sh
rm -rf /dev/shm/rules
python3 benches/gpu/gen-prose.py $D/words /dev/shm/rw 16 20000 > /dev/null
for r in 1 2 3; do
  for o in "-c" "-v -c" "-l"; do
    /usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $D/gpugrep -j16 $o -F -f /dev/shm/rw.words-10000.txt -r /dev/shm/rw > $O/ans.txt
    echo "prose-10000-auto $o $(cat $O/t.txt) answer $(awk -F: '{s += $NF} END {print s + 0}' $O/ans.txt) lines $(wc -l < $O/ans.txt)" >> $S
  done
done
$D/gpugrep -j16 --stats -c -F -f /dev/shm/rw.words-10000.txt -r /dev/shm/rw > /dev/null 2> $O/stats-prose-auto.txt
cat $O/stats-prose-auto.txt >> $O/stats.txt; rm -f $O/stats-prose-auto.txt $O/t.txt $O/ans.txt
cat $S
