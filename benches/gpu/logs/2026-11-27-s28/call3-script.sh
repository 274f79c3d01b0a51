#!/usr/bin/env bash
# session 28, call 3 (16 cores): the build with the ordered walk's front
# rule and auto's gate for printed matches; realworld.sh rows -n and -o
# (1,000 and 10,000 words, 16 GiB of prose in 20,000 BOM+CRLF files), then
# the lead's byte bound (GPUGREP_LEAD_BYTES) against peak memory.
set -u
O=$OUT; D=/tmp/d
rm -rf $D; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
rm -rf /dev/shm/rw /dev/shm/rw.*
mkdir -p $O/rw
OUT=$O/rw D=$D SETS="1000 10000" CASES="-n|-o" SIZE_GIB=16 FILES=20000 C=/dev/shm/rw bash benches/gpu/realworld.sh > $O/realworld.txt 2>&1
for f in $O/rw/rw-stats-*; do echo "== $f"; cat $f; done > $O/stats.txt 2>&1; rm -rf $O/rw
C=/dev/shm/rw; W=$C.words-10000.txt
for lb in 16M 32M 64M; do
    /usr/bin/time -f "%e s %U u %S s %M KB" -o $O/t.txt env GPUGREP_LEAD_BYTES=$lb $D/gpugrep --engine cpu -j16 -r -n -F -f $W $C | wc -l > $O/n.txt
    echo "lead $lb 10000 -n cpu: $(cat $O/t.txt) lines $(cat $O/n.txt)"
done >> $O/lead.txt 2>&1
$D/gpugrep --debug -j16 -r -o -F -f $C.words-1000.txt $C 2>&1 >/dev/null | grep -E "engine|GPU|gpu:" > $O/auto-o-debug.txt
cat $O/realworld.txt $O/lead.txt $O/auto-o-debug.txt
