#!/usr/bin/env bash
# Compressed logs: gpugrep --decompress against rg -z, ugrep -z and zgrep.
#
#   benches/compressed.sh [DIR]          (default DIR: /tmp/zb)
#
# Makes (once) DIR/big.log.gz, 1 GiB of `gpugrep-corpus --kind logs` through
# `gzip -6`, and DIR/small, 1,000 log files (100 MiB in all) gzipped one by
# one; checks that every tool gives the same counts; then times each tool
# REPS times (default 5), the tools taking turns, and prints the median and
# the range, in seconds. Environment: GPUGREP (default target/release/gpugrep),
# CORPUS (target/release/gpugrep-corpus), RG (rg), UGREP (ugrep), REPS.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=${1:-/tmp/zb}
G=${GPUGREP:-target/release/gpugrep}
C=${CORPUS:-target/release/gpugrep-corpus}
RG=${RG:-rg}
UG=${UGREP:-ugrep}
REPS=${REPS:-5}
PAT=ERROR

mkdir -p "$DIR"
if [ ! -f "$DIR/big.log.gz" ]; then
    "$C" --kind logs --out "$DIR/big.log" --size 1G >/dev/null
    gzip -6 "$DIR/big.log"
fi
if [ ! -d "$DIR/small" ]; then
    "$C" --kind logs --out "$DIR/small" --size 100M --files 1000 >/dev/null
    gzip -r -6 "$DIR/small"
fi

# Same answers: per-file counts (rg -c leaves out files with none).
check() {
    local name=$1; shift
    "$@" | sort | grep -v ':0$' >"$DIR/out.$name" || true
}
check gpugrep "$G" --decompress -Hc "$PAT" "$DIR/big.log.gz"
check rg "$RG" -z -Hc "$PAT" "$DIR/big.log.gz"
check ugrep "$UG" -z -Hc "$PAT" "$DIR/big.log.gz"
check zgrep zgrep -Hc "$PAT" "$DIR/big.log.gz"
for t in rg ugrep zgrep; do cmp "$DIR/out.gpugrep" "$DIR/out.$t"; done
big_count=$(cat "$DIR/out.gpugrep")
check gpugrep "$G" --decompress -rc "$PAT" "$DIR/small"
check rg "$RG" -z -c "$PAT" "$DIR/small"
check ugrep "$UG" -z -rc "$PAT" "$DIR/small"
check zgrep bash -c "zgrep -c $PAT $DIR/small/*/*.gz"
for t in rg ugrep zgrep; do cmp "$DIR/out.gpugrep" "$DIR/out.$t"; done
echo "answers agree: $big_count; $(wc -l <"$DIR/out.gpugrep") small files with matches"

declare -A CMDS=(
    [big:gpugrep]="$G --decompress -c $PAT $DIR/big.log.gz"
    [big:rg]="$RG -z -c $PAT $DIR/big.log.gz"
    [big:ugrep]="$UG -z -c $PAT $DIR/big.log.gz"
    [big:zgrep]="zgrep -c $PAT $DIR/big.log.gz"
    [small:gpugrep]="$G --decompress -rc $PAT $DIR/small"
    [small:rg]="$RG -z -c $PAT $DIR/small"
    [small:ugrep]="$UG -z -rc $PAT $DIR/small"
    [small:zgrep]="zgrep -c $PAT $DIR/small/*/*.gz"
)
# Wall-clock and CPU (user + system) seconds: on a shared machine the CPU
# time moves less from run to run than the wall clock. Output goes to a
# file: GNU grep and ugrep stop at the first match when it is /dev/null.
for work in big small; do
    declare -A WALL=() CPU=()
    for _ in $(seq "$REPS"); do
        for tool in gpugrep rg ugrep zgrep; do
            /usr/bin/time -o "$DIR/time" -f "%e %U %S" bash -c "${CMDS[$work:$tool]} >$DIR/bench.out"
            read -r e u s <"$DIR/time"
            WALL[$tool]+="$e "
            CPU[$tool]+="$(echo "$u + $s" | bc) "
        done
    done
    for tool in gpugrep rg ugrep zgrep; do
        # shellcheck disable=SC2086
        wall=$(printf '%s\n' ${WALL[$tool]} | sort -g)
        # shellcheck disable=SC2086
        cpu=$(printf '%s\n' ${CPU[$tool]} | sort -g)
        mid=$(((REPS + 1) / 2))
        echo -e "$work\t$tool\twall median $(echo "$wall" | sed -n ${mid}p) s ($(echo "$wall" | head -1)-$(echo "$wall" | tail -1))\tcpu median $(echo "$cpu" | sed -n ${mid}p) s\t${CMDS[$work:$tool]}"
    done
    unset WALL CPU
done
