// Entry points of the portable (sm_80+) forward, one explicit instantiation per
// .cu file in this folder: element type x padded state dim x segsum variant.
#pragma once

#include <cuda_runtime.h>

#include "flashssd/flashssd.h"
#include "kernels/common/kernel_params.h"

namespace flashssd::sm80 {

// Padded state dims with a kernel instantiation; N is zero-filled up to the next one.
constexpr int kStateDimBuckets[] = {64, 128, 256};

// Boundary scan of the split-sequence scheme and the states of empty sequences
// (split_scan.cu); launched by run_ssd_fwd_sm80.
__global__ void split_boundary_scan_kernel(const __grid_constant__ SsdKernelParams p);
__global__ void empty_sequence_states_kernel(const __grid_constant__ SsdKernelParams p);

template <class Element, int kN, SegsumVariant kVariant>
void run_ssd_fwd_sm80(SsdKernelParams params, cudaStream_t stream);

}  // namespace flashssd::sm80
