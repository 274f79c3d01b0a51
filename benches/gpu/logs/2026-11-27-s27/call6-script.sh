#!/usr/bin/env bash
# session 27, call 6 (H100 host, nvidia-h100-x1; CPU only): the CPU engine's
# -w with 10,000 real words over 16 GiB of prose in 20,000 BOM+CRLF files,
# 377829c ("prev", the q-gram filter and a word check at every candidate)
# against 85d351d ("new", the lazy DFA), and rg -j16; 2 rounds.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
python3 benches/gpu/gen-prose.py $D/words /dev/shm/rw 16 20000 > /dev/null
W=/dev/shm/rw.words-10000.txt
for r in 1 2; do
  for o in "-w -c" "-w -v -c" "-w -l"; do
    for b in prev new rg; do
      case $b in
        prev) c="$D/gpugrep-prev --engine cpu -j16 -r" ;;
        new) c="$D/gpugrep --engine cpu -j16 -r" ;;
        rg) c="$D/rg --no-config -uu -a -j16" ;;
      esac
      /usr/bin/time -f "%e s user %U sys %S" -o $O/t.txt $c $o -F -f $W /dev/shm/rw > $O/ans.txt
      echo "$o $b $(cat $O/t.txt) answer $(awk -F: '{s += $NF} END {print s + 0}' $O/ans.txt) lines $(wc -l < $O/ans.txt)" >> $S
    done
  done
done
rm -f $O/t.txt $O/ans.txt
cat $S
