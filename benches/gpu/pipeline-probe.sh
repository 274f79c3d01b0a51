#!/usr/bin/env bash
# Where the GPU pipeline's time goes (issue 16): the 1,000- and 10,000-word
# searches of benches/gpu/realworld.sh's corpus, each with --debug and
# GPUGREP_GPU_TRACE=1 (per-chunk timelines, in $OUT/traces.tgz), the
# process timed around it (when the pipeline began and reported, in ms
# after the process started). One device call:
#
#   PROBE=lanes|phases|early OUT=... bash benches/gpu/pipeline-probe.sh
#
# lanes: lanes, chunk sizes, staging, readers, and auto's CPU rules;
# phases: CUDA start, staging sizes, one rare literal (the CPU's reading);
# early: builds compared, carried as .dev/gpugrep-b and .dev/gpugrep-c;
# output: auto's gate (-l, and sets that need no GPU) and printed lines
# into a pipe, this build against .dev/gpugrep-b, and the pipe's ceiling;
# cubin: the first run on a fresh machine (cubin against the PTX's JIT,
# CUDA_CACHE_DISABLE=1) and the kernels' speed with each, then printed
# lines and -l against .dev/gpugrep-b;
# bound: printed lines (-n, -o) with the bound on waiting results varied
# (.dev/gpugrep-c, -d, -e), auto's gate on a sparse -l.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=${D:-$PWD/.dev}
C=${C:-/dev/shm/rw}
export LD_LIBRARY_PATH=$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [[ ! -d $C ]]; then
    python3 benches/gpu/gen-prose.py "$D/words" "$C" "${SIZE_GIB:-16}" "${FILES:-20000}" || exit 2
fi
# run NAME ENV... -- ARGS...: wall seconds, peak MB, answer; with a trace,
# when the pipeline began and reported (ms after the process started), the
# staging and stage lines.
run() {
    local name=$1; shift
    local envs=()
    while [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    local ans t0
    t0=$(date +%s.%N)
    ans=$(env "${envs[@]}" GPUGREP_GPU_TRACE=1 /usr/bin/time -f "%e %M" -o "$OUT/t" \
        "$@" 2>"$OUT/trace-$name.txt" | awk -F: '{s += $NF} END {print s + 0}')
    read -r s m < <(tail -1 "$OUT/t")
    local began
    began=$(awk -v t0="$t0" '/trace: began at unix/ {sub(",", "", $7); printf "pipeline began %.0f ms, reported %.0f ms after start", ($7 - t0) * 1000, ($7 - t0) * 1000 + $9}' "$OUT/trace-$name.txt")
    printf "%-22s %7s s %6s MB answer %s %s\n" "$name" "$s" "$((m / 1024))" "$ans" "$began"
    grep -E "packer waited|gpu stages|ready after|staging:|started in" "$OUT/trace-$name.txt" |
        sed -e 's/^gpugrep: debug: /    /' -e 's/.*opened in/    opened in/' | cut -c1-200
}
G=$D/gpugrep
W1=$C.words-1000.txt W10=$C.words-10000.txt
case ${PROBE:-lanes} in
lanes)
    run warm -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for lanes in 2 3 4 6 8; do
        for rep in 1 2 3; do
            run "w1k-c-lanes$lanes-$rep" GPUGREP_GPU_LANES=$lanes -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
        done
    done
    for lanes in 4 8; do
        run "w1k-c-chunk32-lanes$lanes" GPUGREP_GPU_CHUNK=32M GPUGREP_GPU_LANES=$lanes -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    done
    run w1k-c-chunk16-lanes8 GPUGREP_GPU_CHUNK=16M GPUGREP_GPU_LANES=8 -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for lanes in 2 4 8; do
        run "w10k-c-lanes$lanes" GPUGREP_GPU_LANES=$lanes -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W10" "$C"
    done
    run w1k-c-auto -- "$G" --debug -j16 -r -c -F -f "$W1" "$C"
    run w1k-c-auto-lanes4 GPUGREP_GPU_LANES=4 -- "$G" --debug -j16 -r -c -F -f "$W1" "$C"
    run w1k-l-auto -- "$G" --debug -j16 -r -l -F -f "$W1" "$C"
    run w1k-l-cpu -- "$G" --engine cpu --debug -j16 -r -l -F -f "$W1" "$C"
    run w10k-c-auto -- "$G" --debug -j16 -r -c -F -f "$W10" "$C"
    run w10k-c-cpu -- "$G" --engine cpu --debug -j16 -r -c -F -f "$W10" "$C"
    run w10k-l-auto -- "$G" --debug -j16 -r -l -F -f "$W10" "$C"
    run w10k-v-auto -- "$G" --debug -j16 -r -v -c -F -f "$W10" "$C"
    run w10k-v-cpu -- "$G" --engine cpu --debug -j16 -r -v -c -F -f "$W10" "$C"
    run w1k-c-rg -- "$D/rg" --no-config -uu -a -j16 -c -F -f "$W1" "$C"
    run w10k-c-rg -- "$D/rg" --no-config -uu -a -j16 -c -F -f "$W10" "$C"
    ;;
phases)
    echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
    run warm -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for rep in 1 2; do
        run "w1k-c-lanes2-$rep" -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
        run "w1k-c-lanes4-$rep" GPUGREP_GPU_LANES=4 -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
        for st in 512M 256M; do
            run "w1k-c-lanes4-st$st-$rep" GPUGREP_GPU_LANES=4 -- "$G" --engine gpu --gpu-staging $st --debug -j16 -r -c -F -f "$W1" "$C"
        done
        run "w1k-c-auto-lanes4-$rep" GPUGREP_GPU_LANES=4 -- "$G" --debug -j16 -r -c -F -f "$W1" "$C"
    done
    run one-rare-cpu -- "$G" --engine cpu -j16 -r -c -F zqxjzqxjq "$C"
    run one-rare-rg -- "$D/rg" --no-config -uu -a -j16 -c -F zqxjzqxjq "$C"
    ;;
early)
    # Builds compared (carried as .dev/gpugrep-b, -c): A the packer claims
    # while CUDA starts; B as A but never under auto; C before (lanes 4).
    run warm -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for rep in 1 2 3; do
        run "gpu-A-$rep" -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
        run "gpu-C-$rep" GPUGREP_GPU_LANES=4 -- "$G-c" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
        run "auto-A-$rep" -- "$G" --debug -j16 -r -c -F -f "$W1" "$C"
        run "auto-B-$rep" -- "$G-b" --debug -j16 -r -c -F -f "$W1" "$C"
        run "auto-C-$rep" GPUGREP_GPU_LANES=4 -- "$G-c" --debug -j16 -r -c -F -f "$W1" "$C"
    done
    for rep in 1 2; do
        run "l-auto-A-$rep" -- "$G" --debug -j16 -r -l -F -f "$W1" "$C"
        run "l-auto-C-$rep" -- "$G-c" --debug -j16 -r -l -F -f "$W1" "$C"
        run "w10k-gpu-A-$rep" -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W10" "$C"
        run "w10k-gpu-C-$rep" GPUGREP_GPU_LANES=4 -- "$G-c" --engine gpu --debug -j16 -r -c -F -f "$W10" "$C"
    done
    ;;
output)
    # A: this build; B: .dev/gpugrep-b. Sparse -l: every word made absent,
    # so every file is read whole and the GPU pays.
    sed 's/$/zqx/' "$W1" >"$C.absent-1000.txt"
    sub=("$C"/0[01])
    run warm -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for rep in 1 2 3; do
        run "l-auto-A-$rep" -- "$G" --debug -j16 -r -l -F -f "$W1" "$C"
        run "l-auto-B-$rep" -- "$G-b" --debug -j16 -r -l -F -f "$W1" "$C"
    done
    run l-cpu -- "$G" --engine cpu --debug -j16 -r -l -F -f "$W1" "$C"
    run l-rg -- "$D/rg" --no-config -uu -a -j16 -l -F -f "$W1" "$C"
    for rep in 1 2; do
        run "l-sparse-auto-A-$rep" -- "$G" --debug -j16 -r -l -F -f "$C.absent-1000.txt" "$C"
        run "l-sparse-auto-B-$rep" -- "$G-b" --debug -j16 -r -l -F -f "$C.absent-1000.txt" "$C"
        run "c-sub-auto-A-$rep" -- "$G" --debug -j16 -r -c -F -f "$W1" "${sub[@]}"
        run "c-sub-auto-B-$rep" -- "$G-b" --debug -j16 -r -c -F -f "$W1" "${sub[@]}"
    done
    run l-sparse-cpu -- "$G" --engine cpu -j16 -r -l -F -f "$C.absent-1000.txt" "$C"
    run c-sub-cpu -- "$G" --engine cpu -j16 -r -c -F -f "$W1" "${sub[@]}"
    # Printed lines: into `wc -l` (as realworld.sh), into /dev/null.
    nrun() {
        local name=$1 sink=$2; shift 2
        case $sink in
            wc) /usr/bin/time -f "%e %M" -o "$OUT/t" "$@" | wc -l >"$OUT/ans" ;;
            null) /usr/bin/time -f "%e %M" -o "$OUT/t" "$@" >/dev/null; echo - >"$OUT/ans" ;;
        esac
        read -r s m < <(tail -1 "$OUT/t")
        printf "%-22s %7s s %6s MB lines %s\n" "$name" "$s" "$((m / 1024))" "$(cat "$OUT/ans")"
    }
    for rep in 1 2; do
        nrun "n-auto-A-wc-$rep" wc "$G" -j16 -r -n -F -f "$W1" "$C"
        nrun "n-auto-B-wc-$rep" wc "$G-b" -j16 -r -n -F -f "$W1" "$C"
        nrun "n-cpu-A-wc-$rep" wc "$G" --engine cpu -j16 -r -n -F -f "$W1" "$C"
        nrun "n-rg-wc-$rep" wc "$D/rg" --no-config -uu -a -j16 -n -F -f "$W1" "$C"
    done
    nrun n-auto-A-null null "$G" -j16 -r -n -F -f "$W1" "$C"
    nrun n-cpu-A-null null "$G" --engine cpu -j16 -r -n -F -f "$W1" "$C"
    nrun n-rg-null null "$D/rg" --no-config -uu -a -j16 -n -F -f "$W1" "$C"
    # The pipe's ceiling: the same output, kept, through cat into wc -l.
    "$G" -j16 -r -n -F -f "$W1" "$C" >/dev/shm/out.n
    echo "output bytes: $(stat -c %s /dev/shm/out.n)"
    python3 - <<'PY'
import fcntl, os, subprocess, time
def run(size):
    r, w = os.pipe()
    if size:
        fcntl.fcntl(w, 1031, size)  # F_SETPIPE_SZ
    t = time.time()
    wc = subprocess.Popen(["wc", "-l"], stdin=r, stdout=subprocess.DEVNULL)
    os.close(r)
    cat = subprocess.Popen(["cat", "/dev/shm/out.n"], stdout=w)
    os.close(w)
    cat.wait(); wc.wait()
    return time.time() - t
for rep in range(2):
    print("cat | wc -l: " + "  ".join("pipe %d KiB %.2f s" % ((s or 65536) >> 10, run(s)) for s in (0, 1 << 20)))
PY
    rm -f /dev/shm/out.n
    ;;
cubin)
    # The first CUDA start of this machine, then each image without the
    # driver's cache, then warm.
    run first-cubin -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for rep in 1 2; do
        run "nocache-cubin-$rep" CUDA_CACHE_DISABLE=1 -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
        run "nocache-ptx-$rep" CUDA_CACHE_DISABLE=1 GPUGREP_GPU_CUBIN=0 -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    done
    for rep in 1 2; do
        for set in 1000 10000; do
            w=$C.words-$set.txt
            run "w$set-gpu-cubin-$rep" -- "$G" --engine gpu --debug -j16 -r -c -F -f "$w" "$C"
            run "w$set-gpu-ptx-$rep" GPUGREP_GPU_CUBIN=0 -- "$G" --engine gpu --debug -j16 -r -c -F -f "$w" "$C"
        done
        run "w1000-i-gpu-cubin-$rep" -- "$G" --engine gpu --debug -j16 -r -i -c -F -f "$W1" "$C"
        run "w1000-i-gpu-ptx-$rep" GPUGREP_GPU_CUBIN=0 -- "$G" --engine gpu --debug -j16 -r -i -c -F -f "$W1" "$C"
    done
    nrun() {
        local name=$1; shift
        /usr/bin/time -f "%e %M" -o "$OUT/t" "$@" | wc -l >"$OUT/ans"
        read -r s m < <(tail -1 "$OUT/t")
        printf "%-22s %7s s %6s MB lines %s\n" "$name" "$s" "$((m / 1024))" "$(cat "$OUT/ans")"
    }
    for rep in 1 2; do
        nrun "n-auto-A-$rep" "$G" -j16 -r -n -F -f "$W1" "$C"
        nrun "n-gpu-A-$rep" "$G" --engine gpu -j16 -r -n -F -f "$W1" "$C"
        nrun "o-auto-A-$rep" "$G" -j16 -r -o -F -f "$W1" "$C"
        nrun "n-rg-$rep" "$D/rg" --no-config -uu -a -j16 -n -F -f "$W1" "$C"
    done
    nrun n-auto-B "$G-b" -j16 -r -n -F -f "$W1" "$C"
    nrun o-rg "$D/rg" --no-config -uu -a -j16 -o -F -f "$W1" "$C"
    for rep in 1 2; do
        run "l-auto-A-$rep" -- "$G" --debug -j16 -r -l -F -f "$W1" "$C"
    done
    run l-cpu -- "$G" --engine cpu -j16 -r -l -F -f "$W1" "$C"
    ;;
bound)
    sed 's/$/zqx/' "$W1" >"$C.absent-1000.txt"
    nrun() {
        local name=$1; shift
        /usr/bin/time -f "%e %M" -o "$OUT/t" "$@" | wc -l >"$OUT/ans"
        read -r s m < <(tail -1 "$OUT/t")
        printf "%-22s %7s s %6s MB lines %s\n" "$name" "$s" "$((m / 1024))" "$(cat "$OUT/ans")"
    }
    run warm -- "$G" --engine gpu --debug -j16 -r -c -F -f "$W1" "$C"
    for rep in 1 2; do
        for v in "" -c -d; do
            nrun "o-auto$v-$rep" "$G$v" -j16 -r -o -F -f "$W1" "$C"
            nrun "n-auto$v-$rep" "$G$v" -j16 -r -n -F -f "$W1" "$C"
        done
    done
    nrun o-cpu "$G" --engine cpu -j16 -r -o -F -f "$W1" "$C"
    nrun o-rg "$D/rg" --no-config -uu -a -j16 -o -F -f "$W1" "$C"
    nrun n-rg "$D/rg" --no-config -uu -a -j16 -n -F -f "$W1" "$C"
    for rep in 1 2; do
        run "l-sparse-auto-$rep" -- "$G" --debug -j16 -r -l -F -f "$C.absent-1000.txt" "$C"
        run "l-auto-$rep" -- "$G" --debug -j16 -r -l -F -f "$W1" "$C"
        run "c-auto-$rep" -- "$G" --debug -j16 -r -c -F -f "$W1" "$C"
    done
    run l-sparse-cpu -- "$G" --engine cpu -j16 -r -l -F -f "$C.absent-1000.txt" "$C"
    run l-cpu -- "$G" --engine cpu -j16 -r -l -F -f "$W1" "$C"
    ;;
esac
# Few files come back from a device call: the traces in one archive.
rm -f "$OUT/t"
tar -C "$OUT" -czf "$OUT/traces.tgz" $(cd "$OUT" && ls trace-*.txt) && rm -f "$OUT"/trace-*.txt
