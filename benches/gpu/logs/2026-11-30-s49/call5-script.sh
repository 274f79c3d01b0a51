#!/usr/bin/env bash
# session 49, call 5 (diagnosis, no code change): the hunt's loghub rows
# that stay below rg at 16 threads (e-mail or URL, -i error|fail|fatal,
# blk_), by thread count (16, 8, 4, 2) for gpugrep --engine cpu and rg, over
# the 64 files and over the same bytes as one file; --stats of the 16-thread
# run; the counts per file. (The first run passed rg -E, its --encoding.)
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/real --size 1G > $X/real.txt 2>&1
L=/dev/shm/real/loghub-1G
cat $L/* > /dev/shm/one.log
ls -l $L | awk '{print $5}' | sort -n | uniq -c | head -5 >> $S
TIMEFORMAT=%R
run() { # label rg-args... (gpugrep gets -E too)
  local l=$1; shift
  for j in 16 8 4 2; do
    g=""; r=""
    for k in 1 2 3; do
      g="$g $( { time $D/gpugrep --engine cpu -j$j -c -E "$@" -r $L > $X/g.txt 2>&1; } 2>&1 )"
      r="$r $( { time $D/rg -j$j -c "$@" $L > $X/r.txt 2>&1; } 2>&1 )"
    done
    echo "$l -j$j: gpugrep$g | rg$r" >> $S
  done
  g=""; r=""
  for k in 1 2 3; do
    g="$g $( { time $D/gpugrep --engine cpu -j16 -c -E "$@" /dev/shm/one.log > $X/g.txt 2>&1; } 2>&1 )"
    r="$r $( { time $D/rg -j16 -c "$@" /dev/shm/one.log > $X/r.txt 2>&1; } 2>&1 )"
  done
  echo "$l one file -j16: gpugrep$g | rg$r ($(cat $X/g.txt) / $(cat $X/r.txt))" >> $S
  $D/gpugrep --engine cpu --stats --debug -j16 -c -E "$@" -r $L 2>&1 >/dev/null | grep -v "^$" | head -30 >> $S
}
run mail-url '\w+@\w+\.\w+|https?://[^ ]+'
run i-err -i 'error|fail|fatal'
run blk 'blk_-?[0-9]+'
for f in $L/*; do echo "$(basename $f) $($D/rg -c '\w+@\w+\.\w+|https?://[^ ]+' $f) $($D/rg -c -i 'error|fail|fatal' $f) $($D/rg -c 'blk_-?[0-9]+' $f)"; done | sort -u -k2 | head -70 >> $S
echo "all done after $SECONDS s" >> $S
cat $S
