#!/usr/bin/env bash
# session 41, call 8 (16 cores): where auto should take the GPU for a rule
# pack with rules on the automaton (AUTO_SPLIT_MIN_BYTES, 64 MiB): gitleaks
# and the templates over 64, 256 and 1,024 files of 1 MiB (systems mixed),
# auto, the CPU engine and --engine gpu, two rounds.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
files=($(ls $L))
for n in 64 256 1024; do
  mkdir -p $W/s$n
  for i in $(seq 0 $((n - 1))); do dd if=$L/${files[$(( (i*4 + i/64) % 64 ))]} bs=1M skip=$(( i * 2048 / n / 16 )) count=1 status=none > $W/s$n/f$i.log; done
done
rm -rf $L
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) | $(grep -o 'ready after [0-9.]* s\|cpu: [0-9]* files\|GPU not started[^(]*' $X/err.txt | sort -u | tr '\n' ' ')" >> $S
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt; new=$D/gpugrep
for r in 1 2; do
  for n in 64 256 1024; do
    for e in auto cpu gpu; do
      t "gitleaks s$n $e" $new --engine $e --stats -j16 -h -c -P -f $G -r $W/s$n
      t "templates s$n $e" $new --engine $e --stats -j16 -h -c -E -f $T -r $W/s$n
    done
  done
done
cat $S
