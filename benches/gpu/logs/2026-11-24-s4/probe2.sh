set -u
D=$PWD/.dev; P=/dev/shm/p
mkdir -p $P; [[ -d $P/bom ]] || tar -C $P -xJf $D/bom.tar.xz
best() { # best-of-9 wall ms of "$@"
  python3 - "$@" <<'PY'
import subprocess, sys, time, os
b = 1e9
for _ in range(9):
    t = time.perf_counter(); subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); b = min(b, time.perf_counter() - t)
print(f"{b*1e3:.1f}")
PY
}
for pat in "-c -F qqqzzz" "-c -i josé"; do
  echo "== $pat"
  echo "rg $(best $D/rg --no-config -uu -a -j16 $pat $P/bom)"
  echo "gg default $(best $D/gpugrep-probe --engine cpu -j16 -r $pat $P/bom)"
  for e in 4096:8192 8192:16384 100000:100000; do
    echo "gg early=${e%%:*} ahead=${e##*:} $(PROBE_EARLY=${e%%:*} PROBE_AHEAD=${e##*:} best $D/gpugrep-probe --engine cpu -j16 -r $pat $P/bom)"
  done
done
for i in 1 2 3; do PROBE_TIME=1 $D/gpugrep-probe --engine cpu -j16 -r -c -F qqqzzz $P/bom 2>&1 >/dev/null | tail -1; done
for i in 1 2 3; do PROBE_TIME=1 PROBE_EARLY=100000 PROBE_AHEAD=100000 $D/gpugrep-probe --engine cpu -j16 -r -c -F qqqzzz $P/bom 2>&1 >/dev/null | tail -1; done
