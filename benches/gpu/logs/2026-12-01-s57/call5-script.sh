#!/usr/bin/env bash
# session 57, call 5: cubins from NVRTC 12.9 (kernels/build-ptx), recount
# gone. gg-129d (the tile-count check in split.rs) on the Proxifier cuts
# and the 8 big files; gpugrep's -n there against the truth; synccheck,
# memcheck, racecheck; every GPU test suite.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
python3 - <<'PY'
b=open('/tmp/d/real/loghub/Proxifier_2k.log','rb').read()
if not b.endswith(b'\n'): b+=b'\n'
d=b*(268242116//len(b))
T=32768
for name,lo,hi in (('a',6999-10,6999+10),('c',6999-200,8055+100)):
    open('/dev/shm/rep-%s.log'%name,'wb').write(d[lo*T:hi*T])
PY
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
B=/dev/shm/big8; mkdir -p $B
for f in $(ls $W/loghub-16G | grep -E 'Proxifier|Linux' | head -8); do cp $W/loghub-16G/$f $B/; done
R=$W/rules-templates.txt
echo "data after $SECONDS s; big8 truth 10165068, rep-a 2930" >> $S
diag() { local l=$1; shift
  env GPUGREP_DIAG_COUNTS=1 "$@" 2> $X/diag.txt > $X/out.txt
  echo "$l: lines $(wc -l < $X/out.txt) md5 $(md5sum < $X/out.txt | cut -c1-8); launches $(grep -c DIAGSUM $X/diag.txt), bad $(grep DIAGSUM $X/diag.txt | grep -vc 'bad=0 ')" >> $S; }
diag "gg-129d rep-a" $D/gg-129d --engine gpu -h -n -E -f $R /dev/shm/rep-a.log
diag "gg-129d rep-c" $D/gg-129d --engine gpu -h -n -E -f $R /dev/shm/rep-c.log
for c in 256M 64M 16M; do diag "gg-129d big8 $c" GPUGREP_GPU_CHUNK=$c $D/gg-129d --engine gpu -j16 -h -n -E -f $R -r $B; done
G=$D/gpugrep
for i in 1 2 3; do echo "gpugrep big8 256M -n: $(GPUGREP_GPU_CHUNK=256M $G --engine gpu -j16 -h -n -E -f $R -r $B | wc -l)" >> $S; done
$G --engine gpu --stats -h -c -E -f $R /dev/shm/rep-a.log 2>&1 | grep -i "cubin\|kernel" | head -3 >> $S
for args in "-n -E -f $R" "-c -E -f $R" "-n -E -f $D/auto3.txt" "-c -F proxy" "-n -F -e proxy -e bytes -e HTTPS" "-c -i -F Proxy" "-n -w -E -f $R"; do
  timeout 120 compute-sanitizer --tool synccheck --error-exitcode 9 $G --engine gpu $args /dev/shm/rep-a.log > $X/san.txt 2>&1
  echo "synccheck $args: rc $? $(grep -c 'Barrier error' $X/san.txt) barrier errors" >> $S
done
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $G --engine gpu -n -E -f $R /dev/shm/rep-a.log > $X/san.txt 2>&1
  echo "$tool templates -n rep-a rc $? $(tail -1 $X/san.txt)" >> $S
done
echo "sanitizers after $SECONDS s" >> $S
export GPUGREP_BIN=$G
for t in gpu_rule_split gpu_differential gpu_automaton gpu_end_to_end gpu_fold gpu_ignore_case gpu_start gpu_lag gpu_real_world gpu_decompress; do
  timeout 200 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt | tr '\n' ' ')" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
