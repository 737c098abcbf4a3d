// The processed step size of one token, as every GPU kernel computes it:
// dt = clamp(softplus?(dt_raw + dt_bias), dt_lo, dt_hi), dt_raw in fp32, bf16 or fp16.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/common/kernel_params.h"

namespace flashssd {

__device__ __forceinline__ float load_dt_raw(const void* dt, ScalarType type, int64_t offset) {
  if (type == ScalarType::kF32) return static_cast<const float*>(dt)[offset];
  if (type == ScalarType::kBF16) return __bfloat162float(static_cast<const __nv_bfloat16*>(dt)[offset]);
  return __half2float(static_cast<const __half*>(dt)[offset]);
}

// bias: dt_bias[h], already loaded (0 without one: v + 0 only turns -0 into +0, which
// the softplus and the clamp to lo >= 0 make the same).
__device__ __forceinline__ float process_dt(float v, float bias, bool softplus, float lo, float hi) {
  v += bias;
  if (softplus) v = v > 20.f ? v : log1pf(expf(v));
  return fminf(fmaxf(v, lo), hi);
}

// bias: dt_bias[h] or nullptr.
__device__ __forceinline__ float process_dt(float v, const float* bias, bool softplus, float lo, float hi) {
  return process_dt(v, bias ? *bias : 0.f, softplus, lo, hi);
}

}  // namespace flashssd
