#!/usr/bin/env bash
# session 28, call 4 (16 cores): the final build. Auto against both engines
# on the printed rows (-n, -o; 16 GiB of prose in 20,000 BOM+CRLF files,
# the corpus of call 3 when the machine kept it), auto's -c and -l (not
# printed: unchanged path), and --debug of auto's choice.
set -u
O=$OUT; D=/tmp/d
rm -rf $D; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
C=/dev/shm/rw
[[ -e $C.words-10000.txt ]] || python3 benches/gpu/gen-prose.py $D/words $C 16 20000 > $O/gen.txt 2>&1
t() {
    local l=$1 how=$2; shift 2
    /usr/bin/time -f "%e s %U u %S s %M KB" -o $O/t.txt "$@" 2>$O/err.txt | $how > $O/n.txt
    echo "$l | $(cat $O/t.txt) | answer $(cat $O/n.txt)"
}
count() { awk -F: '{s += $NF} END {print s + 0}'; }
lines() { wc -l; }
G=$D/gpugrep; RG="$D/rg --no-config -uu -a -j16"
{
for n in 1000 10000; do
  W=$C.words-$n.txt
  $G --debug -j16 -r -n -F -f $W $C 2>&1 >/dev/null | grep -E "engine|GPU" | sed "s/^/$n -n: /"
  /usr/bin/time -f "%e s" -o $O/t.txt $G --debug -j16 -r -o -F -f $W $C 2>&1 >/dev/null | grep -E "engine|GPU" | sed "s/^/$n -o: /"
  echo "$n -o auto --debug to /dev/null: $(cat $O/t.txt)"
done
W=$C.words-1000.txt
t "1000 -n auto" lines $G -j16 -r -n -F -f $W $C
t "1000 -n cpu" lines $G --engine cpu -j16 -r -n -F -f $W $C
t "1000 -n gpu" lines $G --engine gpu -j16 -r -n -F -f $W $C
t "1000 -n auto" lines $G -j16 -r -n -F -f $W $C
t "1000 -n cpu" lines $G --engine cpu -j16 -r -n -F -f $W $C
t "1000 -n gpu" lines $G --engine gpu -j16 -r -n -F -f $W $C
t "1000 -n rg" lines $RG -n -F -f $W $C
t "1000 -o auto" lines $G -j16 -r -o -F -f $W $C
t "1000 -o cpu" lines $G --engine cpu -j16 -r -o -F -f $W $C
t "1000 -c auto" count $G -j16 -r -c -F -f $W $C
t "1000 -l auto" lines $G -j16 -r -l -F -f $W $C
W=$C.words-10000.txt
t "10000 -n auto" lines $G -j16 -r -n -F -f $W $C
t "10000 -n cpu" lines $G --engine cpu -j16 -r -n -F -f $W $C
t "10000 -n rg" lines $RG -n -F -f $W $C
t "10000 -c auto" count $G -j16 -r -c -F -f $W $C
} > $O/runs.txt 2>&1
cat $O/runs.txt
