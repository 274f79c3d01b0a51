#!/usr/bin/env bash
# session 33, call 6 (16 cores): does the allocator's purge of freed
# output memory cost issue 17's -n its page faults? 6312ae6 as built
# (mimalloc's purge delay set to 10 ms by main unless MIMALLOC_PURGE_DELAY
# is given) against MIMALLOC_PURGE_DELAY=100, 999
# and -1 (never purge); 999 stands for mimalloc's default, 1000, which main
# would take for its own default and set to 10. 16 GiB of CI logs in 64 files, 1,000 and 10,000
# rules, auto, -h -n into /dev/null, 3 rounds alternating.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
L=/dev/shm/logs
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
$D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-1000.txt -r $L > /dev/null
for r in 1 2 3; do
  for d in built 100 999 -1; do
    for n in 1000 10000; do
      case $d in built) E=();; *) E=(env MIMALLOC_PURGE_DELAY=$d);; esac
      echo "-n $n delay $d: $(T "${E[@]}" $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-$n.txt -r $L)" >> $S
    done
  done
done
MIMALLOC_PURGE_DELAY=-1 $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r $L | md5sum | sed "s/^/md5 -n 1000 delay -1 /" >> $S
cat $S
