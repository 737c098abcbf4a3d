// WGMMA helpers shared by the Hopper kernels (the forward, ssd_fwd_sm90.cuh, and the chunk
// scores pass, chunk_scores_sm90.cuh).
#pragma once

#include <cute/tensor.hpp>

namespace flashssd::sm90 {

// Issues acc (+)= a b over k-blocks kBegin .. kEnd - 1 (all by default) as one WGMMA batch
// (no wait); the accumulator starts from zero when zero_init. The caller waits with
// warpgroup_wait<N>().
template <int kBegin = 0, int kEnd = -1, class Mma, class TA, class TB, class TC>
__device__ __forceinline__ void wgmma_issue(Mma& mma, const TA& a, const TB& b, TC& acc, bool zero_init) {
  using namespace cute;
  constexpr int kLast = kEnd < 0 ? int(decltype(size<2>(a))::value) : kEnd;
  warpgroup_fence_operand(acc);
  warpgroup_arrive();
  mma.accumulate_ = zero_init ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
  CUTE_UNROLL
  for (int k = kBegin; k < kLast; ++k) {
    cute::gemm(mma, a(_, _, k), b(_, _, k), acc);
    mma.accumulate_ = GMMA::ScaleOut::One;
  }
  warpgroup_commit_batch();
}

}  // namespace flashssd::sm90
