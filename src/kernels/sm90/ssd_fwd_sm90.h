// Entry points of the Hopper forward (ssd_fwd_sm90.cuh), one instantiation per .cu file
// in this folder ({bf16, fp16} x N in {64, 128, 256}; P in {64, 128} at run time); compiled only when the build targets
// sm_90a (FLASHSSD_WITH_SM90).
#pragma once

#include <cuda_runtime.h>

#include "kernels/common/kernel_params.h"

namespace flashssd::sm90 {

// Why the Hopper kernel cannot serve this problem (the dispatch then uses the portable
// sm80 kernel), or nullptr when it can. The element type (bf16 or fp16) and segsum
// variant are checked by the caller; this checks shapes, options and TMA's alignment rules.
const char* unsupported_reason(const SsdKernelParams& k);

// CudaElement: __nv_bfloat16 or __half (x, B, C, z, y).
template <class CudaElement, int kN>
void run_ssd_fwd_sm90(SsdKernelParams params, cudaStream_t stream);

}  // namespace flashssd::sm90
