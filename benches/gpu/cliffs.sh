#!/usr/bin/env bash
# Cliff hunt on the GPU path (issue 16's "no cliffs", issue 17's packs):
# option combinations that the fixed matrices (realworld.sh, rules.sh) do
# not run, each timed for gpugrep auto, --engine gpu, --engine cpu and
# rg -j$THREADS on the same files, answers checked equal to the CPU
# engine's, and flagged where auto is more than 10 % behind the faster of
# its two engines or behind rg.
#
#   D=.dev OUT=... benches/gpu/cliffs.sh SET CORPUS PATTERNS 'OPTS|OPTS|...'
#
# SET names the rows; PATTERNS is passed as -f (with -F for a file named
# *words*, -E otherwise); CORPUS is searched with -r. Output goes through a
# pipe into the reducer (summed counts for -c and --count-matches, else
# lines), one run per tool; the table gives seconds and the ratios.
set -u
D=${D:-$PWD/.dev}
THREADS=${THREADS:-16}
TIMEOUT=${TIMEOUT:-60}
set_name=$1 corpus=$2 pats=$3
IFS='|' read -ra cases <<<"$4"
kind=-E; [[ $pats == *words* ]] && kind=-F

reduce() {
    case $1 in
        count) awk -F: '{s += $NF} END {print s + 0}' ;;
        *) wc -l | tr -d ' ' ;;
    esac
}

# t REDUCE CMD...: "seconds answer" ("timeout answer" past TIMEOUT).
t() {
    local how=$1; shift
    local t0 t1 ans
    t0=$(date +%s.%N)
    ans=$(timeout "$TIMEOUT" "$@" 2>/dev/null | reduce "$how")
    local rc=${PIPESTATUS[0]}
    t1=$(date +%s.%N)
    ((rc == 124)) && { echo "timeout $ans"; return; }
    echo "$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.3f", a - b }') $ans"
}

for opts in "${cases[@]}"; do
    read -ra o <<<"$opts"
    how=lines
    [[ " $opts " == *" -c "* || " $opts " == *" --count-matches "* ]] && how=count
    g=$(t $how "$D/gpugrep" --engine gpu -j"$THREADS" -r "${o[@]}" $kind -f "$pats" "$corpus")
    a=$(t $how "$D/gpugrep" -j"$THREADS" -r "${o[@]}" $kind -f "$pats" "$corpus")
    c=$(t $how "$D/gpugrep" --engine cpu -j"$THREADS" -r "${o[@]}" $kind -f "$pats" "$corpus")
    # rg takes -f patterns as regexes unless -F; its -E is --encoding,
    # its -L --follow.
    rk=(); [[ $kind == -F ]] && rk=(-F)
    ro=("${o[@]/#-L/--files-without-match}")
    r=$(t $how "$D/rg" --no-config -uu -a -j"$THREADS" "${ro[@]}" "${rk[@]}" -f "$pats" "$corpus")
    why=$("$D/gpugrep" -j"$THREADS" --stats -r "${o[@]}" $kind -f "$pats" "$corpus" 2>&1 >/dev/null |
        grep -E "^engine|fallback|not started|cpu:" | tr '\n' ';' | cut -c1-300)
    awk -v set="$set_name" -v opts="$opts" -v g="$g" -v a="$a" -v c="$c" -v r="$r" -v why="$why" '
    BEGIN {
        split(g, G, " "); split(a, A, " "); split(c, C, " "); split(r, R, " ")
        best = (G[1] + 0 < C[1] + 0) ? G[1] : C[1]
        flag = ""
        if (A[2] != C[2] || G[2] != C[2]) flag = flag " ANSWER"
        if (A[1] > 1.1 * best + 0.02) flag = flag " AUTO>BEST"
        if (R[1] != "timeout" && A[1] > R[1] + 0.0) flag = flag " AUTO>RG"
        printf "%-8s %-22s gpu %7s auto %7s cpu %7s rg %7s | x_rg %5.2f | %s%s\n", set, opts, G[1], A[1], C[1], R[1],
            (A[1] > 0 && R[1] != "timeout") ? R[1] / A[1] : 0, C[2], flag
        printf "         %s\n", why
    }'
done
