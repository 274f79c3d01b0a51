#!/usr/bin/env bash
# session 46, call 7: an exact automaton alone (regexes without good
# literals) now marks exactly its lines: tallied on the GPU, printed from
# its marks. Three such regexes (IPv4, a hex id, *Exception) over 16 GiB of
# loghub, base b081ae1 against new; gpu_automaton on the real GPU.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; N=$D/nolit.txt  # benches/gpu/logs/2026-11-29-s46/call7-nolit.txt
t() { # label cmd...
  local l=$1; shift
  timeout 40 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) md5 $(md5sum < $X/ans.txt | cut -c1-8) $(grep -h 'tallied' $X/err.txt | head -c 120)" >> $S
}
base=$D/gg-base; new=$D/gpugrep
for v in base new; do
  t "nolit -c gpu $v" ${!v} --stats --engine gpu -j16 -h -c -E -f $N -r $L
  t "nolit -c auto $v" ${!v} -j16 -h -c -E -f $N -r $L
  t "nolit -n gpu $v" ${!v} --engine gpu -j16 -n -E -f $N -r $L
done
t "nolit -c cpu" $new --engine cpu -j16 -h -c -E -f $N -r $L
t "nolit -c rg" $D/rg -j16 -c --no-filename -f $N $L
export GPUGREP_BIN=$new
timeout 100 $D/gpu_automaton --test-threads=8 --nocapture > $O/gpu_automaton.txt 2>&1; echo "gpu_automaton: rc $? $(grep -h 'test result' $O/gpu_automaton.txt); $(grep -h 'cases, ' $O/gpu_automaton.txt | tr '\n' ' ')" >> $S
echo "all done after $SECONDS s" >> $S
cat $S
