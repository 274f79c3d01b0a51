#!/usr/bin/env bash
# session 37, call 3 (16 cores): auto lets the CPU take files while the
# GPU's kernels bound the run (board/lag.rs): "new" against "head"
# (8eb0449) on loghub's templates, and the generated packs for regressions.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
$D/gpugrep-corpus --kind logs --out /dev/shm/l16 --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
echo "corpora ready after $SECONDS s" >> $S
t() { # label cmd...: wall, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null
  echo "$l: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
}
TPL="-j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G"
t "templates auto new" $D/gpugrep $TPL
t "templates auto head" $D/head/gpugrep $TPL
t "templates auto new" $D/gpugrep $TPL
t "templates cpu new" $D/gpugrep --engine cpu $TPL
$D/gpugrep --stats $TPL > /dev/null 2> $O/stats-templates-new.txt
t "gitleaks auto new" $D/gpugrep -j16 -h -c -P -f $W/rules-gitleaks.txt -r $W/loghub-16G
for n in 1000 10000; do
  for r in 1 2; do
    t "gen $n -c auto head" $D/head/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
    t "gen $n -c auto new" $D/gpugrep -j16 -h -c -E -f /dev/shm/rules/rules-$n.txt -r /dev/shm/l16
  done
done
for b in head new; do
  bin=$D/gpugrep; [[ $b == head ]] && bin=$D/head/gpugrep
  timeout 60 /usr/bin/time -f "%e s %M KB" -o $O/t.txt $bin -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/l16 > /dev/null 2>&1
  echo "gen 1000 -n auto $b: $(tail -1 $O/t.txt)" >> $S
  echo "gen 1000 -n auto $b md5: $($bin -j16 -h -n -E -f /dev/shm/rules/rules-1000.txt -r /dev/shm/l16 2>/dev/null | md5sum)" >> $S
done
echo "done after $SECONDS s" >> $S
cat $S
