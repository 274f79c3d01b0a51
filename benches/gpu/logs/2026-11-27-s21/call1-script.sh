#!/usr/bin/env bash
# session 21, call 1: issue 16's shapes never measured on the GPU path, at
# 9968c3c: 20,000 BOM+CRLF files (the usual), 400,000 small BOM+CRLF files,
# one 16 GiB file (BOM, CRLF), 20,000 LF files without BOM; 1,000 words.
set -u
O=$OUT; D=$PWD/.dev
{ nproc; nvidia-smi -L; df -h /dev/shm; free -g; } > $O/machine.txt 2>&1
shape() { # NAME CASES [env...]
  local name=$1 cases=$2; shift 2
  t0=$(date +%s)
  env "$@" OUT=$O/$name SETS=1000 CASES="$cases" bash benches/gpu/realworld.sh > $O/$name.txt 2>&1
  echo "$name rc $? $(( $(date +%s) - t0 )) s" >> $O/summary.txt
}
shape a-20k-bom-crlf "-c|-w -c|-i -c|-l|-n" C=/dev/shm/a SIZE_GIB=16 FILES=20000
rm -rf /dev/shm/a
shape d-400k-bom-crlf "-c|-w -c|-i -c|-l|-n" C=/dev/shm/d SIZE_GIB=16 FILES=400000
rm -rf /dev/shm/d
# One file: 256 parts without BOM joined behind one BOM.
t0=$(date +%s)
python3 benches/gpu/gen-prose.py $D/words /dev/shm/cp 16 256 --no-bom
mkdir -p /dev/shm/c
printf '\xef\xbb\xbf' > /dev/shm/c/big.txt
for f in /dev/shm/cp/d*/f*; do cat $f >> /dev/shm/c/big.txt; rm $f; done
mv /dev/shm/cp.words-1000.txt /dev/shm/c.words-1000.txt; rm -rf /dev/shm/cp /dev/shm/cp.words-*
echo "c gen $(( $(date +%s) - t0 )) s $(stat -c %s /dev/shm/c/big.txt) bytes" >> $O/summary.txt
shape c-1file-bom-crlf "-c|-w -c|-i -c|-l|-n" C=/dev/shm/c
rm -rf /dev/shm/c
shape b-20k-lf "-c|-w -c|-i -c|-l" C=/dev/shm/b SIZE_GIB=16 FILES=20000 GEN_FLAGS="--lf --no-bom"
cat $O/summary.txt
