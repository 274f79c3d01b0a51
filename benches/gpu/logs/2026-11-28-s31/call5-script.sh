#!/usr/bin/env bash
# session 31, call 5 (16 cores): sparse -n on the GPU path, lines far
# apart numbered from the GPU's per-block counts (Matcher::terminators_at,
# Searcher::line_number). prev = fb81f5f (calls 3-4), new = the change;
# 16 GiB of CI logs in 64 files, --engine gpu -j16 -h, into /dev/null,
# 3 rounds alternating; -c beside as the floor; md5 of each output.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; uname -r; } > $O/machine.txt 2>&1
S=$O/summary.txt
$D/gpugrep-corpus --kind logs --out /dev/shm/logs --size 16G --files 64 > /dev/null 2>&1
python3 benches/rules/gen.py --out /dev/shm/rules 1000 > /dev/null
R=/dev/shm/rules/rules-1000.txt
T() { /usr/bin/time -f "%e s %M KB %U user %S sys %R faults" -o $O/t.txt "$@" > /dev/null; cat $O/t.txt; }
B() { [[ $1 == prev ]] && echo $D/gpugrep-prev || echo $D/gpugrep; }
G="--engine gpu -j16 -h -r"
$D/gpugrep $G -c -F 'error[E0659]' /dev/shm/logs > /dev/null
for r in 1 2 3; do
  for b in prev new; do
    for p in 'error[E0659]' 'status 187'; do
      echo "gpu -n '$p' $b: $(T $(B $b) $G -n -F "$p" /dev/shm/logs)" >> $S
    done
  done
  echo "gpu -c 'error[E0659]': $(T $D/gpugrep $G -c -F 'error[E0659]' /dev/shm/logs)" >> $S
  echo "gpu -c 'status 187': $(T $D/gpugrep $G -c -F 'status 187' /dev/shm/logs)" >> $S
done
for r in 1 2; do
  for b in prev new; do
    echo "auto -n 1000 rules $b: $(T $(B $b) -j16 -h -n -E -f $R -r /dev/shm/logs)" >> $S
  done
done
for b in prev new; do
  for p in 'error[E0659]' 'status 187'; do
    $(B $b) $G -n -F "$p" /dev/shm/logs | md5sum | sed "s/^/md5 '$p' $b /" >> $S
  done
  $(B $b) -j16 -h -n -E -f $R -r /dev/shm/logs | md5sum | sed "s/^/md5 rules $b /" >> $S
done
$D/gpugrep $G -n --stats -F 'status 187' /dev/shm/logs 2>&1 >/dev/null | grep -E "matched lines|gpu stages" >> $S
$D/gpugrep $G -n --stats -F 'error[E0659]' /dev/shm/logs 2>&1 >/dev/null | grep -E "matched lines|gpu stages" >> $S
cat $S
