#!/usr/bin/env bash
# session 28, call 1 (H100 host, 16 cores): why the CPU engine's 10,000-word
# -n over prose took 3x rg's time on 16 cores (session 27, call 8). A build
# of fcec6c0 with printer/throttle timers on stderr ("throttle ...",
# "printer waited ..."); 4 GiB of prose in 5,000 BOM+CRLF files.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; free -g; } > $O/machine.txt 2>&1
python3 benches/gpu/gen-prose.py $D/words /dev/shm/rw 4 5000 > $O/gen.txt 2>&1
C=/dev/shm/rw; G=$D/gpugrep
t() { # label, command... : output through wc -l
    local l=$1; shift
    /usr/bin/time -f "%e s %U u %S s %M KB %w vol %c invol" -o $O/t.txt "$@" 2>$O/err.txt | wc -l > $O/n.txt
    echo "$l | $(cat $O/t.txt) | lines $(cat $O/n.txt) | $(grep -E 'throttle|printer' $O/err.txt | tr '\n' ' ')"
}
tn() { # same, output to /dev/null
    local l=$1; shift
    /usr/bin/time -f "%e s %U u %S s %M KB %w vol %c invol" -o $O/t.txt "$@" 2>$O/err.txt >/dev/null
    echo "$l | $(cat $O/t.txt) | $(grep -E 'throttle|printer' $O/err.txt | tr '\n' ' ')"
}
W=$C.words-10000.txt; W1=$C.words-1000.txt
{
t "10000 -n cpu j16 wc" $G --engine cpu -j16 -r -n -F -f $W $C
t "10000 -n rg j16 wc" $D/rg --no-config -uu -a -j16 -n -F -f $W $C
tn "10000 -n cpu j16 null" $G --engine cpu -j16 -r -n -F -f $W $C
tn "10000 -n rg j16 null" $D/rg --no-config -uu -a -j16 -n -F -f $W $C
t "10000 -n cpu j16 wc again" $G --engine cpu -j16 -r -n -F -f $W $C
t "10000 -n cpu j8 wc" $G --engine cpu -j8 -r -n -F -f $W $C
t "10000 -n cpu j4 wc" $G --engine cpu -j4 -r -n -F -f $W $C
t "10000 -n cpu j15 wc" $G --engine cpu -j15 -r -n -F -f $W $C
t "10000 -n cpu j16 lead512M wc" env GPUGREP_LEAD_BYTES=512M $G --engine cpu -j16 -r -n -F -f $W $C
t "10000 -n cpu j16 leadfiles64 wc" env GPUGREP_LEAD_FILES=64 $G --engine cpu -j16 -r -n -F -f $W $C
t "10000 -c cpu j16" $G --engine cpu -j16 -r -c -F -f $W $C
t "1000 -n cpu j16 wc" $G --engine cpu -j16 -r -n -F -f $W1 $C
t "1000 -n rg j16 wc" $D/rg --no-config -uu -a -j16 -n -F -f $W1 $C
t "1000 -o cpu j16 wc" $G --engine cpu -j16 -r -o -F -f $W1 $C
t "1000 -o rg j16 wc" $D/rg --no-config -uu -a -j16 -o -F -f $W1 $C
t "1000 -o gpu j16 wc" $G --engine gpu -j16 -r -o -F -f $W1 $C
t "1000 -o auto j16 wc" $G -j16 -r -o -F -f $W1 $C
} > $O/runs.txt 2>&1
$G --engine gpu --stats -j16 -r -o -F -f $W1 $C 2>$O/stats-gpu-o.txt | wc -l >> $O/stats-gpu-o.txt
$G --stats -j16 -r -o -F -f $W1 $C 2>$O/stats-auto-o.txt | wc -l >> $O/stats-auto-o.txt
cat $O/runs.txt
