#!/usr/bin/env bash
# session 37, call 2 (16 cores): the CPU engine's rule-pack engines on the
# real packs (GPUGREP_RULE_PACK=pack|alternation against the default), the
# GPU tests of -P and the trimmed packs, racecheck of the split's kernels.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
[[ -d $W/loghub-16G ]] || python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $O/real.txt 2>&1
t() { # label cmd...: wall, peak, count
  local l=$1; shift
  timeout 60 /usr/bin/time -f "%e s %M KB" -o $O/t.txt "$@" > $O/ans.txt 2>/dev/null
  echo "$l: $(tail -1 $O/t.txt) $(awk '{s+=$1} END {print s+0}' $O/ans.txt)" >> $S
}
t "templates cpu default" $D/gpugrep --engine cpu -j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G
for e in pack alternation; do
  t "templates cpu $e" env GPUGREP_RULE_PACK=$e $D/gpugrep --engine cpu -j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G
done
t "templates rg" $D/rg -j16 -c --no-filename -f $W/rules-templates.txt $W/loghub-16G
t "templates auto" $D/gpugrep -j16 -h -c -E -f $W/rules-templates.txt -r $W/loghub-16G
t "gitleaks cpu" $D/gpugrep --engine cpu -j16 -h -c -P -f $W/rules-gitleaks.txt -r $W/loghub-16G
t "gitleaks cpu pack" env GPUGREP_RULE_PACK=pack $D/gpugrep --engine cpu -j16 -h -c -P -f $W/rules-gitleaks.txt -r $W/loghub-16G
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep GPUGREP_RULE_PACK_CASES=20 timeout 120 $D/rule_packs > $O/rule_packs-gpu.txt 2>&1; echo "rule_packs gpu rc $?" >> $S
GPUGREP_TEST_ENGINE=gpu GPUGREP_BIN=$D/gpugrep timeout 60 $D/cli_patterns perl > $O/cli_patterns-gpu.txt 2>&1; echo "cli_patterns perl gpu rc $?" >> $S
GPUGREP_BIN=$D/gpugrep GPUGREP_SPLIT_CASES=20 timeout 90 $D/gpu_rule_split > $O/gpu_rule_split.txt 2>&1; echo "gpu_rule_split rc $?" >> $S
left=$(( 560 - SECONDS )); echo "racecheck limit $left s" >> $S
GPUGREP_BIN=$D/gpugrep GPUGREP_SPLIT_CASES=2 timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 $D/gpu_rule_split kernels_match_reference > $O/racecheck.txt 2>&1; echo "racecheck rc $? after $SECONDS s" >> $S
cat $S
