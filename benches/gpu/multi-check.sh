#!/usr/bin/env bash
# The multi kernel after a change, on the device (binaries in .dev/): its
# differential test and memcheck, the GPU end-to-end test, the many-literals
# benchmark of stream.sh, and 100,000 literals on the 16 GiB corpus (gpu and
# cpu outputs compared, rg timed); each tool stopped after 80 s.
D=.dev
GPUGREP_DIFF_MULTI_CASES=600 timeout 150 $D/gpu_differential gpu_multi --nocapture 2>&1 | grep -E "^differential|MISMATCH" | head -5
GPUGREP_DIFF_SMALL=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_multi --nocapture 2>&1 | grep -E "ERROR SUMMARY|^differential"
GPUGREP_E2E_CASES=100 timeout 120 $D/gpu_end_to_end gpu_engine --nocapture 2>&1 | grep -E "gpu_end_to_end:|test result"
STEPS=many MANY_REPS=1 timeout 330 bash benches/gpu/stream.sh 2>&1 | grep -E "^lit|multi kernel|tallied|gpu stages|sub256" 
C=/dev/shm/stream; B=$C/big16
$D/gpugrep-corpus --kind prose --patterns 100000 --out $C/pat100000.txt 2>&1 | tail -1; wc -l < $C/pat100000.txt
for e in gpu cpu; do s=$(date +%s%N); timeout 80 $D/gpugrep --engine $e -c -r -F -f $C/pat100000.txt $B | sort | md5sum > $C/h.$e; echo "100k $e: $(( ($(date +%s%N)-s)/1000000 )) ms"; done
echo "100k gpu = cpu: $(cmp -s $C/h.gpu $C/h.cpu && echo yes || echo NO)"
s=$(date +%s%N); timeout 80 $D/rg -j16 -uu -a -c -F -f $C/pat100000.txt $B > /dev/null; echo "100k rg: $(( ($(date +%s%N)-s)/1000000 )) ms"
