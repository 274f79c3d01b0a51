#!/usr/bin/env bash
# session 57, call 4: __syncwarp() did not help (call 3). Is it the pinned
# NVRTC's sm_90 code? The same builds with GPUGREP_GPU_CUBIN=0 (the
# driver JIT-compiles the PTX); synccheck's reports; the new SASS.
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
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out /dev/shm/r --size 16M > $X/real.txt 2>&1
R=/dev/shm/r/rules-templates.txt
nvidia-smi --query-gpu=name,driver_version --format=csv >> $S
diag() { local l=$1; shift
  env GPUGREP_DIAG_COUNTS=1 GPUGREP_DIAG_NORECOUNT=1 "$@" 2> $X/diag.txt > $X/out.txt
  echo "$l: lines $(wc -l < $X/out.txt) md5 $(md5sum < $X/out.txt | cut -c1-8); launches $(grep -c DIAGSUM $X/diag.txt), bad $(grep DIAGSUM $X/diag.txt | grep -vc 'bad=0 ')" >> $S; }
for g in gg-diag gg-fix; do for cub in 1 0; do for f in rep-a rep-c; do
  diag "$g cubin=$cub $f" GPUGREP_GPU_CUBIN=$cub $D/$g --engine gpu -h -n -E -f $R /dev/shm/$f.log
done; done; done
for cub in 1 0; do
  GPUGREP_GPU_CUBIN=$cub timeout 120 compute-sanitizer --tool synccheck $D/gpugrep --engine gpu -n -E -f $R /dev/shm/rep-a.log > $X/san.txt 2>&1
  echo "synccheck gpugrep cubin=$cub: $(grep -c 'Barrier error' $X/san.txt) barrier errors" >> $S
  grep -A3 'Barrier error' $X/san.txt | head -8 >> $S
done
cuobjdump -sass kernels/automaton.sm_90.cubin > $X/a.sass 2>&1
grep -n -B30 -A4 "BAR.SYNC" $X/a.sass | grep -v "^\-\-$" | sed 's@/\* 0x[0-9a-f]* \*/@@' | grep -v "^[0-9]*-\s*$" > $O/automaton-bars.txt
echo "all done after $SECONDS s" >> $S
cat $S
