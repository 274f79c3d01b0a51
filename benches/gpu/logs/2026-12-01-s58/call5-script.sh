#!/usr/bin/env bash
# session 58, call 5: what calls 3-4 left of check-all.sh for the new
# block_sum: the PTX as the driver compiles it (GPUGREP_GPU_CUBIN=0:
# differential kernels, the split pack's kernels, the regression, synccheck
# on the cut), gpu_fold, gpu_ignore_case, gpu_decompress, the CLI suites
# under the GPU engine, racecheck/memcheck of multi and fold, racecheck of
# the split pack's kernels.
set -u
O=$OUT; D=/tmp/d; X=/tmp/x; mkdir -p $X $O/logs; L=$O/logs
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
S=$O/summary.txt
rm -rf .dev && ln -s $D/new .dev
export PATH=$D/new:$PATH LD_LIBRARY_PATH=$D/new/lib GPUGREP_BIN=$D/new/gpugrep
export GPUGREP_LOGHUB=$D/new/loghub GPUGREP_TEMPLATES=$D/new/loghub/rules-templates.txt
python3 - <<'PY'
b=open('/tmp/d/real/loghub/Proxifier_2k.log','rb').read()
if not b.endswith(b'\n'): b+=b'\n'
d=b*(268242116//len(b)); T=32768
open('/dev/shm/rep-a.log','wb').write(d[(6999-10)*T:(6999+10)*T])
PY
r() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.txt 2>&1; echo "$name rc $?" >> $S; }
(GPUGREP_GPU_CUBIN=0 GPUGREP_DIFF_CASES=500 r diff-ptx 200 .dev/gpu_differential --test-threads=1) &
(GPUGREP_GPU_CUBIN=0 r split-ptx 100 .dev/gpu_rule_split kernels_match_reference --test-threads=1
 GPUGREP_GPU_CUBIN=0 r regression-ptx 60 .dev/gpu_rule_split tile_counts --test-threads=1
 echo "ptx -n cut: $(GPUGREP_GPU_CUBIN=0 timeout 60 .dev/gpugrep --engine gpu -h -n -E -f $GPUGREP_TEMPLATES /dev/shm/rep-a.log | wc -l) (truth 2930)" >> $S
 GPUGREP_GPU_CUBIN=0 r synccheck-ptx-cut 100 compute-sanitizer --tool synccheck --error-exitcode 9 .dev/gpugrep --engine gpu -n -E -f $GPUGREP_TEMPLATES /dev/shm/rep-a.log) &
(r fold 100 .dev/gpu_fold --test-threads=2
 r ignore-case 200 .dev/gpu_ignore_case --test-threads=2) &
(r decompress 150 .dev/gpu_decompress --test-threads=2
 for t in cli_stats rule_packs cli_patterns split_file walk_order; do GPUGREP_TEST_ENGINE=gpu r suite-$t 100 .dev/$t --test-threads=4; done) &
(GPUGREP_DIFF_SMALL=1 r racecheck-multi 150 compute-sanitizer --tool racecheck --error-exitcode 9 .dev/gpu_differential gpu_multi --test-threads=1
 GPUGREP_DIFF_SMALL=1 r memcheck-multi 100 compute-sanitizer --tool memcheck --error-exitcode 9 .dev/gpu_differential gpu_multi --test-threads=1) &
(GPUGREP_DIFF_SMALL=1 r racecheck-split 150 compute-sanitizer --tool racecheck --error-exitcode 9 .dev/gpu_rule_split kernels_match_reference --test-threads=1
 GPUGREP_DIFF_SMALL=1 r memcheck-fold 100 compute-sanitizer --tool memcheck --error-exitcode 9 .dev/gpu_fold --test-threads=1) &
wait
for f in $L/*.txt; do echo "$(basename $f): $(grep -h 'test result\|ERROR SUMMARY' $f | tr '\n' ' ')" >> $S; done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
echo "all done after $SECONDS s" >> $S
cat $S
