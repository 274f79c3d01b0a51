set -u
D=$PWD/.dev; W=/dev/shm/rules; mkdir -p $W
export LD_LIBRARY_PATH=$D/lib
python3 benches/rules/gen.py --out $W 100 1000 >/dev/null
[[ -d $W/logs-2G ]] || $D/gpugrep-corpus --kind logs --out $W/logs-2G --size 2G --files 64 >/dev/null 2>&1
[[ -d /dev/shm/many ]] || $D/gpugrep-corpus --kind logs --out /dev/shm/many --size 400M --files 100000 >/dev/null 2>&1
P=/dev/shm/p; mkdir -p $P; [[ -d $P/bom ]] || tar -C $P -xJf $D/bom.tar.xz
best() { python3 - "$@" <<'PY'
import subprocess, sys, time
b = 1e9; n = int(sys.argv[1])
for _ in range(n):
    t = time.perf_counter(); subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); b = min(b, time.perf_counter() - t)
print(f"{b*1e3:.1f}")
PY
}
ls $W
echo "rules100 rg $(best 3 $D/rg -j16 --no-filename -c -f $W/rules-100.txt $W/logs-2G)"
for m in 1 2 4 8; do echo "rules100 min=$m $(PROBE_MIN_BATCH=$m best 3 $D/gpugrep-probe --engine cpu -j16 -h -c -E -f $W/rules-100.txt -r $W/logs-2G)"; done
echo "rules1000 rg $(best 1 $D/rg -j16 --no-filename -c -f $W/rules-1000.txt $W/logs-2G)"
for m in 1 8; do echo "rules1000 min=$m $(PROBE_MIN_BATCH=$m best 1 $D/gpugrep-probe --engine cpu -j16 -h -c -E -f $W/rules-1000.txt -r $W/logs-2G)"; done
for m in 1 2 4 8; do echo "rules100 auto min=$m $(PROBE_MIN_BATCH=$m best 2 $D/gpugrep-probe -j16 -h -c -E -f $W/rules-100.txt -r $W/logs-2G)"; done
for c in "many:-c -F error" "many:-c -i warning" "p/bom:-c -i josé" "p/bom:-n -F the"; do
  dir=/dev/shm/${c%%:*}; pat=${c#*:}
  echo "$c rg $(best 7 $D/rg --no-config -uu -a -j16 $pat $dir)"
  for m in 1 2 4 8; do echo "$c min=$m $(PROBE_MIN_BATCH=$m best 7 $D/gpugrep-probe --engine cpu -j16 -r $pat $dir)"; done
done
