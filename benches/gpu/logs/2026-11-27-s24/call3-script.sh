#!/usr/bin/env bash
# session 24, call 3: does destroying the CUDA context (cuDevicePrimaryCtxReset
# at main's end, "reset") take the exit's 0.1 s into user space, where a
# thread could do it while the CPU still prints? gpugrep-x as in call 2
# with a third knob.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
echo "one line INFO" > /dev/shm/tiny
$D/gpugrep-corpus --kind logs --out /dev/shm/big --size 16G --files 64 >> $S 2>&1
one() { local v=$1; shift
  local s=$(date +%s%N)
  GPUGREP_EXIT_EXPERIMENT="x $v" $D/gpugrep-x "$@" > /dev/null 2> $O/e.txt
  local e=$(date +%s%N); local m=$(grep -o 'main done at [0-9]*' $O/e.txt | tail -1 | grep -o '[0-9]*$')
  echo "$v: total $(( (e-s)/1000000 )) ms, to main's end $(( (m-s)/1000000 )) ms, exit $(( (e-m)/1000000 )) ms $(grep -o 'reset.*' $O/e.txt)"
}
for r in 1 2 3; do
  for v in none reset fastreset; do
    echo "tiny $(one $v --engine gpu -c -F INFO /dev/shm/tiny)" >> $S
    echo "big -c $(one $v --engine gpu -j16 -c -F zzqxzz -r /dev/shm/big)" >> $S
  done
done
cat $S
