#!/usr/bin/env bash
# Regular expressions through the GPU's literal prefilter (issue 7) on the
# device machine: 16 GiB of prose in 4096 files, -c, gpugrep --engine gpu
# and --engine cpu against rg -j16 and GNU grep (-r, LC_ALL=C as benches/run
# runs it), two runs each after a warm-up (GNU grep: one run of at most
# GREP_LIMIT s, default 100), outputs
# compared (zero counts dropped: rg leaves them out). rg takes the same
# expressions without -E (its -E is --encoding).
set -u
D=$PWD/.dev; G=$D/gpugrep; C=/dev/shm/stream; B=$C/big16
mkdir -p $C
[ -d $B ] || "$D/gpugrep-corpus" --kind prose --out $B --size 16G --files 4096 --threads 16 > /dev/null
"$D/gpugrep-corpus" --kind prose --patterns 100 --out $C/words100.txt > /dev/null
alt=$(tr '\n' '|' < $C/words100.txt | sed 's/|$//')
t() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo "$(( ($(date +%s%N) - s) / 1000000 ))"; }
run_case() {
  local label=$1; shift
  for tool in gpu cpu rg grep; do
    if [ $tool = grep ]; then
      cmd=(env LC_ALL=C grep -c -r "$@" $B)
    elif [ $tool = rg ]; then
      local rga=(); for a in "$@"; do [ "$a" = -E ] || rga+=("$a"); done
      cmd=("$D/rg" -j16 -uu -a -c "${rga[@]}" $B)
    else
      cmd=("$G" --engine $tool -c -r "$@" $B)
    fi
    local s=$(date +%s%N)
    timeout ${GREP_LIMIT:-100} "${cmd[@]}" 2>$C/err.$tool | grep -v ':0$' | sort | tee $C/full.$tool | md5sum > $C/out.$tool
    local first=$(( ($(date +%s%N) - s) / 1000000 ))
    [ $tool = cpu ] && awk -F: '{s += $NF} END {print s}' $C/full.cpu > $C/out.lines
    [ -s $C/err.$tool ] && head -2 $C/err.$tool
    # GNU grep runs once (timed with its output, stopped after GREP_LIMIT s).
    if [ $tool = grep ]; then echo "$label $tool: $first ms (one run)"; continue; fi
    echo "$label $tool: $(t "${cmd[@]}") ms, $(t "${cmd[@]}") ms"
  done
  echo "$label gpu = cpu: $(cmp -s $C/out.gpu $C/out.cpu && echo yes || echo NO); cpu = rg: $(cmp -s $C/out.cpu $C/out.rg && echo yes || echo NO); cpu = grep: $(cmp -s $C/out.cpu $C/out.grep && echo yes || echo NO); lines: $(cat $C/out.lines 2>/dev/null)"
  "$G" --engine gpu --debug --stats -c -r "$@" $B 2>&1 >/dev/null | grep -E "patterns:|engine:|gpu stages|^[0-9.]+ seconds" | sed 's/^gpugrep: debug: //'
}
run_case sherlock-w -w -E 'Sherlock [A-Z]\w+'
run_case suspend -E '[A-Z]+_SUSPEND'
run_case error-timeout -E '(ERROR|FATAL).*timeout'
run_case alt100 -E "$alt"
