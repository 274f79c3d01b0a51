#!/usr/bin/env bash
# session 32, call 1 (16 cores): where issue 17's -n time goes, by time.
# 16 GiB of CI logs in 64 files, 1,000 and 10,000 rules, auto, -h, into
# /dev/null: wall/user/sys, --stats, the per-chunk and per-file trace
# (GPUGREP_GPU_TRACE), busy CPUs every 50 ms (/proc/stat), output sizes,
# flat perf profile of the 10,000-rule -n. Build: 7d75261.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 10000 > /dev/null
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
busy() { # busy CPUs (of 16) every 50 ms while "$@" runs
  ( prev=($(head -1 /proc/stat)); while :; do sleep 0.05; cur=($(head -1 /proc/stat));
    b=0; t=0; for i in 1 2 3 4 5 6 7 8; do d=$((cur[i]-prev[i])); t=$((t+d)); [[ $i != 4 && $i != 5 ]] && b=$((b+d)); done
    echo "$(date +%s.%N | cut -c1-14) $(( t>0 ? 1600*b/t : 0 ))" ; prev=("${cur[@]}"); done ) > $1 &
  local bp=$!; shift; "$@" > /dev/null 2>&1; kill $bp; }
for n in 1000 10000; do
  R=/dev/shm/rules/rules-$n.txt
  $D/gpugrep -j16 -h -c -E -f $R -r /dev/shm/logs > /dev/null
  for r in 1 2; do
    echo "auto -c $n rules: $(T $D/gpugrep -j16 -h -c -E -f $R -r /dev/shm/logs)" >> $S
    echo "auto -n $n rules: $(T $D/gpugrep -j16 -h -n -E -f $R -r /dev/shm/logs)" >> $S
  done
  $D/gpugrep -j16 -h -n --stats -E -f $R -r /dev/shm/logs 2>&1 >/dev/null | grep -E "gpu stages|^gpugrep|searched|took" > $O/stats-n$n.txt
  $D/gpugrep -j16 -h -c --stats -E -f $R -r /dev/shm/logs 2>&1 >/dev/null | grep -E "gpu stages|^gpugrep|searched|took" > $O/stats-c$n.txt
  $D/gpugrep -j16 -h -n -E -f $R -r /dev/shm/logs | wc -l -c | sed "s/^/output -n $n: /" >> $S
  GPUGREP_GPU_TRACE=1 $D/gpugrep --debug -j16 -h -n -E -f $R -r /dev/shm/logs 2> $O/trace-n$n.txt > /dev/null
  date +%s.%N >> $O/trace-n$n.txt
  GPUGREP_GPU_TRACE=1 $D/gpugrep --debug -j16 -h -c -E -f $R -r /dev/shm/logs 2> $O/trace-c$n.txt > /dev/null
  busy $O/busy-n$n.txt $D/gpugrep -j16 -h -n -E -f $R -r /dev/shm/logs
  busy $O/busy-c$n.txt $D/gpugrep -j16 -h -c -E -f $R -r /dev/shm/logs
done
P record -F 997 -e cpu-clock -o /tmp/flat.data -- $D/gpugrep -j16 -h -n -E -f /dev/shm/rules/rules-10000.txt -r /dev/shm/logs > /dev/null 2>> $O/perf-err.txt
P report -i /tmp/flat.data --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -60 > $O/flat-n10000.txt
P report -i /tmp/flat.data --no-children --stdio --sort comm,dso 2>/dev/null | grep -E '^ +[0-9]' | head -20 > $O/comm-n10000.txt
cd $O && tar -cJf traces.tar.xz trace-* busy-* stats-* && rm -f trace-* busy-* stats-*
cat $S
