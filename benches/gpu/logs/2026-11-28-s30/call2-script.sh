#!/usr/bin/env bash
# session 30, call 2 (H100 host, same builds as call 1): 400,000 files of
# 43 KB (BOM, CRLF). (a) The listing's time (--stats "inputs listed"),
# old (sizes read after the walk) against new (read by the walking
# threads), --engine gpu -c 1,000 words, 4 rounds alternating; the new
# listing at -j1/4/8/16 and rg --files; (b) -n 1,000 words: auto against
# the CPU engine (call 1: 7.52 against 6.77 s), new and old auto, 3 rounds
# alternating, into wc -l.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/many 16 400000 > /dev/null
W=/dev/shm/many.words-1000.txt
for r in 1 2 3 4; do
  for b in old new; do
    bin=$D/gpugrep; [[ $b == old ]] && bin=$D/gpugrep-old
    $bin --engine gpu -j16 --stats -r -c -F -f $W /dev/shm/many 2>&1 >/dev/null | grep -E "listed|seconds$" | tr '\n' ' ' | sed "s/^/listing $b: /" >> $S; echo >> $S
  done
done
for j in 1 4 8 16; do
  $D/gpugrep --engine gpu -j$j --stats -r -c -F -f $W /dev/shm/many 2>&1 >/dev/null | grep -E "listed" | sed "s/^/new -j$j: /" >> $S
done
for r in 1 2; do
  /usr/bin/time -f "rg --files -j16: %e s" -o $O/t.txt $D/rg --no-config -uu -j16 --files /dev/shm/many | wc -l > $O/n.txt; echo "$(cat $O/t.txt) files $(cat $O/n.txt)" >> $S
done
for r in 1 2 3; do
  for b in new-auto new-cpu old-auto; do
    bin=$D/gpugrep; [[ $b == old-* ]] && bin=$D/gpugrep-old
    /usr/bin/time -f "%e s %M KB" -o $O/t.txt $bin --engine ${b#*-} -j16 -r -n -F -f $W /dev/shm/many | wc -l > $O/n.txt
    echo "400k -n 1000 $b: $(cat $O/t.txt) lines $(cat $O/n.txt)" >> $S
  done
done
$D/gpugrep -j16 --stats --debug -r -n -F -f $W /dev/shm/many 2>$O/auto-n-stats.txt | wc -l >/dev/null
cat $S; grep -v "^gpugrep: debug: patterns" $O/auto-n-stats.txt | head -30
