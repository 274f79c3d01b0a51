#!/usr/bin/env bash
# Rule-pack benchmark (issue 17): `-E -c -f rules-N.txt` over CI-style logs,
# N = 100, 1,000, 10,000 (benches/rules/gen.py), for gpugrep (--engine cpu;
# gpu and auto when a GPU is present), ripgrep, ugrep, GNU grep (the 100
# pack only, by default) and Hyperscan (benches/hs/hsgrep.c). Every tool's
# -c total must equal gpugrep cpu's; the table gives seconds, GB/s, and each
# tool's time over the first row's. With FLAG=-n every tool prints the
# matching lines with their numbers (`-h -n`; hsgrep -n) into /dev/null,
# timed, and then once more into `wc -l`, untimed: that count is compared.
#
#   benches/rules.sh [SIZE]          (default 200M; the logs corpus)
#
# Environment: BIN (dir holding gpugrep, gpugrep-corpus and optionally rg,
# ugrep, hsgrep; default target/release, else .dev), THREADS (default
# nproc), WORK (default /tmp/gpugrep-rules), SIZES ("100 1000 10000"),
# GNU_SIZES ("100"; empty for none), TOOL_TIMEOUT (seconds per run, default 300), RUNS
# (best of, default 2), FLAG (-c, or -n), CPU (1; 0 leaves out gpugrep's
# CPU engine). hsgrep is built here when cc and <hs/hs.h> exist
# (Debian: libhyperscan-dev) and BIN holds none; benches/gpu/pack-dev.sh
# copies it into .dev/ for the device machine, which has no compiler.
#
# Real packs: with GITLEAKS (gitleaks' config/gitleaks.toml) and LOGHUB (a
# directory of loghub's *_2k.log and *_templates.csv), SIZES may name
# `gitleaks` (searched with -P) and `templates` (-E), and the corpus is
# loghub's logs repeated to SIZE (benches/rules/real.py); SHAPE (one, the
# default: one system a file; mix: the systems in turn within each file;
# small: files of 1 MiB) picks how they are laid out.
set -u
cd "$(dirname "$0")/.."
SIZE=${1:-200M}
THREADS=${THREADS:-$(nproc)}
WORK=${WORK:-/tmp/gpugrep-rules}
SIZES=${SIZES:-100 1000 10000}
GNU_SIZES=${GNU_SIZES-100}
TOOL_TIMEOUT=${TOOL_TIMEOUT:-300}
RUNS=${RUNS:-2}
FLAG=${FLAG:--c}
CPU=${CPU:-1}
[[ $FLAG == -c || $FLAG == -n ]] || { echo "FLAG: -c or -n" >&2; exit 2; }
if [[ -z ${BIN:-} ]]; then
    if [[ -x target/release/gpugrep ]]; then BIN=target/release; else BIN=.dev; fi
fi
BIN=$(cd "$BIN" && pwd)
[[ -d $BIN/lib ]] && export LD_LIBRARY_PATH=$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$WORK"
GEN_SIZES=$(printf '%s\n' $SIZES | grep -E '^[0-9]+$' | tr '\n' ' ')
[[ -n $GEN_SIZES ]] && { python3 benches/rules/gen.py --out "$WORK" $GEN_SIZES >/dev/null || exit 2; }
CORPUS=$WORK/logs-$SIZE
if [[ -n ${GITLEAKS:-} && -n ${LOGHUB:-} ]]; then
    SHAPE=${SHAPE:-one}
    python3 benches/rules/real.py --gitleaks "$GITLEAKS" --loghub "$LOGHUB" --out "$WORK" \
        --size "$SIZE" --shape "$SHAPE" >&2 || exit 2
    CORPUS=$WORK/loghub-$SIZE
    [[ $SHAPE != one ]] && CORPUS=$CORPUS-$SHAPE
elif [[ ! -d $CORPUS ]]; then
    "$BIN/gpugrep-corpus" --kind logs --out "$CORPUS" --size "$SIZE" --files 64 >&2 || exit 2
fi
BYTES=$(du -sb "$CORPUS" | cut -f1)

tool() { # name: the command for it, or nothing when absent
    case $1 in
    rg) [[ -x $BIN/rg ]] && echo "$BIN/rg" || command -v rg ;;
    ugrep) [[ -x $BIN/ugrep ]] && echo "$BIN/ugrep" || command -v ugrep ;;
    grep) command -v grep ;;
    hsgrep)
        if [[ -x $BIN/hsgrep ]]; then echo "$BIN/hsgrep"
        elif [[ -x $WORK/hsgrep ]]; then echo "$WORK/hsgrep"
        elif command -v cc >/dev/null && [[ -e /usr/include/hs/hs.h ]]; then
            cc -O2 -pthread -o "$WORK/hsgrep" benches/hs/hsgrep.c \
                -Wl,-Bstatic -lhs -lstdc++ -Wl,-Bdynamic -static-libgcc -lm >&2 && echo "$WORK/hsgrep"
        fi ;;
    esac
}
RG=$(tool rg); UG=$(tool ugrep); GG=$(tool grep); HS=$(tool hsgrep)
GPU=no
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && GPU=yes

calc() { awk "BEGIN { print $1 }"; }
sum() { awk -F: '{ s += $NF } END { print s + 0 }'; }

# run LABEL RULES CMD...: best-of-$RUNS seconds and the -c total (-n: the
# lines printed, counted in a run of its own), or "timeout".
run() {
    local label=$1 rules=$2; shift 2
    local best= total= t0 t1 out rc
    for ((r = 0; r < RUNS; r++)); do
        t0=$(date +%s.%N)
        if [[ $FLAG == -n ]]; then
            timeout "$TOOL_TIMEOUT" "$@" >/dev/null 2>"$WORK/stderr"
        else
            out=$(timeout "$TOOL_TIMEOUT" "$@" 2>"$WORK/stderr")
        fi
        rc=$?
        t1=$(date +%s.%N)
        if ((rc == 124)); then echo "timeout"; return; fi
        if ((rc > 1)); then echo "error:$(head -c 200 "$WORK/stderr" | tr '\n' ' ')"; return; fi
        [[ $FLAG == -c ]] && total=$(echo "$out" | sum)
        local s; s=$(calc "$t1 - $t0")
        if [[ -z $best ]] || (($(calc "$s < $best"))); then best=$s; fi
    done
    [[ $FLAG == -n ]] && total=$(timeout "$TOOL_TIMEOUT" "$@" 2>/dev/null | wc -l)
    echo "$best $total"
}

printf '# %s of logs in %s (%d bytes), %d threads, -E (gitleaks: -P) %s -f rules-N.txt, best of %d\n' \
    "$SIZE" "$(basename "$CORPUS")" "$BYTES" "$THREADS" "$FLAG" "$RUNS"
printf '%-7s %-18s %9s %8s %10s %6s %8s\n' rules tool seconds GB/s count agree "x first"
for n in $SIZES; do
    rules=$WORK/rules-$n.txt
    syn=-E; rg_limits=()
    # rg's default limits refuse gitleaks' pack ("compiled regex exceeds
    # size limit"): raised, it runs.
    [[ $n == gitleaks ]] && { syn=-P; rg_limits=(--regex-size-limit 2G --dfa-size-limit 1G); }
    ref=
    row() { # label result
        local label=$1 res=$2
        if [[ $res == timeout || $res == error* ]]; then
            printf '%-7s %-18s %9s\n' "$n" "$label" "$res"; return
        fi
        local s=${res% *} c=${res#* }
        [[ -z $ref ]] && { ref=$s; refc=$c; }
        local agree=yes; [[ $c != "$refc" ]] && agree=NO
        printf '%-7s %-18s %9.3f %8.2f %10s %6s %8.2f\n' "$n" "$label" "$s" \
            "$(calc "$BYTES / $s / 1e9")" "$c" "$agree" "$(calc "$s / $ref")"
    }
    ((CPU)) && row "gpugrep cpu" "$(run cpu "$rules" "$BIN/gpugrep" --engine cpu -j"$THREADS" -h "$FLAG" $syn -f "$rules" -r "$CORPUS")"
    if [[ $GPU == yes ]]; then
        row "gpugrep gpu" "$(run gpu "$rules" "$BIN/gpugrep" --engine gpu -j"$THREADS" -h "$FLAG" $syn -f "$rules" -r "$CORPUS")"
        row "gpugrep auto" "$(run auto "$rules" "$BIN/gpugrep" -j"$THREADS" -h "$FLAG" $syn -f "$rules" -r "$CORPUS")"
    fi
    hs_flag=(); [[ $FLAG == -n ]] && hs_flag=(-n)
    [[ -n $HS ]] && row "hyperscan" "$(run hs "$rules" "$HS" -j "$THREADS" "${hs_flag[@]}" -f "$rules" "$CORPUS")"
    [[ -n $RG ]] && row "rg -j$THREADS" "$(run rg "$rules" "$RG" "${rg_limits[@]}" -j"$THREADS" --no-filename "$FLAG" -f "$rules" "$CORPUS")"
    [[ -n $UG ]] && row "ugrep -J$THREADS" "$(run ug "$rules" "$UG" -J"$THREADS" -h "$FLAG" $syn -f "$rules" -r "$CORPUS")"
    # (Not under -n: GNU grep stops at its first match when stdout is
    # /dev/null.)
    if [[ -n $GG && $FLAG == -c && " $GNU_SIZES " == *" $n "* ]]; then
        row "GNU grep" "$(run gnu "$rules" "$GG" -h "$FLAG" $syn -f "$rules" -r "$CORPUS")"
    fi
    # Compile time alone: one empty file.
    : >"$WORK/empty"
    t0=$(date +%s.%N); "$BIN/gpugrep" --engine cpu -c $syn -f "$rules" "$WORK/empty" >/dev/null; t1=$(date +%s.%N)
    printf '%-7s %-18s %9.3f   (compile + start, empty input)\n' "$n" "gpugrep compile" "$(calc "$t1 - $t0")"
done
