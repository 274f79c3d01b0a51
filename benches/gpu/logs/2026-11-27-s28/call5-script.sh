#!/usr/bin/env bash
# session 28, call 5 (16 cores): the final build (front rule in the
# ordered walk; listed inputs hand files back to waiting workers; auto's
# gate for a literal set's printed lines). 8 GiB of prose in 10,000
# BOM+CRLF files (860 KB each, as the 16 GiB rows).
set -u
O=$OUT; D=/tmp/d
rm -rf $D; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
C=/dev/shm/rw8
python3 benches/gpu/gen-prose.py $D/words $C 8 10000 > $O/gen.txt 2>&1
t() {
    local l=$1 how=$2; shift 2
    /usr/bin/time -f "%e s %U u %S s %M KB" -o $O/t.txt "$@" 2>$O/err.txt | $how > $O/n.txt
    echo "$l | $(cat $O/t.txt) | answer $(cat $O/n.txt) | $(grep -E 'GPU started|GPU not started' $O/err.txt | cut -c1-120)"
}
count() { awk -F: '{s += $NF} END {print s + 0}'; }
lines() { wc -l; }
G=$D/gpugrep; RG="$D/rg --no-config -uu -a -j16"
{
W=$C.words-1000.txt
t "1000 -n auto" lines $G --debug -j16 -r -n -F -f $W $C
t "1000 -n cpu" lines $G --engine cpu -j16 -r -n -F -f $W $C
t "1000 -n gpu" lines $G --engine gpu -j16 -r -n -F -f $W $C
t "1000 -n rg" lines $RG -n -F -f $W $C
t "1000 -o auto" lines $G --debug -j16 -r -o -F -f $W $C
t "1000 -o cpu" lines $G --engine cpu -j16 -r -o -F -f $W $C
t "1000 -c auto" count $G --debug -j16 -r -c -F -f $W $C
W=$C.words-10000.txt
t "10000 -n auto" lines $G --debug -j16 -r -n -F -f $W $C
t "10000 -n cpu" lines $G --engine cpu -j16 -r -n -F -f $W $C
t "10000 -n rg" lines $RG -n -F -f $W $C
t "10000 -c auto" count $G --debug -j16 -r -c -F -f $W $C
t "10000 -o auto" lines $G --debug -j16 -r -o -F -f $W $C
} > $O/runs.txt 2>&1
cat $O/runs.txt
