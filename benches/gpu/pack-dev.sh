#!/usr/bin/env bash
# Builds what the device machine runs and puts it in .dev/ (carried with
# `carry: [".dev"]`): gpugrep (release), gpugrep-corpus, every integration
# test executable under its test file's name, and rg from .tools/bin.
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .dev
cargo build --release
cargo build --release --features bench-tools --bin gpugrep-corpus
cp target/release/gpugrep-corpus .dev/
cargo build --release
cp target/release/gpugrep .dev/
cargo test --release --no-run --message-format=json 2>/dev/null | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        shutil.copy(m["executable"], ".dev/" + m["target"]["name"])
'
cp .tools/bin/rg .dev/rg
# ugrep (Debian's) with the libraries the device machine may lack.
if command -v ugrep >/dev/null; then
    cp "$(command -v ugrep)" .dev/ugrep
    mkdir -p .dev/lib
    ldd .dev/ugrep | awk '/=> \// {print $3}' | grep -vE '/(libc|libm|libgcc_s|libstdc\+\+)\.so' |
        xargs -r cp -L -t .dev/lib
fi
# The compressors benches/compressed.sh compares with (the device machine
# may have none): gzip and zgrep (a script calling gzip and grep from
# PATH), zstd, and the libraries they load.
for tool in gzip zgrep zstd; do
    if command -v $tool >/dev/null; then
        cp "$(command -v $tool)" .dev/$tool
        mkdir -p .dev/lib
        ldd .dev/$tool 2>/dev/null | awk '/=> \// {print $3}' |
            grep -vE '/(libc|libm|libgcc_s|libstdc\+\+)\.so' | xargs -r cp -L -t .dev/lib
    fi
done
# The rule-pack benchmark's Hyperscan harness (benches/rules.sh), with
# libhs and libstdc++ linked in: the device machine has no compiler.
if command -v cc >/dev/null && [[ -e /usr/include/hs/hs.h ]]; then
    cc -O2 -pthread -o .dev/hsgrep benches/hs/hsgrep.c \
        -Wl,-Bstatic -lhs -lstdc++ -Wl,-Bdynamic -static-libgcc -lm
fi
# The everyday matrix's source tree (benches/everyday), packed once.
if [[ ! -s .dev/tree.tar.xz && -n $(ls /usr/src/linux-source-*.tar.xz 2>/dev/null) ]]; then
    t=$(mktemp -d)
    top=$(basename "$(ls /usr/src/linux-source-*.tar.xz | tail -1)" .tar.xz)
    tar -C "$t" -xJf /usr/src/"$top".tar.xz "$top"/{fs,kernel,net,mm,lib,include,Documentation}
    mv "$t/$top" "$t/tree"
    tar -C "$t" -cf - tree | xz -T0 -6 >.dev/tree.tar.xz
    rm -rf "$t"
fi
# loghub's Proxifier log and its templates for gpu_rule_split's regression
# (tile_counts_hold_where_lanes_own_no_line_start; check-all.sh passes them
# on), when LOGHUB names a directory of loghub's sample logs and templates
# (fetched from github.com/logpai/loghub, not kept here).
if [[ -n ${LOGHUB:-} && -r $LOGHUB/Proxifier_2k.log ]]; then
    mkdir -p .dev/loghub
    cp "$LOGHUB/Proxifier_2k.log" .dev/loghub/
    t=$(mktemp -d)
    python3 benches/rules/real.py --gitleaks /dev/null --loghub "$LOGHUB" --out "$t" --size 1M >/dev/null
    cp "$t/rules-templates.txt" .dev/loghub/
    rm -rf "$t"
fi
# Real vocabulary for benches/gpu/realworld.sh (Debian's wamerican).
[[ -r /usr/share/dict/american-english ]] && cp /usr/share/dict/american-english .dev/words
strip .dev/* 2>/dev/null || true
ls .dev
