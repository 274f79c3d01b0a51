#!/usr/bin/env bash
# session 46, call 1 (16 cores): why loghub's templates cost the CPU engine
# twice rg's CPU time per GiB on this host (dev VM: level). A prototype
# binary with toggles: the literals' Aho-Corasick as a contiguous NFA
# (GG_AC_KIND=cnfa: 0.8 MB instead of a 25 MB DFA), literals cut to 12
# bytes (GG_LIT_MAX=12: a 5.5 MB DFA), rules' ASCII cuts as shared dense
# DFAs (GG_DENSE=1); perf stat of cache and TLB misses.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; lscpu; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G
echo "corpora after $SECONDS s" >> $S
t() { # label env cmd...: wall, user, sys, peak, sum of counts
  local l=$1 e=$2; shift 2
  env $e timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(head -c 100 $X/err.txt | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt; G=$W/rules-gitleaks.txt
g=$D/gpugrep
for r in 1 2; do
  for v in NONE=1 GG_AC_KIND=cnfa GG_LIT_MAX=12 "GG_AC_KIND=cnfa GG_LIT_MAX=12" GG_DENSE=1; do
    t "templates -c cpu [$v]" "$v" $g --engine cpu -j16 -h -c -E -f $T -r $L
  done
  t "templates -c rg" NONE=1 $D/rg -j16 -c --no-filename -f $T $L
done
echo "16G done after $SECONDS s" >> $S
F=$(ls $L/*-0.log)
for v in NONE=1 GG_AC_KIND=cnfa; do
  env $v LD_LIBRARY_PATH=$D/lib $D/perf stat -e cycles,instructions,cache-misses,LLC-load-misses,dTLB-load-misses -o $O/stat-$(echo $v | tr ' =' '__').txt -- $g --engine cpu -j16 -h -c -E -f $T $F > /dev/null 2>> $O/perf-err.txt
done
LD_LIBRARY_PATH=$D/lib $D/perf stat -e cycles,instructions,cache-misses,LLC-load-misses,dTLB-load-misses -o $O/stat-rg.txt -- $D/rg -j16 -c --no-filename -f $T $F > /dev/null 2>> $O/perf-err.txt
for v in NONE=1 GG_AC_KIND=cnfa; do
  t "gitleaks -c cpu [$v]" "$v" $g --engine cpu -j16 -h -c -P -f $G -r $L
done
echo "all done after $SECONDS s" >> $S
cat $S
