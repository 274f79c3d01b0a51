#!/usr/bin/env bash
# session 28, call 6 (16 cores): the everyday matrix's printed rows on the
# corpora the ordered walk's change may touch (8 large logs: dense and
# sparse -n, -o; 100,000 small logs: -n), fcec6c0 ("old") against 4ece212
# ("new"), both --engine cpu -j16, and rg -j16; two runs each, into wc -l.
set -u
O=$OUT; D=/tmp/d
rm -rf $D; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
E=/dev/shm/ev; mkdir -p $E
$D/gpugrep-corpus --kind logs --out $E/big --size 1G --files 8 > /dev/null 2>&1
$D/gpugrep-corpus --kind logs --out $E/many --size 400M --files 100000 > /dev/null 2>&1
{
for c in "big -n -F INFO" "big -n -F ERROR" "big -o -F INFO" "many -n FATAL"; do
    set -- $c; d=$E/$1; shift
    for b in old new rg; do
        for r in 1 2; do
            case $b in
                rg) cmd=($D/rg --no-config -uu -a -j16 "$@" $d) ;;
                *) cmd=($D/gpugrep-$b --engine cpu -j16 -r "$@" $d) ;;
            esac
            /usr/bin/time -f "%e s %M KB" -o $O/t.txt "${cmd[@]}" | wc -l > $O/n.txt
            echo "$c | $b | $(cat $O/t.txt) | lines $(cat $O/n.txt)"
        done
    done
done
} > $O/runs.txt 2>&1
cat $O/runs.txt
