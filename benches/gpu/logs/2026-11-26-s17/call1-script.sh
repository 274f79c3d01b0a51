#!/usr/bin/env bash
# ad hoc (session 17, prepared in 16): sparse -n over split files, this session's build
# (.dev/gpugrep, fe1d86a) against 84d78e4 (.dev/gpugrep-prev) and rg, alternating;
# then the everyday matrix at 16 threads.
set -u
O=$OUT; B=/dev/shm/big8
t() { local tag=$1; shift; timeout 60 /usr/bin/time -f "$tag %e s, user %U sys %S, %M KB, faults %R" "$@" > /dev/null 2>>$O/time.txt; }
nproc > $O/machine.txt; nvidia-smi --query-gpu=name --format=csv,noheader >> $O/machine.txt
.dev/gpugrep-corpus --kind logs --out $B --size 1G --files 8 > $O/corpus.txt 2>&1
for a in "-n -F ERROR" "-n -F INFO"; do
  for g in gpugrep gpugrep-prev; do echo "$g $a $(.dev/$g --engine cpu -j16 -r $a $B | md5sum)" >> $O/md5.txt; done
  echo "rg $a $(.dev/rg -j1 --sort path -n $a $B | md5sum)" >> $O/md5.txt
done
for round in 1 2 3; do
  for a in "-n -F ERROR" "-n -F INFO"; do
    t "r$round new  $a" .dev/gpugrep --engine cpu -j16 -r $a $B
    t "r$round prev $a" .dev/gpugrep-prev --engine cpu -j16 -r $a $B
    t "r$round rg   $a" .dev/rg -j16 $a $B
  done
done
rm -rf $B
GPUGREP=.dev/gpugrep CORPUS=.dev/gpugrep-corpus RG=.dev/rg UGREP= TREE_TARBALL=.dev/tree.tar.xz THREADS=16 LOGS_SIZE=1G timeout 420 benches/everyday /dev/shm/ev --reps 5 --timeout 5 --no-grep > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
