#!/usr/bin/env bash
# session 38, call 1 (16 cores): session 37's last code (420e848, with the
# dense finder) on the real packs against the anchors (benches/rules.sh,
# -c, every tool once); the CPU engine's thread scaling on the templates
# (2 GiB, -j1..-j16, gpugrep cpu and rg), --stats of the CPU engine.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
W=/dev/shm/real
BIN=$D THREADS=16 WORK=$W SIZES="gitleaks templates" GNU_SIZES= RUNS=1 TOOL_TIMEOUT=60 \
  GITLEAKS=$D/real/gitleaks.toml LOGHUB=$D/real/loghub \
  bash benches/rules.sh 16G > $O/real-16G-c.txt 2> $O/real-16G-c.err
S=$O/scaling.txt
mkdir -p $W/two && ls $W/loghub-16G | head -8 | while read f; do ln -sf $W/loghub-16G/$f $W/two/$f; done
du -L -sb $W/two >> $S
t() { # label cmd...: wall, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null
  echo "$l: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
}
for j in 1 2 4 8 16; do
  t "templates cpu -j$j" $D/gpugrep --engine cpu -j$j -h -c -E -f $W/rules-templates.txt -r $W/two
  t "templates rg -j$j" $D/rg -j$j -c --no-filename -f $W/rules-templates.txt $W/two
done
for j in 2 16; do
  for e in pack alternation; do
    t "templates cpu $e -j$j" env GPUGREP_RULE_PACK=$e $D/gpugrep --engine cpu -j$j -h -c -E -f $W/rules-templates.txt -r $W/two
  done
  t "gitleaks cpu -j$j" $D/gpugrep --engine cpu -j$j -h -c -P -f $W/rules-gitleaks.txt -r $W/two
  t "gitleaks rg -j$j" $D/rg -j$j -c --no-filename --regex-size-limit 2G --dfa-size-limit 1G -f $W/rules-gitleaks.txt $W/two
done
$D/gpugrep --stats --engine cpu -j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G > /dev/null 2> $O/stats-templates-cpu.txt
cat $O/real-16G-c.txt $S
