#!/usr/bin/env bash
# session 54, call 6: call 4's rg rows (call 4 passed rg `-h`, its --help):
# rg -j16 on the templates over 16 GiB of loghub and on the generated 1,000
# rules over 16 GiB of CI logs, beside gpugrep auto (7984541), -c.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
$D/gpugrep-corpus --kind logs --size 16G --files 64 --out /dev/shm/ci > $X/ci.txt 2>&1
mkdir -p $W/rules && python3 benches/rules/gen.py --out $W/rules 1000 > /dev/null
echo "data after $SECONDS s" >> $S
t() { # label cmd...
  local l=$1; shift
  timeout 90 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) lines $(wc -l < $X/ans.txt) $(head -c 150 $X/err.txt | tr '\n' ' ')" >> $S
}
for p in "templates $W/rules-templates.txt $W/loghub-16G" "1000 $W/rules/rules-1000.txt /dev/shm/ci"; do
  set -- $p
  t "$1 -c auto" $D/gpugrep -j16 -h -c -E -f $2 -r $3
  t "$1 -c rg" $D/rg --no-config -uu -a -j16 -I -c -f $2 $3
  t "$1 -c auto" $D/gpugrep -j16 -h -c -E -f $2 -r $3
done
echo "all done after $SECONDS s" >> $S
cat $S
