#!/usr/bin/env bash
# session 31, call 1 (H100 host): does perf (carried from the dev VM with
# its libraries) sample on the device? If so: where issue 17's -n of 1,000
# rules spends its CPU time and page faults (16 GiB of CI logs in 64
# files, -j16 -h -n into /dev/null), against -c.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; ldd --version | head -1; } > $O/machine.txt 2>&1
S=$O/summary.txt
P() { LD_LIBRARY_PATH=$D/lib $D/perf "$@"; }
{ cat /proc/sys/kernel/perf_event_paranoid; P --version; P stat -e task-clock,page-faults,context-switches -- true; } > $O/perf-check.txt 2>&1
echo "perf check rc $?" >> $S
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
R=/dev/shm/rules/rules-1000.txt
G="$D/gpugrep -j16 -h -E -f $R -r /dev/shm/logs"
$G -c > /dev/null
for r in 1 2; do
  for o in -c -n; do
    /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt $G $o > /dev/null
    echo "auto $o: $(cat $O/t.txt)" >> $S
  done
done
$G -n --stats 2>&1 >/dev/null | tail -12 >> $S
for o in -c -n; do
  P record -F 997 -e cpu-clock -o /tmp/flat$o.data -- $G $o > /dev/null 2>> $O/perf-err.txt
  P report -i /tmp/flat$o.data --no-children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -70 > $O/flat$o.txt
  P report -i /tmp/flat$o.data --no-children --stdio --sort comm,dso 2>/dev/null | grep -E '^ +[0-9]' | head -30 > $O/comm$o.txt
done
P record -F 199 -e cpu-clock --call-graph dwarf,16384 -o /tmp/dw.data -- $G -n > /dev/null 2>> $O/perf-err.txt
P report -i /tmp/dw.data --children --stdio --sort sym 2>/dev/null | grep -E '^ +[0-9]' | head -200 > $O/dwarf-children-n.txt
P report -i /tmp/dw.data --no-children --stdio --sort sym -G --percent-limit 1.5 2>/dev/null | grep -v '^$' | head -600 > $O/dwarf-callers-n.txt
P record -e page-faults -c 64 --call-graph dwarf,16384 -o /tmp/pf.data -- $G -n > /dev/null 2>> $O/perf-err.txt
P report -i /tmp/pf.data --no-children --stdio --sort sym -G --percent-limit 2 2>/dev/null | grep -v '^$' | head -400 > $O/faults-n.txt
ls -la /tmp/*.data >> $S
cat $S
