#!/bin/bash
# kConsumerRegs scan: spills and C7512 (WGMMA serialised for registers) per kernel
r=$1; d=/tmp/exp/r$r; rm -rf $d; mkdir -p $d; cp -r /work/main/src /work/main/include $d/
sed -i "s/kConsumerRegs = kHeadsPerCta == 2 ? 224 : 248;/kConsumerRegs = kHeadsPerCta == 2 ? $r : 248;/" $d/src/kernels/sm90/ssd_fwd_sm90_traits.cuh
cd $d && /usr/local/cuda/bin/nvcc -I$d/include -I$d/src -isystem=/work/main/.deps/cutlass/cutlass_library/source/include -O3 -DNDEBUG --generate-code=arch=compute_90a,code=[sm_90a] --expt-relaxed-constexpr -Xptxas=-v -std=c++17 -x cu -c src/kernels/sm90/ssd_fwd_sm90_bf16_n128.cu -o $d.o > /tmp/exp/scan_$r.log 2>&1
