#!/usr/bin/env bash
# session 28, call 2 (16 cores): the ordered walk's front rule (a thread
# past the far bound begins the earliest file not begun while fewer than
# one a worker wait; a waiting thread gives its task back) against the
# call-1 build (gpugrep-prev), both with the printer/throttle timers.
set -u
O=$OUT; D=/tmp/d
rm -rf $D; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
[[ -e /dev/shm/rw.words-10000.txt ]] || python3 benches/gpu/gen-prose.py $D/words /dev/shm/rw 4 5000 > $O/gen.txt 2>&1
C=/dev/shm/rw
t() {
    local l=$1; shift
    /usr/bin/time -f "%e s %U u %S s %M KB %w vol" -o $O/t.txt "$@" 2>$O/err.txt | wc -l > $O/n.txt
    echo "$l | $(cat $O/t.txt) | lines $(cat $O/n.txt) | $(grep -E 'throttle|printer|max waiting' $O/err.txt | tr '\n' ' ')"
}
W=$C.words-10000.txt; W1=$C.words-1000.txt
{
for r in 1 2; do
for b in gpugrep-prev gpugrep; do
t "10000 -n $b j16 wc" $D/$b --engine cpu -j16 -r -n -F -f $W $C
done; done
t "10000 -n rg j16 wc" $D/rg --no-config -uu -a -j16 -n -F -f $W $C
for b in gpugrep-prev gpugrep; do
t "1000 -n $b j16 wc" $D/$b --engine cpu -j16 -r -n -F -f $W1 $C
t "10000 -n $b j4 wc" $D/$b --engine cpu -j4 -r -n -F -f $W $C
t "10000 -n $b j8 wc" $D/$b --engine cpu -j8 -r -n -F -f $W $C
done
t "1000 -n rg j16 wc" $D/rg --no-config -uu -a -j16 -n -F -f $W1 $C
} > $O/runs.txt 2>&1
cat $O/runs.txt
