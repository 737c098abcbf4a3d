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

template <class Element, int kN, SegsumVariant kVariant>
void run_ssd_fwd_sm80(SsdKernelParams params, cudaStream_t stream) {
  // Head-dim block: keeps the register-resident state at 64 floats/thread (16-bit) or
  // 32 (fp32, whose split operands need twice the fragment registers and whose
  // tiles twice the shared memory).
  constexpr bool kF32 = sizeof(Element) == 4;
  constexpr int kBP = kF32 ? (kN > 128 ? 16 : 32) : (kN > 128 ? 32 : 64);
  using MainKernel = SsdFwdKernel<Element, kN, kBP, kVariant, true>;
  using StateKernel = SsdFwdKernel<Element, kN, kBP, kVariant, false>;

  params.p_blocks = (params.headdim + kBP - 1) / kBP;
  const int64_t ctas_per_split = int64_t(params.batch) * params.heads * params.p_blocks;

  int device = 0, sms = 0, occupancy = 0, smem_optin = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device attribute");
  check_cuda(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "device attribute");
  if (MainKernel::kSmemBytes > static_cast<size_t>(smem_optin))
    throw NotSupported(std::string("flashssd: the sm80 kernel for ") + (kF32 ? "fp32" : "16-bit") + " inputs and N <= " +
                       std::to_string(kN) + " needs " +
                       std::to_string(MainKernel::kSmemBytes) + " bytes of shared memory per block; this GPU allows " +
                       std::to_string(smem_optin));
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
