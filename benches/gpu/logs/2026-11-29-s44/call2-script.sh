#!/usr/bin/env bash
# session 44, call 2: why the -w DFA lost on 16 cores (call 1) and won on
# the dev VM: loghub's 16 systems, 64 MiB each (1 GiB), the DFA and the
# rules forced (GPUGREP_RETIMED=2/1) at 2, 8 and 16 threads.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 1G > $X/real.txt 2>&1
L=$W/loghub-1G
lscpu > $O/lscpu.txt
echo "corpus after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(grep -h 'trials' $X/err.txt | sed 's/lines found by trials.//' | head -c 150)" >> $S
}
T=$W/rules-templates.txt
new=$D/gpugrep; base=$D/gg-base
for j in 2 8 16; do
  for f in 1 2; do
    GPUGREP_RETIMED=$f t "templates 1G -w -c -j$j forced $f" $new --engine cpu -j$j -h -w -c -E -f $T -r $L
  done
  t "templates 1G -w -c -j$j base" $base --engine cpu -j$j -h -w -c -E -f $T -r $L
  t "templates 1G -w -c -j$j rg" $D/rg -j$j -h -w -c -f $T $L
done
GPUGREP_RETIMED=2 t "templates 1G -w -c -j16 forced 2 Android only" $new --engine cpu -j16 -h -w -c -E -f $T $L/Android-*.log
GPUGREP_RETIMED=1 t "templates 1G -w -c -j16 forced 1 Android only" $new --engine cpu -j16 -h -w -c -E -f $T $L/Android-*.log
cat $S
