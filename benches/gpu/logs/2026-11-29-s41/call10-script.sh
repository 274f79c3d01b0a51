#!/usr/bin/env bash
# session 41, call 10 (16 cores): CUDA opened beside a rule pack's compile
# from 64 MiB only where a rule lacks a run of 3 plain bytes (else at 1
# GiB, as before): the generated 1,000 rules over 256 MiB (auto against the
# CPU engine: call 9's build opened CUDA for nothing there), gitleaks and
# the templates over 64 and 256 files of 1 MiB and the 64 one-system files.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
files=($(ls $L))
for n in 64 256; do
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
for r in 1 2 3; do
  for v in c4 new; do t "gen1000 g256 auto $v" ${!v} --debug --stats -j16 -h -c -E -f $W/rules/rules-1000.txt -r $W/g256; done
  t "gen1000 g256 cpu" $new --engine cpu -j16 -h -c -E -f $W/rules/rules-1000.txt -r $W/g256
done
for r in 1 2; do
  for d in s64 s256 loghub-16G; do
    t "G $d auto new" $new --debug --stats -j16 -h -c -P -f $G -r $W/$d
    t "T $d auto new" $new --debug --stats -j16 -h -c -E -f $T -r $W/$d
  done
done
cat $S
