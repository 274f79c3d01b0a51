#!/usr/bin/env bash
# session 61, call 2: regular files streamed in 64 KiB blocks past their
# first 64 KiB (dev/gpugrep) against 73d9af1 (dev/gpugrep-base, files of up
# to 256 KiB read whole) and rg at 16 threads, 9 rounds alternating: the
# rows of call 1 and 64 logs of 16 MiB (streamed whole by one thread each,
# under the 64 MiB map bound); then the everyday matrix and the option hunt
# at 16 threads with dev/gpugrep.
set -u
D=/tmp/d; mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$OUT/summary.txt; E=/dev/shm/ev; G=$D/dev/gpugrep; B0=$D/dev/gpugrep-base; RG=$D/dev/rg
echo "commit $(cat $D/commit)" > $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 150 benches/everyday $E --only 'NONE' --reps 1 --no-grep > $OUT/gen.txt 2>&1
$D/dev/gpugrep-corpus --kind logs --out /dev/shm/mid --size 1G --files 64 >> $OUT/gen.txt 2>&1
echo "corpora after $SECONDS s: $(du -sm $E/* /dev/shm/mid | tr '\n' ' ')" >> $S
export LC_ALL=C.UTF-8
cmp3() { # name, dir, gpugrep args, rg args
  echo "== $1" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 9 new="$G --engine cpu -j16 -r $3 $2" \
    base="$B0 --engine cpu -j16 -r $3 $2" rg="$RG --no-config -uu -a -j16 $4 $2" >> $S 2>&1
}
cmp3 tree-n-w-int $E/tree "-n -w int" "-n -w int"
cmp3 tree-c-w-int $E/tree "-c -w int" "-c -w int"
cmp3 bom-lit $E/bom "-n -F kernel" "-n -F kernel"
cmp3 bom-n-w-ing $E/bom "-n -w -E '[a-z]+ing'" "-n -w '[a-z]+ing'"
cmp3 mid-c /dev/shm/mid "-c -F ERROR" "-c -F ERROR"
cmp3 mid-n /dev/shm/mid "-n -F ERROR" "-n -F ERROR"
cmp3 mid-re /dev/shm/mid "-c -E '[A-Z]+_SUSPEND'" "-c -E '[A-Z]+_SUSPEND'"
echo "compare done after $SECONDS s" >> $S
GPUGREP=$G CORPUS=$D/dev/gpugrep-corpus RG=$RG UGREP= TREE_TARBALL=$D/tree.tar.xz THREADS=16 LOGS_SIZE=1G \
  timeout 300 benches/everyday $E --reps 3 --timeout 10 --no-grep --out $OUT/everyday16.tsv > $OUT/everyday16.txt 2>&1
echo "everyday rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/everyday16.tsv >> $S
common=(--gpugrep $G --gpugrep-args "--engine cpu -j 16" --rg $RG --rg-threads 16 --locale C.UTF-8 --reps 5 --no-grep --timeout 10)
timeout 100 benches/run --cases benches/cases-option-hunt.tsv --corpus tree=$E/tree --corpus bom=$E/bom \
  "${common[@]}" --out $OUT/option16.tsv > $OUT/option16.txt 2>&1
echo "option hunt rc $? after $SECONDS s" >> $S
python3 benches/gpu/logs/2026-12-01-s59/evsum.py $OUT/option16.tsv >> $S
echo "done after $SECONDS s" >> $S
cat $S
