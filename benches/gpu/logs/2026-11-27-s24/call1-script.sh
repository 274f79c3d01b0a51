#!/usr/bin/env bash
# session 24, call 1: how fast page-cached files reach the GPU by the
# pipeline's route (pread into pinned memory + copy) against registering
# the files' mapped pages with CUDA (benches/gpu/hostreg-bench.c), on
# 16 GiB of logs in 64 files (tmpfs), 8 GiB in 10,000 files (tmpfs), and
# 8 GiB of logs on the machine's disk file system (page cache); gpugrep's
# own pipeline (-c of an absent literal) beside it.
set -u
O=$OUT; D=$PWD/.dev
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; grep -m1 'model name' /proc/cpuinfo; df -h /dev/shm /tmp $HOME; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
nvcc -O2 -o $D/hr benches/gpu/hostreg-bench.c -lcuda -lpthread > $O/nvcc.log 2>&1; echo "nvcc $?" >> $S
$D/gpugrep-corpus --kind logs --out /dev/shm/big --size 16G --files 64 >> $S 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/small --size 8G --files 10000 >> $S 2>&1
mkdir -p /tmp/disk && cp -r /dev/shm/big /tmp/disk/ 2>>$S; rm -f $(find /tmp/disk/big -name '*.log' | sort | tail -32)
cat $(find /tmp/disk/big -type f) > /dev/null
B="find /dev/shm/big -type f"; M="find /dev/shm/small -type f"; K="find /tmp/disk/big -type f"
run() { local set=$1 mode=$2 th=$3 ch=$4; echo "[$set] $(eval "${!set}" | timeout 60 $D/hr $mode $th $ch 2>&1 | tail -3 | tr '\n' ' ')" >> $S; }
for r in 1 2; do
  for m in pread reg regfile mmapcopy preadonly regonly; do run B $m 16 64; done
done
for th in 4 8 32; do run B reg $th 64; run B pread $th 64; done
for ch in 8 16 256; do run B reg 16 $ch; run B pread 16 $ch; done
for m in pread reg regfile regonly preadonly; do run M $m 16 64; run M $m 16 64; done
for m in pread reg regfile regonly preadonly; do run K $m 16 64; run K $m 16 64; done
for r in 1 2; do
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -c -F zzqxzz -r /dev/shm/big > /dev/null; echo "gpugrep gpu -c big $(( ($(date +%s%N)-s)/1000000 )) ms" >> $S
  s=$(date +%s%N); $D/gpugrep --engine gpu -j16 -c -F zzqxzz -r /dev/shm/small > /dev/null; echo "gpugrep gpu -c small $(( ($(date +%s%N)-s)/1000000 )) ms" >> $S
done
$D/gpugrep --engine gpu -j16 --stats -c -F zzqxzz -r /dev/shm/big 2> $O/stats-big.txt > /dev/null
cat $S
