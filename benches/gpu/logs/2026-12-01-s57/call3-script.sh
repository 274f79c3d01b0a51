#!/usr/bin/env bash
# session 57, call 3: block_sum / block_exclusive_scan begin with
# __syncwarp() (common.cuh) and compact.cu's recount is gone. gg-diag (old
# kernels) and gg-fix (new kernels), both with split.rs's tile-count check
# and recount off: real Proxifier cuts, 8 big loghub files, synthetic
# Proxifier-like text and random long lines with a 4-rule pack (probes for
# a regression test); synccheck over the kernels; the GPU test suites.
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
python3 $D/synth.py /dev/shm/s-prox.log 200000000 1 prox &
python3 $D/synth.py /dev/shm/s-rand.log 200000000 2 rand &
wait
echo "data after $SECONDS s" >> $S
diag() { # label binary env... -- args
  local l=$1 g=$2; shift 2
  env GPUGREP_DIAG_COUNTS=1 GPUGREP_DIAG_NORECOUNT=1 "$@" 2> $X/diag.txt > $X/out.txt
  echo "$l $(basename $g): lines $(wc -l < $X/out.txt) md5 $(md5sum < $X/out.txt | cut -c1-8); launches $(grep -c DIAGSUM $X/diag.txt), bad $(grep DIAGSUM $X/diag.txt | grep -vc 'bad=0 ')" >> $S
}
for g in $D/gg-diag $D/gg-fix; do
  diag rep-a $g $g --engine gpu -h -n -E -f $R /dev/shm/rep-a.log
  diag rep-c $g $g --engine gpu -h -n -E -f $R /dev/shm/rep-c.log
  for c in 256M 64M 16M; do diag "big8 $c" $g GPUGREP_GPU_CHUNK=$c $g --engine gpu -j16 -h -n -E -f $R -r $B; done
  for f in s-prox s-rand rep-c; do for c in 256M 16M; do
    diag "$f p1 $c" $g GPUGREP_RULE_PACK=rules GPUGREP_GPU_CHUNK=$c $g --engine gpu -j16 -h -n -E -f $D/p1.txt /dev/shm/$f.log
  done; done
  diag "s-prox templates 16M" $g GPUGREP_GPU_CHUNK=16M $g --engine gpu -j16 -h -n -E -f $R /dev/shm/s-prox.log
done
for f in rep-c s-prox s-rand; do echo "cpu $f p1: $($D/gpugrep --engine cpu -h -n -E -f $D/p1.txt /dev/shm/$f.log | md5sum | cut -c1-8)" >> $S; done
echo "cpu rep-c templates: $($D/gpugrep --engine cpu -h -n -E -f $R /dev/shm/rep-c.log | md5sum | cut -c1-8); big8 lines truth 10165068" >> $S
G=$D/gpugrep
head -c 2000000 /dev/shm/rep-c.log > $X/s2.log
for args in "-n -E -f $R" "-c -E -f $R" "-n -E -f $D/auto3.txt" "-c -F proxy" "-n -F -e proxy -e bytes -e HTTPS" "-c -i -F Proxy" "-n -E [0-9]+KB" ; do
  timeout 120 compute-sanitizer --tool synccheck --error-exitcode 9 $G --engine gpu $args /dev/shm/rep-a.log > $X/san.txt 2>&1
  echo "synccheck $args: rc $? $(grep -c 'Barrier error' $X/san.txt) barrier errors" >> $S
done
export GPUGREP_BIN=$G
for t in gpu_rule_split gpu_differential gpu_automaton; do
  timeout 150 $D/t/$t --test-threads 1 > $O/test-$t.txt 2>&1
  echo "$t rc $? after $SECONDS s: $(grep -h "test result" $O/test-$t.txt)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
