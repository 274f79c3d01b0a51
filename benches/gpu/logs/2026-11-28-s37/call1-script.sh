#!/usr/bin/env bash
# session 37, call 1 (16 cores): real rule packs (gitleaks' 221 secret
# rules with -P, loghub's 1,733 event templates with -E) over loghub's
# logs repeated to 16 GiB, -c, every tool once (benches/rules.sh).
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
BIN=$D THREADS=16 WORK=/dev/shm/real SIZES="gitleaks templates" GNU_SIZES= RUNS=1 TOOL_TIMEOUT=60 \
  GITLEAKS=$D/real/gitleaks.toml LOGHUB=$D/real/loghub \
  bash benches/rules.sh 16G > $O/real-16G-c.txt 2> $O/real-16G-c.err
for p in gitleaks templates; do
  syn=-E; [[ $p == gitleaks ]] && syn=-P
  $D/gpugrep --stats --debug -j16 -h -c $syn -f /dev/shm/real/rules-$p.txt -r /dev/shm/real/loghub-16G > /dev/null 2> $O/stats-$p.txt
done
cat $O/real-16G-c.txt
