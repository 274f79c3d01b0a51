#!/usr/bin/env bash
# session 28, call 8 (H100, nvidia-h100-x1): the review build 02f3297, after
# term_mask's terms went through one helper (top_bits4; PTX and cubins byte-identical):
# gpu_differential's tally and line tests, their memcheck, gpu_end_to_end.
set -u
O=$OUT; D=/tmp/d
mkdir -p $D && tar -C $D -xJf .dev1/pack.tar.xz
{ nproc; nvidia-smi -L; } > $O/machine.txt 2>&1
S=$O/summary.txt
export GPUGREP_BIN=$D/gpugrep
timeout 150 $D/gpu_differential --test-threads=8 gpu_tally gpu_line > $O/diff.txt 2>&1; echo "rc $?" >> $O/diff.txt
GPUGREP_DIFF_SMALL=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $D/gpu_differential gpu_tally gpu_line > $O/memcheck.txt 2>&1; echo "rc $?" >> $O/memcheck.txt
timeout 200 $D/gpu_end_to_end --test-threads=12 > $O/e2e.txt 2>&1; echo "rc $?" >> $O/e2e.txt
grep -h "differential\|test result\|rc \|ERROR SUMMARY" $O/diff.txt $O/memcheck.txt $O/e2e.txt >> $S
cat $S
