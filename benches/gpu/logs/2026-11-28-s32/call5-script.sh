#!/usr/bin/env bash
# session 32, call 5 (16 cores): search threads printing GPU-searched
# files nicer than the pipeline's lanes and readers (run::gpu::
# yield_to_pipeline). old = 771715f (call 4's new), n3 / n10 = this
# change with PRINTING_NICE 3 / 10. 16 GiB of CI logs in 64 files, -h
# into /dev/null, auto, 3 rounds alternating: 1,000 and 10,000 rules -n;
# -c of 1,000 rules once each; md5; the per-chunk trace of n3's 10,000.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
L=/dev/shm/logs
$D/gpugrep-old -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for b in old n3 n10; do
    for n in 1000 10000; do
      echo "auto -n $n rules $b: $(T $D/gpugrep-$b -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
for b in old n3 n10; do
  echo "auto -c 1000 rules $b: $(T $D/gpugrep-$b -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L)" >> $S
done
for b in old n3; do
  for n in 1000 10000; do
    $D/gpugrep-$b -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L | md5sum | sed "s/^/md5 rules $n $b /" >> $S
  done
done
GPUGREP_GPU_TRACE=1 $D/gpugrep-n3 --debug -j16 -h -n -E -f /dev/shm/rules/rules-10000.txt -r $L 2> $O/trace-n10000-n3.txt > /dev/null
grep "packer waited\|gpu stages" $O/trace-n10000-n3.txt >> $S
cat $S
