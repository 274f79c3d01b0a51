#!/usr/bin/env bash
# session 41, call 2 (16 cores): the session's code ("new": literal sets
# by case variants and larger classes for the GPU's split only, auto's CPU
# waiting for CUDA on a rule pack's split, the automaton's state in
# registers, alternation branches absorbed) against e169dcd ("base"):
# gitleaks over three shapes (auto), the templates, the generated packs;
# the CPU engine and Hyperscan on gitleaks; -n md5; then gpu_automaton,
# gpu_rule_split, rule_packs under the GPU and auto engines, memcheck.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt; ST=$O/stats.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; mkdir -p $W/mix $W/small
files=($(ls $L))
for k in $(seq 0 15); do
  for i in $(seq 0 15); do dd if=$L/${files[$(( (i*4 + k) % 64 ))]} bs=16M skip=$k count=1 status=none; done > $W/mix/m$k.log
done
for i in $(seq 0 2047); do dd if=$L/${files[$(( (i*4 + i/64) % 64 ))]} bs=1M skip=$(( i / 16 )) count=1 status=none > $W/small/s$i.log; done
echo "corpora after $SECONDS s" >> $S
t() { # label cmd...: wall, user, sys, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: $(tail -1 $X/t.txt) $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt)" >> $S
  (echo "== $l"; grep 'gpu:\|stages\|rule pack\|cpu:\|lag' $X/err.txt) >> $ST
}
G=$W/rules-gitleaks.txt; T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for d in loghub-16G mix small; do
    for v in base new; do t "gitleaks $d auto $v" ${!v} --stats -j16 -h -c -P -f $G -r $W/$d; done
  done
  t "gitleaks loghub-16G gpu new" $new --engine gpu --stats -j16 -h -c -P -f $G -r $L
  for v in base new; do t "templates loghub-16G auto $v" ${!v} --stats -j16 -h -c -E -f $T -r $L; done
done
t "gitleaks loghub-16G cpu new" $new --engine cpu -j16 -h -c -P -f $G -r $L
t "gitleaks loghub-16G hs" $D/hsgrep -j 16 -f $G $L
t "gitleaks small cpu new" $new --engine cpu -j16 -h -c -P -f $G -r $W/small
t "gitleaks -n auto new" $new -j16 -h -n -P -f $G -r $L
$new -j16 -h -n -P -f $G -r $L | md5sum > $X/a.md5; $new --engine cpu -j16 -h -n -P -f $G -r $L | md5sum > $X/c.md5
echo "gitleaks -n md5 auto $(cat $X/a.md5) cpu $(cat $X/c.md5)" >> $S
echo "--debug of gitleaks (new):" >> $ST; echo x | $new --debug -c -P -f $G 2>&1 | head -3 | cut -c1-1500 >> $ST
rm -rf $W
echo "real packs done after $SECONDS s" >> $S
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
for r in 1 2; do
  for n in 1000 10000; do
    for v in base new; do t "gen $n auto $v" ${!v} --stats -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16; done
  done
done
rm -rf /dev/shm/l16
echo "gen done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
GPUGREP_DIFF_CASES=1500 timeout 100 $D/gpu_automaton --test-threads=2 > $O/automaton.log 2>&1; echo "gpu_automaton rc $? $(grep 'automaton kernel\|test result' $O/automaton.log | tr '\n' ' ')" >> $S
GPUGREP_SPLIT_CASES=60 timeout 100 $D/gpu_rule_split --test-threads=2 > $O/rule-split.log 2>&1; echo "gpu_rule_split rc $? $(grep -E 'test result' $O/rule-split.log | tr '\n' ' ')" >> $S
for e in gpu auto; do GPUGREP_TEST_ENGINE=$e timeout 60 $D/rule_packs --test-threads=4 > $X/rp.log 2>&1; echo "rule_packs ($e) rc $? $(grep 'test result' $X/rp.log)" >> $S; done
GPUGREP_DIFF_SMALL=1 timeout 70 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_automaton kernel_matches_reference > $O/memcheck.log 2>&1; echo "memcheck automaton rc $?" >> $S
echo "done after $SECONDS s" >> $S
cat $S
