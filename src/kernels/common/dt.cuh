// The processed step size of one token, as every GPU kernel computes it:
// dt = clamp(softplus?(dt_raw + dt_bias), dt_lo, dt_hi), dt_raw in fp32, bf16 or fp16.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/common/kernel_params.h"

namespace flashssd {

// dt_raw's bits as stored (fp32, or a 16-bit type in the low half), and their value. A
// prefetch holds the bits and converts them when the token is processed: converting at the
// load would put the load's first use, and the wait for it, right behind the load.
__device__ __forceinline__ uint32_t load_dt_bits(const void* dt, ScalarType type, int64_t offset) {
  if (type == ScalarType::kF32) return __float_as_uint(static_cast<const float*>(dt)[offset]);
  return static_cast<const uint16_t*>(dt)[offset];
}
// Asks L2 for the line of dt[offset] without waiting for it (no register is written, so
// nothing waits on it): a later load of the same element finds it there.
__device__ __forceinline__ void prefetch_dt_l2(const void* dt, ScalarType type, int64_t offset) {
  const char* at = static_cast<const char*>(dt) + offset * (type == ScalarType::kF32 ? 4 : 2);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(at));
}
__device__ __forceinline__ float dt_from_bits(uint32_t bits, ScalarType type) {
  if (type == ScalarType::kF32) return __uint_as_float(bits);
  if (type == ScalarType::kBF16) return __uint_as_float(bits << 16);  // bf16 is fp32's high half
  return __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
}
__device__ __forceinline__ float load_dt_raw(const void* dt, ScalarType type, int64_t offset) {
  return dt_from_bits(load_dt_bits(dt, type, offset), type);
}

// softplus(v) from the fast intrinsics (ex2.approx, lg2.approx: ~6 instructions against
// log1pf(expf)'s ~40), within ~3e-5 relative: below e^v = 0.01, where 1 + e^v would lose
// e^v's digits, a three-term series. For sums that only place the fix-up's windows and tile
// starts (sm90/split_fixup.cu), not for the layer's own dt.
// Both sides computed and selected, no branch (an infinite e from v > 88 is selected away).
__device__ __forceinline__ float softplus_fast(float v) {
  const float e = __expf(v);
  const float series = e * (1.f - e * (0.5f - e * (1.f / 3.f))), log_form = __logf(1.f + e);
  return v > 20.f ? v : (e < 1e-2f ? series : log_form);
}

// bias: dt_bias[h], already loaded (0 without one: v + 0 only turns -0 into +0, which
// the softplus and the clamp to lo >= 0 make the same).
template <bool kFastSoftplus = false>
__device__ __forceinline__ float process_dt(float v, float bias, bool softplus, float lo, float hi) {
  v += bias;
  if (softplus) v = kFastSoftplus ? softplus_fast(v) : (v > 20.f ? v : log1pf(expf(v)));
  return fminf(fmaxf(v, lo), hi);
}

// bias: dt_bias[h] or nullptr.
__device__ __forceinline__ float process_dt(float v, const float* bias, bool softplus, float lo, float hi) {
  return process_dt<>(v, bias ? *bias : 0.f, softplus, lo, hi);
}

}  // namespace flashssd
