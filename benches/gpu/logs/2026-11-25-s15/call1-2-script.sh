#!/usr/bin/env bash
# ad hoc (session 15): the 16 GiB walk, new against b4eee49 and rg.
set -u
O=$OUT; D=/dev/shm/rules/logs-16G
nproc > $O/nproc.txt
if [ ! -d $D ]; then ( time .dev/gpugrep-corpus --kind logs --out $D --size 16G --files 64 ) > $O/corpus.txt 2>&1; fi
ls -laR $D | sort -k5 -n | tail -3 >> $O/corpus.txt
big=$(ls -S $D/*/*.log $D/*.log 2>/dev/null | head -1); echo "big $big" >> $O/corpus.txt
t() { local tag=$1; shift; timeout 60 /usr/bin/time -f "$tag %e s, user %U sys %S, %M KB, faults %R" "$@" > $O/out.$$ 2>>$O/time.txt; echo "$tag md5 $(md5sum < $O/out.$$ | cut -c1-12)" >> $O/time.txt; }
for round in 1 2; do
 for a in "-n -F INFO" "-n -F ERROR" "-c -F INFO"; do
  t "r$round new   $a" .dev/gpugrep --engine cpu -j16 -h $a -r $D
  t "r$round b4ee  $a" .dev/gpugrep-prev --engine cpu -j16 -h $a -r $D
  t "r$round rg    $a" .dev/rg -j16 --sort path --no-filename $a $D
 done
 for a in "-n -F INFO" "-n -F ERROR"; do
  t "r$round one-new  $a" .dev/gpugrep --engine cpu -j16 $a $big
  t "r$round one-b4ee $a" .dev/gpugrep-prev --engine cpu -j16 $a $big
  t "r$round one-rg   $a" .dev/rg -j16 $a $big
 done
 t "r$round gpu-new  -n rules" .dev/gpugrep --engine gpu -j16 -h -n -E -f .dev/rules-1000.txt -r $D
 t "r$round gpu-b4ee -n rules" .dev/gpugrep-prev --engine gpu -j16 -h -n -E -f .dev/rules-1000.txt -r $D
done
rm -f $O/out.$$
