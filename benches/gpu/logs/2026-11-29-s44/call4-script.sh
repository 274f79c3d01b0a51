#!/usr/bin/env bash
# session 44, call 4: the -w DFA forced over 16 GiB split (timed out in
# call 1, 7 s unsplit in call 3): again, and over one 256 MiB file of
# each system (split).
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
[ -d $W/loghub-16G ] || python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
}
T=$W/rules-templates.txt
new=$D/gpugrep
GPUGREP_RETIMED=2 t "16 x 256 MiB split, forced 2" $new --engine cpu -j16 -h -w -c -E -f $T $W/loghub-16G/*-0.log
GPUGREP_RETIMED=1 t "16 x 256 MiB split, forced 1" $new --engine cpu -j16 -h -w -c -E -f $T $W/loghub-16G/*-0.log
GPUGREP_RETIMED=2 t "16G split -r, forced 2" $new --engine cpu -j16 -h -w -c -E -f $T -r $W/loghub-16G
uptime >> $S
cat $S
