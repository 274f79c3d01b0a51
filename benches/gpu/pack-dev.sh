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
strip .dev/* 2>/dev/null || true
ls .dev
