// Launch template of the portable forward: the split plan (DESIGN.md section 3),
// then up to three launches on the caller's stream:
//   1. state pass (only with > 1 split): each split's local final state and decay;
//   2. boundary scan: turns local states into each split's incoming state;
//   3. main pass: y, final states, per-sequence states.
// Included only by the per-instantiation .cu files.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "kernels/common/env_knobs.h"
#include "kernels/common/launch_util.h"
#include "kernels/sm80/ssd_fwd_kernel.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"

namespace flashssd::sm80 {

template <class Kernel>
void launch_pass(const SsdKernelParams& params, int64_t ctas, cudaStream_t stream) {
  auto kernel = ssd_fwd_sm80_kernel<Kernel>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(Kernel::kSmemBytes)),
             "cudaFuncSetAttribute");
  kernel<<<static_cast<unsigned>(ctas), Kernel::kThreads, Kernel::kSmemBytes, stream>>>(params);
  check_cuda(cudaGetLastError(), "ssd_fwd_sm80 launch");
}

// The half head-dim blocks' instantiations (ssd_fwd_sm80_*_half_hier.cu: one per file, not
// again in each default block's file, which may hand over to them). The list and
// half_head_block are tied both ways: each line asserts that half_head_block names its block,
// and launch_ssd_fwd_sm80 asserts that a half block it may take has a line here.
template <class Element, int kN>
inline constexpr bool kHalfBlockDeclared = false;
#define FLASHSSD_SM80_HALF_BLOCK_LAUNCH(Element, N)                                                     \
  launch_ssd_fwd_sm80<Element, N, half_head_block(sizeof(Element), N, SegsumVariant::kHierarchical), \
                      SegsumVariant::kHierarchical>(SsdKernelParams, cudaStream_t, std::string*)
#define FLASHSSD_SM80_HALF_BLOCK_EXTERN(Element, N)                                                      \
  static_assert(half_head_block(sizeof(Element), N, SegsumVariant::kHierarchical) != 0,                 \
                "half_head_block names no half block for " #Element ", N = " #N ": drop its line"); \
  template <>                                                                                           \
  inline constexpr bool kHalfBlockDeclared<Element, N> = true;                                          \
  extern template void FLASHSSD_SM80_HALF_BLOCK_LAUNCH(Element, N)
FLASHSSD_SM80_HALF_BLOCK_EXTERN(__nv_bfloat16, 128);
FLASHSSD_SM80_HALF_BLOCK_EXTERN(__half, 128);
FLASHSSD_SM80_HALF_BLOCK_EXTERN(float, 128);
FLASHSSD_SM80_HALF_BLOCK_EXTERN(__nv_bfloat16, 256);
FLASHSSD_SM80_HALF_BLOCK_EXTERN(__half, 256);

template <class Element, int kN, int kBP, SegsumVariant kVariant>
void launch_ssd_fwd_sm80(SsdKernelParams params, cudaStream_t stream, std::string* describe_only) {
  using MainKernel = SsdFwdKernel<Element, kN, kBP, kVariant, true>;
  using StateKernel = SsdFwdKernel<Element, kN, kBP, kVariant, false>;
  constexpr bool kF32 = sizeof(Element) == 4;
  constexpr int kHalfBP = kBP == default_head_block(sizeof(Element), kN) ? half_head_block(sizeof(Element), kN, kVariant) : 0;
  static_assert(kHalfBP == 0 || kHalfBlockDeclared<Element, kN>,
                "half_head_block names a half block with no FLASHSSD_SM80_HALF_BLOCK_EXTERN line above "
                "(and no ssd_fwd_sm80_*_half_hier.cu file instantiating it)");

  int device = 0, sms = 0, occupancy = 0, smem_optin = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device attribute");
  check_cuda(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "device attribute");
  const bool fits = MainKernel::kSmemBytes <= static_cast<size_t>(smem_optin);
  if constexpr (kHalfBP != 0) {
    // (the knob is read only where a half block exists: it forces the path on GPUs with room
    // for the default, so that the tests reach it there)
    if (!fits || env_flag("FLASHSSD_SM80_HALF_HEAD_BLOCK"))
      return launch_ssd_fwd_sm80<Element, kN, kHalfBP, kVariant>(params, stream, describe_only);
  }
  if (!fits)
    throw NotSupported(std::string("flashssd: the sm80 kernel for ") + (kF32 ? "fp32" : "16-bit") + " inputs and N <= " +
                       std::to_string(kN) + " needs " + std::to_string(MainKernel::kSmemBytes) +
                       " bytes of shared memory per block (head-dim block " + std::to_string(kBP) +
                       "; none smaller is built for this dtype, N and segsum); this GPU allows " +
                       std::to_string(smem_optin));
  if (describe_only != nullptr) {  // (after the caller's "sm80: portable kernel (mma.sync), <dtype>, ")
    *describe_only += "N<=" + std::to_string(kN) + ", head-dim block " + std::to_string(kBP) +
                      (kBP == default_head_block(sizeof(Element), kN) ? "" : " (half)") + ", segsum " +
                      segsum_variant_name(kVariant);
    return;
  }

  params.p_blocks = (params.headdim + kBP - 1) / kBP;
  const int64_t ctas_per_split = int64_t(params.batch) * params.heads * params.p_blocks;
  check_cuda(cudaFuncSetAttribute(ssd_fwd_sm80_kernel<MainKernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(MainKernel::kSmemBytes)),
             "cudaFuncSetAttribute");
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, ssd_fwd_sm80_kernel<MainKernel>,
                                                           MainKernel::kThreads, MainKernel::kSmemBytes),
             "occupancy");
  const SplitPlan plan = forced_splits(
      plan_splits(ctas_per_split, params.seqlen, MainKernel::kQ, sms * std::max(1, occupancy), kSm80SplitCost), params.seqlen,
      MainKernel::kQ);
  params.num_splits = plan.num_splits;
  params.split_len = plan.split_len;
  Workspace workspace(stream);
  if (plan.num_splits > 1) {
    allocate_split_workspace(params, workspace);
    launch_pass<StateKernel>(params, ctas_per_split * (plan.num_splits - 1), stream);
    launch_split_boundary_scan(params, stream);
    check_cuda(cudaGetLastError(), "split boundary scan launch");
  }
  launch_pass<MainKernel>(params, ctas_per_split * plan.num_splits, stream);
  if (params.varlen_states) {
    empty_sequence_states_kernel<<<static_cast<unsigned>(params.num_seqs * params.heads), 256, 0, stream>>>(params);
    check_cuda(cudaGetLastError(), "empty sequence states launch");
  }
}

}  // namespace flashssd::sm80
