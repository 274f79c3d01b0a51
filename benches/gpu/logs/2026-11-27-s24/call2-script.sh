#!/usr/bin/env bash
# session 24, call 2: what a GPU run's exit costs and what shortens it.
# gpugrep-x is df808d3 with two experiment knobs (GPUGREP_EXIT_EXPERIMENT:
# "fast" = flush stdout and _exit, skipping atexit handlers; "leak" = the
# pipeline's lanes, streams and device buffers not dropped). It prints when
# main is done; the exit is the wall clock after that.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
echo "one line INFO" > /dev/shm/tiny
$D/gpugrep-corpus --kind logs --out /dev/shm/big --size 16G --files 64 >> $S 2>&1
one() { local v=$1; shift
  local s=$(date +%s%N)
  GPUGREP_EXIT_EXPERIMENT="x $v" $D/gpugrep-x "$@" > /dev/null 2> $O/e.txt
  local e=$(date +%s%N); local m=$(grep -o 'main done at [0-9]*' $O/e.txt | grep -o '[0-9]*$')
  echo "$v: total $(( (e-s)/1000000 )) ms, to main's end $(( (m-s)/1000000 )) ms, exit $(( (e-m)/1000000 )) ms"
}
for r in 1 2 3; do
  for v in none fast leak fastleak; do
    echo "tiny $(one $v --engine gpu -c -F INFO /dev/shm/tiny)" >> $S
    echo "big -c $(one $v --engine gpu -j16 -c -F zzqxzz -r /dev/shm/big)" >> $S
    echo "big auto -c $(one $v -j16 -c -F zzqxzz -r /dev/shm/big)" >> $S
  done
done
cat $S
