#!/usr/bin/env bash
# session 51, call 7: the real packs through auto again, base and new
# alternating (call 4 found the templates' -n 0.660 against 0.620 s in 3
# rounds, with call 4's build): 1 GiB of loghub, -n and -c, 7 rounds.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
echo "data after $SECONDS s" >> $S
L=/dev/shm/real/loghub-1G
for p in "templates -E -n" "templates -E -c" "gitleaks -P -n"; do
  set -- $p
  echo "$1 $3 auto, 1 GiB" >> $S
  timeout 60 python3 benches/cpu-time.py --rounds 7 base="$D/gg-base -j 16 -h $3 $2 -f /dev/shm/real/rules-$1.txt -r $L" \
    new="$D/gpugrep -j 16 -h $3 $2 -f /dev/shm/real/rules-$1.txt -r $L" >> $S 2>&1
done
echo "all done after $SECONDS s" >> $S
cat $S
