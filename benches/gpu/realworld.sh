#!/usr/bin/env bash
# Issue 16's GPU benchmark on real-shaped text, in one device call.
#
#   OUT=... SIZE_GIB=16 FILES=20000 [GEN_FLAGS="--lf --no-bom"] benches/gpu/realworld.sh
#
# Corpus (benches/gpu/gen-prose.py): SIZE_GIB GiB of prose made of real
# vocabulary (.dev/words: Debian's wamerican), UTF-8 files that start with
# a byte-order mark and end lines with CRLF, in FILES files; pattern lists
# of 1,000 and 10,000 real words, 15 % absent. Tools, run one after the
# other on the same files, once each after the corpus is in memory
# (/dev/shm): gpugrep --engine gpu, gpugrep auto, rg -j16, ugrep -J16
# (.dev/ugrep, Debian's, when there; UGREP_TIMEOUT seconds, default 120),
# Hyperscan (.dev/hsgrep, 16 threads, -c semantics: only where it answers
# the same question: -c, -i -c, -w -c with \b...\b), and gpugrep --engine
# cpu, whose answer the others are checked against. gpu_MB is the GPU's
# peak memory in use during the run (nvidia-smi every 50 ms, less what
# was in use before it). Answers are reduced to one
# number (summed counts, or output lines); the table gives seconds, GB/s,
# peak host memory, and the ratio to rg and Hyperscan. rg's -o and
# --count-matches differ with a set of words that overlap ("cat",
# "category"): rg takes the first pattern that matches, GNU grep and
# gpugrep the longest match.
# CASES (default below) picks rows as "OPTIONS" strings; TOOLS (default
# all: gpu auto cpu rg ugrep hs) the tools (cpu always: the reference).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
D=${D:-$PWD/.dev}
SIZE_GIB=${SIZE_GIB:-16}
FILES=${FILES:-20000}
C=${C:-/dev/shm/rw}
SETS=${SETS:-"1000 10000"}
CASES=${CASES:-"-c|-l|-w -c|-i -c|-v -c|--count-matches|-n|-o"}
THREADS=${THREADS:-16}
UGREP_TIMEOUT=${UGREP_TIMEOUT:-120}
export LD_LIBRARY_PATH=$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

if [[ ! -d $C ]]; then
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # GEN_FLAGS is a list of flags.
    python3 benches/gpu/gen-prose.py "$D/words" "$C" "$SIZE_GIB" "$FILES" ${GEN_FLAGS:-} || exit 2
    echo "# corpus: $(du -sb "$C" | cut -f1) bytes in $FILES files, $(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }') s to write"
fi
bytes=$(du -sb "$C" | cut -f1)
for n in $SETS; do sed 's/.*/\\b&\\b/' "$C.words-$n.txt" >"$C.words-$n.w.txt"; done

# One number per answer: summed FILE:COUNT counts, or output lines.
reduce() {
    case $1 in
        count) awk -F: '{s += $NF} END {print s + 0}' ;;
        total) awk '{s += $NF} END {print s + 0}' ;;
        *) wc -l | tr -d ' ' ;;
    esac
}

# time_tool NAME REDUCE CMD...: prints "seconds peak_kb answer". The
# output goes through a pipe to the reducer, as a user's would: dense -o
# and -n output (tens of GB) kept in files filled the machine's memory.
# A fourth field is the GPU's peak memory in MB over the run (- where
# nvidia-smi is missing).
time_tool() {
    local name=$1 how=$2; shift 2
    local ans sampler="" base=0 peak=-
    if command -v nvidia-smi >/dev/null; then
        base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)
        nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 50 >"$OUT/rw.gpumem" &
        sampler=$!
    fi
    ans=$(/usr/bin/time -f "%e %M" -o "$OUT/rw.time" "$@" 2>"$OUT/rw-$name.err" | reduce "$how")
    if [[ -n $sampler ]]; then
        kill "$sampler" 2>/dev/null
        wait "$sampler" 2>/dev/null
        peak=$(awk -v b="$base" '$1 + 0 > m { m = $1 + 0 } END { print (m > b ? m - b : 0) }' "$OUT/rw.gpumem")
    fi
    echo "$(tail -1 "$OUT/rw.time") $ans $peak"
}

printf "%-6s %-16s %-10s %8s %7s %9s %7s %12s %6s %6s %6s\n" words options tool seconds GB/s peak_MB gpu_MB answer agree x_rg x_hs
for n in $SETS; do
    pats=$C.words-$n.txt
    IFS='|' read -ra cases <<<"$CASES"
    for opts in "${cases[@]}"; do
        read -ra o <<<"$opts"
        case $opts in
            -c | "-w -c" | "-i -c" | "-v -c" | --count-matches) how=count ;;
            *) how=lines ;;
        esac
        declare -A secs=() ans=() mem=() gmem=()
        tools=(gpu auto cpu rg)
        [[ -x $D/ugrep ]] && tools+=(ugrep)
        [[ $opts == "-c" || $opts == "-i -c" || $opts == "-w -c" ]] && tools+=(hs)
        if [[ -n ${TOOLS:-} ]]; then
            keep=(cpu)
            for t in "${tools[@]}"; do [[ $t != cpu && " $TOOLS " == *" $t "* ]] && keep+=("$t"); done
            tools=("${keep[@]}")
        fi
        for tool in "${tools[@]}"; do
            case $tool in
                gpu) r=$(time_tool gpu $how "$D/gpugrep" --engine gpu -j"$THREADS" -r "${o[@]}" -F -f "$pats" "$C") ;;
                auto) r=$(time_tool auto $how "$D/gpugrep" -j"$THREADS" -r "${o[@]}" -F -f "$pats" "$C") ;;
                cpu) r=$(time_tool cpu $how "$D/gpugrep" --engine cpu -j"$THREADS" -r "${o[@]}" -F -f "$pats" "$C") ;;
                rg) r=$(time_tool rg $how "$D/rg" --no-config -uu -a -j"$THREADS" "${o[@]}" -F -f "$pats" "$C") ;;
                ugrep) r=$(time_tool ugrep $how timeout "$UGREP_TIMEOUT" "$D/ugrep" -J"$THREADS" -r "${o[@]}" -F -f "$pats" "$C") ;;
                hs)
                    hp=$pats; hi=()
                    [[ $opts == "-w -c" ]] && hp=$C.words-$n.w.txt
                    [[ $opts == "-i -c" ]] && hi=(-i)
                    r=$(time_tool hs total "$D/hsgrep" -j "$THREADS" "${hi[@]}" -f "$hp" "$C")
                    ;;
            esac
            read -r s m a g <<<"$r"
            secs[$tool]=$s; mem[$tool]=$m; ans[$tool]=$a; gmem[$tool]=$g
        done
        # --stats of the GPU run, for where the time went and what fell back.
        "$D/gpugrep" --engine gpu -j"$THREADS" --stats -r "${o[@]}" -F -f "$pats" "$C" \
            >/dev/null 2>"$OUT/rw-stats-$n-${opts// /_}.txt"
        for tool in "${tools[@]}"; do
            agree=yes; [[ ${ans[$tool]} == "${ans[cpu]}" ]] || agree=NO
            # awk, not bc: the device machine has no bc.
            ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b }'; }
            xr=-; [[ -n ${secs[rg]:-} ]] && xr=$(ratio "${secs[rg]}" "${secs[$tool]}")
            xh=-; [[ -n ${secs[hs]:-} ]] && xh=$(ratio "${secs[hs]}" "${secs[$tool]}")
            gbs=$(ratio "$bytes" "${secs[$tool]}e9")
            printf "%-6s %-16s %-10s %8s %7s %9s %7s %12s %6s %6s %6s\n" "$n" "$opts" "$tool" "${secs[$tool]}" "$gbs" \
                "$((${mem[$tool]} / 1024))" "${gmem[$tool]}" "${ans[$tool]}" "$agree" "$xr" "$xh"
        done
        unset secs ans mem gmem
    done
done
