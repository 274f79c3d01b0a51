set -u; D=$PWD/.dev
[[ -d /dev/shm/tree ]] || tar -C /dev/shm -xJf $D/tree.tar.xz tree
[[ -d /dev/shm/many ]] || $D/gpugrep-corpus --kind logs --out /dev/shm/many --size 400M --files 100000 >/dev/null 2>&1
best() { python3 - "$@" <<'PY'
import subprocess, sys, time
b = 1e9; n = int(sys.argv[1])
for _ in range(n):
    t = time.perf_counter(); subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); b = min(b, time.perf_counter() - t)
print(f"{b*1e3:.1f}")
PY
}
for c in "tree:-c -F static" "tree:-c -i todo" "tree:-c -E \w+_t\b" "tree:-n -F EXPORT_SYMBOL" "many:-c -F error" "many:-n -i warning"; do
  dir=/dev/shm/${c%%:*}; pat=${c#*:}
  for t in rg old new; do
    case $t in rg) cmd="$D/rg --no-config -uu -a -j16";; old) cmd="$D/gpugrep-probe --engine cpu -j16 -r";; new) cmd="$D/gpugrep --engine cpu -j16 -r";; esac
    echo "$c $t $(best 9 $cmd $pat $dir)"
  done
done
