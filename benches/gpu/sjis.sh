#!/usr/bin/env bash
# Exact search in Shift-JIS (issue 6) on the device machine: $SJIS_GIB GiB
# (default 16) of Japanese text in Shift-JIS, 4 MiB files, patterns typed in
# UTF-8 and transcoded. gpugrep --encoding shift_jis (engines auto, gpu,
# cpu) against rg -E shift_jis -j16, which decodes everything first; two
# timed runs after a warm-up, outputs compared (zero counts dropped: rg
# leaves them out). Then --stats of the GPU runs, with the GPU back-read on
# and off (GPUGREP_GPU_BACKREAD=0), for the measured choice of where the
# candidates are checked.
set -u
D=$PWD/.dev; G=$D/gpugrep; C=/dev/shm/sjis; GIB=${SJIS_GIB:-16}; B=$C/c$GIB
mkdir -p $C
[ -d $B ] || "$D/gpugrep-corpus" --kind sjis --out $B --size ${GIB}G --files $((GIB * 256)) --threads 16 > /dev/null
du -sb $B
t() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; echo "$(( ($(date +%s%N) - s) / 1000000 ))"; }
run_case() {
  local label=$1; shift
  for tool in auto gpu cpu rg; do
    if [ $tool = rg ]; then
      cmd=("$D/rg" -j16 -uu -a -E shift_jis -c "$@" $B)
    else
      cmd=("$G" --engine $tool --encoding shift_jis -c -r "$@" $B)
    fi
    "${cmd[@]}" 2>$C/err.$tool | grep -v ':0$' | sort | tee $C/full.$tool | md5sum > $C/out.$tool
    [ $tool = cpu ] && awk -F: '{s += $NF} END {print s}' $C/full.cpu > $C/out.lines
    [ -s $C/err.$tool ] && head -2 $C/err.$tool
    echo "$label $tool: $(t "${cmd[@]}") ms, $(t "${cmd[@]}") ms"
  done
  echo "$label auto = cpu: $(cmp -s $C/out.auto $C/out.cpu && echo yes || echo NO); gpu = cpu: $(cmp -s $C/out.gpu $C/out.cpu && echo yes || echo NO); cpu = rg: $(cmp -s $C/out.cpu $C/out.rg && echo yes || echo NO); lines: $(cat $C/out.lines 2>/dev/null)"
  for br in 1 0; do
    echo "$label gpu, back-read on GPU=$br:"
    GPUGREP_GPU_BACKREAD=$br "$G" --engine gpu --encoding shift_jis --stats -c -r "$@" $B 2>&1 >/dev/null \
      | grep -E "^gpu|^[0-9.]+ seconds|GB/s"
  done
}
run_case holmes ホームズ
run_case watson-sherlock シャーロック・ホームズ
run_case ascii-cpu CPU
# A letter that is also the trail byte of many kanji: dense false candidates.
run_case ascii-A A
