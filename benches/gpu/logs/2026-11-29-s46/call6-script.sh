#!/usr/bin/env bash
# session 46, call 6: loghub's templates `-c` on the CPU engine with 16
# threads, with mimalloc's large OS pages (MIMALLOC_ALLOW_LARGE_OS_PAGES=1,
# transparent huge pages by madvise) against without: does the rules'
# per-thread lazy-DFA memory cost this host TLB misses? 2 rounds, rg once.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag)" >> $S
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; T=$W/rules-templates.txt
t() { # label env cmd...
  local l=$1 e=$2; shift 2
  env $e timeout 60 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) $(head -c 100 $X/err.txt | tr '\n' ' ')" >> $S
}
for r in 1 2; do
  for v in NONE=1 MIMALLOC_ALLOW_LARGE_OS_PAGES=1; do
    t "templates -c cpu [$v]" "$v" $D/gpugrep --engine cpu -j16 -h -c -E -f $T -r $L
  done
done
t "templates -c rg" NONE=1 $D/rg -j16 -c --no-filename -f $T $L
grep -i AnonHugePages /proc/meminfo >> $S
echo "all done after $SECONDS s" >> $S
cat $S
