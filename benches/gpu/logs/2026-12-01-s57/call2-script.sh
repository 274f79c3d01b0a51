#!/usr/bin/env bash
# session 57, call 2: call 1 found the automaton kernel's tile counts wrong
# (confirm's right) on Proxifier's 256 MiB copies, tiles 6999 and 8055
# (recount off). Small files cut tile-aligned around those tiles; the
# diagnostic build on them; compute-sanitizer's synccheck, racecheck and
# initcheck there; the automaton kernel's SASS.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
python3 - <<'PY'
b=open('/tmp/d/real/loghub/Proxifier_2k.log','rb').read()
if not b.endswith(b'\n'): b+=b'\n'
d=b*(268242116//len(b))
T=32768
for name,lo,hi in (('a',6999-10,6999+10),('b',8055-10,8055+10),('c',6999-200,8055+100),('d',6990,7010)):
    open('/dev/shm/rep-%s.log'%name,'wb').write(d[lo*T:hi*T])
open('/dev/shm/prox.log','wb').write(d)
PY
R=$X/templates.txt
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/r --size 16M > $X/real.txt 2>&1
cp /dev/shm/r/rules-templates.txt $R
G=$D/gg-diag
ls -la /dev/shm >> $S
for f in prox rep-a rep-b rep-c rep-d; do
  GPUGREP_DIAG_COUNTS=1 GPUGREP_DIAG_NORECOUNT=1 $G --engine gpu -h -n -E -f $R /dev/shm/$f.log 2> $X/diag.txt | wc -l > $X/wc
  c=$($D/gpugrep --engine cpu -c -E -f $R /dev/shm/$f.log)
  echo "$f: lines $(cat $X/wc) cpu $c; $(grep DIAGSUM $X/diag.txt | grep -v 'bad=0 ' | head -3)" >> $S
  grep '^DIAG ' $X/diag.txt | head -4 >> $S
done
cuobjdump -sass kernels/automaton.sm_90.cubin > $O/automaton.sass 2>&1; echo "cuobjdump rc $?" >> $S
for f in rep-a rep-b; do
for tool in synccheck racecheck initcheck memcheck; do
  GPUGREP_DIAG_NORECOUNT=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $G --engine gpu -c -E -f $R /dev/shm/$f.log > $X/san.txt 2>&1
  echo "$f $tool rc $? after $SECONDS s: $(tail -2 $X/san.txt | tr '\n' ' ')" >> $S
  grep -v '^[0-9]*$' $X/san.txt | head -60 > $O/san-$f-$tool.txt
done; done
echo "all done after $SECONDS s" >> $S
cat $S
