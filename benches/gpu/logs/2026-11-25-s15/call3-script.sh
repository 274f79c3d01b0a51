#!/usr/bin/env bash
# ad hoc (session 15): walk A/B again, then the everyday matrix at 16 threads.
set -u
O=$OUT; D=/dev/shm/rules/logs-16G
t() { local tag=$1; shift; timeout 60 /usr/bin/time -f "$tag %e s, user %U sys %S, %M KB, faults %R" "$@" > /dev/null 2>>$O/time.txt; }
for round in 1 2 3; do
 for a in "-n -F INFO" "-n -F ERROR"; do
  t "r$round new  $a" .dev/gpugrep --engine cpu -j16 -h $a -r $D
  t "r$round b4ee $a" .dev/gpugrep-prev --engine cpu -j16 -h $a -r $D
 done
done
t "rg -j16 -n -F INFO" .dev/rg -j16 --no-filename -n -F INFO $D
t "rg -j16 -n -F ERROR" .dev/rg -j16 --no-filename -n -F ERROR $D
rm -rf /dev/shm/rules
GPUGREP=.dev/gpugrep CORPUS=.dev/gpugrep-corpus RG=.dev/rg UGREP= TREE_TARBALL=.dev/tree.tar.xz THREADS=16 LOGS_SIZE=1G timeout 420 benches/everyday /dev/shm/ev --reps 5 --timeout 5 --no-grep > $O/everyday-16.txt 2>&1
