#!/usr/bin/env bash
# session 28, call 7 (16 cores): the other half of auto's rule for printed
# lines: 1,000 rare words (gen-prose's vocabulary ranks 30,000 on, 9
# letters or more: rare-1000.txt in the pack; a selected line in about
# 2.3 KB) over 16 GiB of prose in 20,000 files, `-n` and `-o` on both
# engines, auto and rg. Build 4ece212.
set -u
O=$OUT; D=/tmp/d
rm -rf $D; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
C=/dev/shm/rw
python3 benches/gpu/gen-prose.py $D/words $C 16 20000 > /dev/null 2>&1
W=$D/rare-1000.txt; G=$D/gpugrep
{
for m in -n -o; do
    for tool in gpu cpu auto rg; do
        case $tool in
            rg) cmd=($D/rg --no-config -uu -a -j16 $m -F -f $W $C) ;;
            auto) cmd=($G --stats -j16 -r $m -F -f $W $C) ;;
            *) cmd=($G --engine $tool -j16 -r $m -F -f $W $C) ;;
        esac
        /usr/bin/time -f "%e s %M KB" -o $O/t.txt "${cmd[@]}" 2>$O/err.txt | wc -l > $O/n.txt
        echo "$m | $tool | $(cat $O/t.txt) | lines $(cat $O/n.txt) | $(grep -E '^gpu: ' $O/err.txt | sed 's/.*; //')"
    done
done
} > $O/runs.txt 2>&1
cat $O/runs.txt
