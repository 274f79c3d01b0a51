#!/usr/bin/env bash
# session 38, call 5 (16 cores): why 16 threads cost the templates' CPU
# engine +64 % CPU time and rg +38 %: one process of 16 threads against 16
# processes of one thread (4 files each) at once, and one process of one
# thread alone, for gpugrep and rg.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
T=$W/rules-templates.txt; B=$D/gpugrep
ls $W/loghub-16G > $O/files.txt
group() { sed -n "$(( $1 * 4 + 1 )),$(( $1 * 4 + 4 ))p" $O/files.txt | sed "s|^|$W/loghub-16G/|"; }
for tool in gpugrep rg; do
  case $tool in
    gpugrep) run() { $B --engine cpu -h -c -E -f $T "$@"; }; ;;
    rg) run() { $D/rg -c --no-filename -f $T "$@"; }; ;;
  esac
  for r in 1 2; do
    /usr/bin/time -f "%e s %U u %S sys" -o $O/t.txt bash -c "$(declare -f run group); O=$O W=$W B=$B D=$D T=$T; run -j16 -r $W/loghub-16G > /dev/null"
    echo "$tool one process -j16: $(tail -1 $O/t.txt)" >> $S
    /usr/bin/time -f "%e s %U u %S sys" -o $O/t.txt bash -c "$(declare -f run group); O=$O W=$W B=$B D=$D T=$T; for g in \$(seq 0 15); do run -j1 \$(group \$g) > /dev/null & done; wait"
    echo "$tool 16 processes -j1: $(tail -1 $O/t.txt)" >> $S
    /usr/bin/time -f "%e s %U u %S sys" -o $O/t.txt bash -c "$(declare -f run group); O=$O W=$W B=$B D=$D T=$T; run -j1 \$(group 0) > /dev/null"
    echo "$tool one process -j1, group 0 alone: $(tail -1 $O/t.txt)" >> $S
  done
done
echo "done after $SECONDS s" >> $S
cat $S
