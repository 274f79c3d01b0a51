#!/usr/bin/env bash
# session 46, call 3: a pack's unsure lines found on the host, its chunk
# tallied all the same (engine::gpu::unsure). loghub's templates under -w
# over 16 GiB of its logs with a UTF-8 line every 16,000 lines (about one
# per 2 MB): base b081ae1 against new; plain loghub for no change; the
# GPU suites that run the pipeline with the real kernels.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
W=/dev/shm/real
python3 benches/rules/real.py --gitleaks $D/real/gitleaks.toml --loghub $D/real/loghub --out $W --size 16G > $X/real.txt 2>&1
L=$W/loghub-16G; U=/dev/shm/u8; mkdir -p $U
ls $L | xargs -P16 -I{} sh -c "awk 'NR%16000==0 {print \$0 \" café ✓\"; next} {print}' $L/{} > $U/{}"
echo "corpora after $SECONDS s; $(du -sb $U | cut -f1) bytes, $(cat $U/* | LC_ALL=C grep -c -P '[\x80-\xff]') lines past ASCII" >> $S
t() { # label cmd...: wall, user, sys, peak, sum of counts, md5
  local l=$1; shift
  timeout 90 /usr/bin/time -f "%e s %U u %S sys %M KB" -o $X/t.txt "$@" > $X/ans.txt 2>$X/err.txt
  echo "$l: rc $? $(tail -1 $X/t.txt) sum $(awk -F: '{s+=$NF} END {print s+0}' $X/ans.txt) md5 $(sort $X/ans.txt | md5sum | cut -c1-8) $(grep -v '^gpu stages' $X/err.txt | head -c 300 | tr '\n' ' ')" >> $S
}
T=$W/rules-templates.txt
base=$D/gg-base; new=$D/gpugrep
for r in 1 2; do
  for v in base new; do
    t "u8 templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $U
  done
done
t "u8 templates -w -c rg" $D/rg -j16 -w -c --no-filename -f $T $U
t "u8 templates -w -c auto new --stats" $new --stats -j16 -h -w -c -E -f $T -r $U
for v in base new; do
  t "u8 templates -w -v -c auto $v" ${!v} -j16 -w -v -c -E -f $T -r $U
  t "u8 templates -w -l auto $v" ${!v} -j16 -w -l -E -f $T -r $U
  t "u8 templates -c auto $v" ${!v} -j16 -h -c -E -f $T -r $U
  t "plain templates -w -c auto $v" ${!v} -j16 -h -w -c -E -f $T -r $L
done
t "u8 templates -w -c cpu" $new --engine cpu -j16 -h -w -c -E -f $T -r $U
echo "timings done after $SECONDS s" >> $S
export GPUGREP_BIN=$D/gpugrep
GPUGREP_SPLIT_CASES=60 timeout 150 $D/gpu_rule_split --test-threads=8 > $O/gpu_rule_split.txt 2>&1; echo "gpu_rule_split: rc $? $(grep -h 'test result' $O/gpu_rule_split.txt)" >> $S
for e in gpu auto; do
  GPUGREP_TEST_ENGINE=$e GPUGREP_RULE_PACK_CASES=60 timeout 120 $D/rule_packs --test-threads=8 > $O/rp-$e.txt 2>&1; echo "rule_packs $e: rc $? $(grep -h 'test result' $O/rp-$e.txt)" >> $S
done
echo "all done after $SECONDS s" >> $S
cat $S
