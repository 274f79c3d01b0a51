#!/usr/bin/env bash
# session 38, call 2 (16 cores): "base" (420e848) against "new" (auto takes
# back files from a lagging GPU; a line's recent rules tried first; each
# rule's DFA built once and shared by the threads, XRULE_DFA=1 turning
# that off in this experiment build), "r4" (base + recent rules only):
# the templates' CPU engine over 16 GiB and its thread scaling over 2 GiB;
# auto on the templates in 64 files and in one 8 GiB file; gitleaks and
# the generated packs for regressions.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; lscpu | head -20; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
mkdir -p $W/two $W/one
ls $W/loghub-16G | head -8 | while read f; do ln $W/loghub-16G/$f $W/two/$f; done
ls $W/loghub-16G | head -32 | while read f; do cat $W/loghub-16G/$f; done > $W/one/one.log
du -sb $W/two $W/one >> $S
T=$W/rules-templates.txt
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 100 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>$O/err.txt
  echo "$l: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
}
B=$D/gpugrep; N="env -u XRULE_DFA $D/gg-new"; NX="env XRULE_DFA=1 $D/gg-new"; R4=$D/gg-r4
for v in B N NX R4; do
  t "templates cpu 16G -j16 $v" ${!v} --engine cpu -j16 -h -c -E -f $T -r $W/loghub-16G
done
for j in 1 4 16; do
  for v in B N NX; do
    t "templates cpu two -j$j $v" ${!v} --engine cpu -j$j -h -c -E -f $T -r $W/two
  done
  t "templates rg two -j$j" $D/rg -j$j -c --no-filename -f $T $W/two
done
t "templates rg 16G -j16" $D/rg -j16 -c --no-filename -f $T $W/loghub-16G
for v in B N; do
  t "templates auto 16G $v" ${!v} --stats -j16 -h -c -E -f $T -r $W/loghub-16G; grep '^cpu:' $O/err.txt >> $S
  t "templates auto one $v" ${!v} --stats -j16 -h -c -E -f $T $W/one/one.log; grep '^cpu:' $O/err.txt >> $S
done
t "templates cpu one N" $N --engine cpu -j16 -h -c -E -f $T $W/one/one.log
t "templates rg one" $D/rg -j16 -c --no-filename -f $T $W/one/one.log
for v in B N; do
  t "gitleaks cpu 16G $v" ${!v} --engine cpu -j16 -h -c -P -f $W/rules-gitleaks.txt -r $W/loghub-16G
done
t "gitleaks auto 16G N" $N -j16 -h -c -P -f $W/rules-gitleaks.txt -r $W/loghub-16G
rm -rf $W/one
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for n in 1000 10000; do
  for v in B N; do
    t "gen $n -c auto $v" ${!v} -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
    t "gen $n -c cpu $v" ${!v} --engine cpu -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
  done
done
echo "done after $SECONDS s" >> $S
cat $S
