#!/usr/bin/env bash
# session 58: does ptxas reconverge the warp (a WARPSYNC after the last
# BSYNC) between the automaton kernel's line loop and its block sum's first
# shuffle? f16f7e3's PTX (the shuffle-based block_sum), compiled by the
# ptxas of several CUDA 12 releases (pip nvidia-cuda-nvcc-cu12==V,
# bin/ptxas, unpacked under $PTXAS/V/) and disassembled by the nvdisasm
# Triton's wheel carries ($NVDISASM).
set -eu
PTXAS=${PTXAS:-/tmp/nvd/p}; NVDISASM=${NVDISASM:-/tmp/tri/x/triton/backends/nvidia/bin/nvdisasm}
t=$(mktemp -d); git show f16f7e3:kernels/automaton.ptx > $t/a.ptx
check() {  # the disassembly's first SHFL.DOWN, and what precedes it
  local n; n=$(grep -n "SHFL.DOWN" $t/a.dis | head -1 | cut -d: -f1)
  awk -v n=$n 'NR<n && /BSYNC/ {last=NR; ws=""} NR<n && /WARPSYNC/ && last {ws=$2}
    END {print (ws ? ws " after the last BSYNC" : "no WARPSYNC after the last BSYNC")}' $t/a.dis
}
for v in 12.0.140 12.4.131 12.6.85 12.8.93 12.9.86; do
  for a in sm_75 sm_80 sm_90; do
    $PTXAS/$v/ptxas -arch=$a -O3 $t/a.ptx -o $t/a.cubin
    $NVDISASM -c $t/a.cubin 2>/dev/null > $t/a.dis
    echo "ptxas $v $a: $(check)"
  done
done
for a in sm_80 sm_90; do
  git show f16f7e3:kernels/automaton.$a.cubin > $t/s.cubin
  $NVDISASM -c $t/s.cubin 2>/dev/null > $t/a.dis
  echo "shipped $a (NVRTC 12.9): $(check)"
done
rm -rf $t
