#!/usr/bin/env bash
# session 41, call 9 (16 cores): a rule pack's split far ahead from 64 MiB
# (auto's CPU waits for CUDA, which opens beside the compile from 64 MiB
# of files): "new" against call 4's code ("c4", ab8b5d4) and --engine gpu and the
# CPU engine, gitleaks and the templates over 64, 256 and 1,024 files of
# 1 MiB and the 64 one-system files; the generated 1,000 rules (literal
# rules only: auto keeps them on the CPU under 1 GiB) over 256 MiB.
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
$D/gpugrep-corpus --kind logs --out $W/g256 --size 256M --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out $W/rules 1000 > /dev/null
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) | $(grep -o 'CUDA opened beside[^(]*\|ready after [0-9.]* s\|cpu: [0-9]* files\|GPU not started[^(]*' $X/err.txt | sort -u | tr '\n' ' ')" >> $S
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt; new=$D/gpugrep; c4=$D/gg-c4
for r in 1 2; do
  for d in s64 s256 s1024 loghub-16G; do
    for p in G T; do
      f=-P; [ $p = T ] && f=-E
      for v in c4 new; do t "${p} $d auto $v" ${!v} --debug --stats -j16 -h -c $f -f ${!p} -r $W/$d; done
      [ $r = 1 ] && t "${p} $d gpu new" $new --engine gpu --stats -j16 -h -c $f -f ${!p} -r $W/$d
      [ $r = 1 ] && [ $d != loghub-16G ] && t "${p} $d cpu new" $new --engine cpu --stats -j16 -h -c $f -f ${!p} -r $W/$d
    done
  done
  for v in c4 new; do t "gen1000 g256 auto $v" ${!v} --debug --stats -j16 -h -c -E -f $W/rules/rules-1000.txt -r $W/g256; done
  [ $r = 1 ] && t "gen1000 g256 cpu" $new --engine cpu -j16 -h -c -E -f $W/rules/rules-1000.txt -r $W/g256
done
cat $S
