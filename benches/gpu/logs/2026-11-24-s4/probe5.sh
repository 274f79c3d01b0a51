set -u
D=$PWD/.dev; W=/dev/shm/rules; mkdir -p $W
python3 benches/rules/gen.py --out $W 100 1000 >/dev/null
[[ -d $W/logs-2G ]] || $D/gpugrep-corpus --kind logs --out $W/logs-2G --size 2G --files 64 >/dev/null 2>&1
ls -la $W/logs-2G | head -4
for i in 1 2 3 4; do
  for t in rg old min4 new; do
    case $t in rg) cmd="$D/rg -j16 --no-filename -c";; old) cmd="$D/gpugrep-probe --engine cpu -j16 -h -c -E -r";; min4) cmd="env PROBE_MIN_BATCH=4 $D/gpugrep-probe --engine cpu -j16 -h -c -E -r";; new) cmd="$D/gpugrep --engine cpu -j16 -h -c -E -r";; esac
    /usr/bin/time -f "$i $t %e s %U u %S s %P" $cmd -f $W/rules-100.txt $W/logs-2G > /dev/null
  done
done 2>&1
$D/gpugrep --engine cpu -j16 -h -c -E -r --stats --debug -f $W/rules-100.txt $W/logs-2G 2>&1 >/dev/null | tail -12
for r in 1000; do
  echo "rules$r rg $(/usr/bin/time -f '%e' $D/rg -j16 --no-filename -c -f $W/rules-$r.txt $W/logs-2G 2>&1 >/dev/null)"
  echo "rules$r old $(/usr/bin/time -f '%e' $D/gpugrep-probe --engine cpu -j16 -h -c -E -r -f $W/rules-$r.txt $W/logs-2G 2>&1 >/dev/null)"
  echo "rules$r new $(/usr/bin/time -f '%e' $D/gpugrep --engine cpu -j16 -h -c -E -r -f $W/rules-$r.txt $W/logs-2G 2>&1 >/dev/null)"
done
