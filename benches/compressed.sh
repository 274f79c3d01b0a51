#!/usr/bin/env bash
# Compressed logs: gpugrep --decompress against rg -z, ugrep -z and zgrep.
#
#   benches/compressed.sh [DIR]          (default DIR: /tmp/zb)
#
# Makes (once, in DIR) from `gpugrep-corpus --kind logs`:
#   big.log.gz     one BIG_SIZE log (default 1G), one gzip member (`gzip -6`)
#   multi.log.gz   the same log as gzip members of 4 MiB of text each (what
#                  `split -b 4M --filter 'gzip -c'`, `cat a.gz b.gz` or
#                  bgzip give): gpugrep decompresses its members on -j threads
#   multi.log.zst  the same log as zstd frames of 4 MiB of text (pzstd-like),
#                  only where a `zstd` program is found
#   small/         SMALL_FILES logs (default 1000) of SMALL_SIZE in all
#                  (default 100M), gzipped one by one
# gzip, where missing, is replaced by Python's zlib (benches/gzip-members.py,
# level 6). Then checks that every tool gives the same per-file counts,
# times each tool REPS times (default 5), the tools taking turns, and
# prints the median and range of wall-clock seconds, CPU seconds, and each
# tool's median over gpugrep's ("x gpugrep").
#
# Tools: gpugrep --decompress -jN; rg -z -jN (it runs `gzip -dc` or
# `zstd -dc` per file, so it is left out of a row where that program is
# missing); ugrep -z -J N (where found); zgrep (where found, and gzip with
# it). N: THREADS, default all cores. A tool that is missing is skipped with
# a note, never a failure. Environment: GPUGREP, CORPUS (default .dev/ when
# present, else target/release/), RG, UGREP, REPS, THREADS, BIG_SIZE,
# SMALL_SIZE, SMALL_FILES. On the device host, with the binaries of
# benches/gpu/pack-dev.sh carried in .dev/ (gzip, zgrep and zstd among them
# where the build host has them):
#
#   PATH=$PWD/.dev:$PATH LD_LIBRARY_PATH=$PWD/.dev/lib REPS=3 benches/compressed.sh /tmp/zb
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=${1:-/tmp/zb}
pick() { if [ -x ".dev/$1" ]; then echo ".dev/$1"; else echo "target/release/$1"; fi; }
G=${GPUGREP:-$(pick gpugrep)}
C=${CORPUS:-$(pick gpugrep-corpus)}
RG=${RG:-rg}
UG=${UGREP:-ugrep}
REPS=${REPS:-5}
N=${THREADS:-$(nproc)}
BIG_SIZE=${BIG_SIZE:-1G}
SMALL_SIZE=${SMALL_SIZE:-100M}
SMALL_FILES=${SMALL_FILES:-1000}
PAT=ERROR
MEMBER=$((4 << 20))
has() { command -v "$1" >/dev/null 2>&1; }

mkdir -p "$DIR"
if [ ! -f "$DIR/big.log" ]; then
    "$C" --kind logs --out "$DIR/big.log" --size "$BIG_SIZE" >/dev/null
fi
if [ ! -f "$DIR/big.log.gz" ]; then
    if has gzip; then gzip -6 -c "$DIR/big.log" >"$DIR/big.log.gz"
    else python3 benches/gzip-members.py "$DIR/big.log" "$DIR/big.log.gz"; fi
fi
if [ ! -f "$DIR/multi.log.gz" ]; then
    python3 benches/gzip-members.py "$DIR/big.log" "$DIR/multi.log.gz" --member $MEMBER
fi
if has zstd && [ ! -f "$DIR/multi.log.zst" ]; then
    split -b $MEMBER --filter 'zstd -q -3 -c' "$DIR/big.log" >"$DIR/multi.log.zst"
fi
if [ ! -d "$DIR/small" ]; then
    "$C" --kind logs --out "$DIR/small" --size "$SMALL_SIZE" --files "$SMALL_FILES" >/dev/null
    if has gzip; then gzip -r -6 "$DIR/small"
    else
        find "$DIR/small" -type f -name '*.log' -print0 |
            xargs -0 -P "$N" -I{} sh -c 'python3 benches/gzip-members.py "$1" "$1.gz" && rm "$1"' _ {}
    fi
fi

# Which tools run on which workload ("big" "multi" "small" "zst").
WORKS="big multi small"
has zstd && [ -f "$DIR/multi.log.zst" ] && WORKS="$WORKS zst"
has zstd || echo "note: no zstd program: the zstd multi-frame row is skipped"
declare -A CMDS=()
for w in $WORKS; do
    case $w in
        big) f="$DIR/big.log.gz" ;;
        multi) f="$DIR/multi.log.gz" ;;
        zst) f="$DIR/multi.log.zst" ;;
        small) f="$DIR/small" ;;
    esac
    r=""; [ "$w" = small ] && r="-r"
    CMDS[$w:gpugrep]="$G --decompress -j$N $r -c $PAT $f"
    # rg -z runs the decompressor as a process: it needs it on PATH.
    if [ "$w" = zst ]; then unpack=zstd; else unpack=gzip; fi
    if has "$RG" && has $unpack; then
        CMDS[$w:rg]="$RG -z -j$N -c $PAT $f"
    fi
    if has "$UG"; then CMDS[$w:ugrep]="$UG -z -J $N $r -c $PAT $f"; fi
    if has zgrep && has gzip && [ "$w" != zst ]; then
        if [ "$w" = small ]; then CMDS[$w:zgrep]="zgrep -c $PAT $f/*/*.gz"
        else CMDS[$w:zgrep]="zgrep -c $PAT $f"; fi
    fi
done
for t in rg ugrep zgrep; do
    [ -n "${CMDS[big:$t]:-}" ] || echo "note: $t not run (not found, or gzip missing for it)"
done

# Same answers: per-file counts, with names (-H; rg -c leaves out files
# with none; zgrep prints names only for several files).
for w in $WORKS; do
    for t in gpugrep rg ugrep zgrep; do
        cmd=${CMDS[$w:$t]:-}
        [ -n "$cmd" ] || continue
        case $t in
            zgrep) cmd="zgrep -H ${cmd#zgrep }" ;;
            *) cmd="$cmd -H" ;;
        esac
        bash -c "$cmd" | sed "s|^$DIR/||" | sort | grep -v ':0$' >"$DIR/out.$w.$t" || true
        cmp "$DIR/out.$w.gpugrep" "$DIR/out.$w.$t"
    done
    echo "answers agree on $w: $(wc -l <"$DIR/out.$w.gpugrep") files with matches, $(awk -F: '{s += $NF} END {print s}' "$DIR/out.$w.gpugrep") lines"
done

# Wall-clock and CPU (user + system) seconds. Output goes to a file: GNU
# grep and ugrep stop at the first match when it is /dev/null.
TIMEFORMAT='%R %U %S'
median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
printf 'work\ttool\twall median (range)\tcpu median\tx gpugrep\tcommand\n'
for w in $WORKS; do
    declare -A WALL=() CPU=()
    for _ in $(seq "$REPS"); do
        for t in gpugrep rg ugrep zgrep; do
            cmd=${CMDS[$w:$t]:-}
            [ -n "$cmd" ] || continue
            # bash's own `time` (the device host may lack /usr/bin/time):
            # the child's wall-clock, user and system seconds.
            { time bash -c "$cmd >$DIR/bench.out"; } 2>"$DIR/time"
            read -r e u s <"$DIR/time"
            WALL[$t]+="$e "
            CPU[$t]+="$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}') "
        done
    done
    # shellcheck disable=SC2086
    base=$(median ${WALL[gpugrep]})
    for t in gpugrep rg ugrep zgrep; do
        [ -n "${WALL[$t]:-}" ] || continue
        # shellcheck disable=SC2086
        wall=$(median ${WALL[$t]})
        # shellcheck disable=SC2086
        lo=$(printf '%s\n' ${WALL[$t]} | sort -g | head -1)
        # shellcheck disable=SC2086
        hi=$(printf '%s\n' ${WALL[$t]} | sort -g | tail -1)
        # shellcheck disable=SC2086
        cpu=$(median ${CPU[$t]})
        ratio=$(awk -v w="$wall" -v b="$base" 'BEGIN {if (b > 0) printf "%.2f", w / b; else print "-"}')
        printf '%s\t%s\t%s s (%s-%s)\t%s s\t%s\t%s\n' "$w" "$t" "$wall" "$lo" "$hi" "$cpu" "$ratio" "${CMDS[$w:$t]}"
    done
    unset WALL CPU
done
