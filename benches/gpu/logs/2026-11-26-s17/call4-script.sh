#!/usr/bin/env bash
# ad hoc (session 17): this session's walk changes (123c686: files opened
# in their held directory, the lead widened after a streamed listing)
# against fe1d86a (.dev/gpugrep-prev) and rg on the host's low cases,
# alternating; the test executables fixed in call 3 under the GPU engine;
# then the everyday matrix at 16 threads.
set -u
O=$OUT; D=$PWD/.dev; E=/dev/shm/ev
export GPUGREP_BIN=$D/gpugrep
for t in split_file read_buffer stream_blocks; do
  GPUGREP_TEST_ENGINE=gpu timeout 120 $D/$t --test-threads=4 > $O/suite-$t.log 2>&1; echo "suite $t $?" >> $O/summary.txt
done
# The corpora (the matrix's own script makes them: run it with no case).
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  benches/everyday $E --only '^none$' --reps 1 --no-grep > $O/corpora.txt 2>&1
t() { local tag=$1; shift; /usr/bin/time -f "$tag %e s %M KB" "$@" > /dev/null 2>>$O/low.txt; }
for round in 1 2 3 4 5; do
  for c in "tree|-c -i todo" "bom|-c -i josé" "bom|-l -w Linux" "bom|-c -i linux" "tree|-n -F mutex_lock(&" "many|-l FATAL" "tree|-c -E -f benches/patterns/alt100-c.txt" "bom|-n -F kernel"; do
    dir=${c%%|*}; a=${c#*|}
    for rep in 1 2 3; do
      t "r$round new  $dir $a" $D/gpugrep --engine cpu -j16 -r $a $E/$dir
      t "r$round prev $dir $a" $D/gpugrep-prev --engine cpu -j16 -r $a $E/$dir
      if [[ $a == *-f* ]]; then t "r$round rg   $dir $a" $D/rg -j16 -c -f benches/patterns/alt100-c.txt $E/$dir
      else t "r$round rg   $dir $a" $D/rg -j16 $a $E/$dir; fi
    done
  done
done
GPUGREP=$D/gpugrep CORPUS=$D/gpugrep-corpus RG=$D/rg UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 400 benches/everyday $E --reps 5 --timeout 5 --no-grep > $O/everyday-16.txt 2>&1
tail -4 $O/everyday-16.txt
