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

#include "kernels/sm80/ssd_fwd_kernel.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"

namespace flashssd::sm80 {

inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("flashssd: ") + what + ": " + cudaGetErrorString(e));
}

struct SplitPlan {
  int num_splits = 1;
  int split_len = 0;
};

// Choose the number of splits per sequence: the main pass costs ceil(ctas / slots)
// waves of split_len tokens plus a fixed cost per wave (state load/store, pipeline
// fill: ~kWaveOverhead tokens); with > 1 split the state pass (x, B, dt only) adds
// about half that per wave, and ~1.6x more when it has at most one CTA per SM
// (measured on an H200: R1 at 32k tokens runs 2.55 ms with 2 splits, 2.21 ms
// with 4, 3.98 ms with 103 splits of 320 tokens).
inline SplitPlan plan_splits(int64_t ctas_per_split, int seqlen, int tile, int slots) {
  SplitPlan best{1, seqlen};
  double best_cost = 1e30;
  const int max_splits = std::max(1, std::min(256, (seqlen + 4 * tile - 1) / (4 * tile)));
  for (int s = 1; s <= max_splits; ++s) {
    const int len = ((seqlen + s - 1) / s + tile - 1) / tile * tile;
    if ((seqlen + len - 1) / len != s) continue;
    constexpr double kWaveOverhead = 512;
    double cost = std::ceil(double(ctas_per_split) * s / slots) * (len + kWaveOverhead);
    if (s > 1) {
      const double state_ctas = double(ctas_per_split) * (s - 1);
      const double under_filled = state_ctas * 2 <= slots ? 1.6 : 1.0;
      cost += 0.5 * std::ceil(state_ctas / slots) * (len + kWaveOverhead) * under_filled;
    }
    if (cost < best_cost * 0.999) {
      best_cost = cost;
      best = {s, len};
    }
  }
  return best;
}

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
  SplitPlan plan = plan_splits(ctas_per_split, params.seqlen, MainKernel::kQ, sms * std::max(1, occupancy));
  if (const char* forced = std::getenv("FLASHSSD_NUM_SPLITS")) {  // tuning knob for benchmarks
    const int s = std::min(256, std::max(1, std::atoi(forced)));
    plan.split_len = ((params.seqlen + s - 1) / s + MainKernel::kQ - 1) / MainKernel::kQ * MainKernel::kQ;
    plan.num_splits = (params.seqlen + plan.split_len - 1) / plan.split_len;
  }
  params.num_splits = plan.num_splits;
  params.split_len = plan.split_len;

  // Split-sequence workspace, stream-ordered (capturable in CUDA graphs), freed on
  // every exit path.
  struct Workspace {
    void* ptr = nullptr;
    cudaStream_t stream = nullptr;
    ~Workspace() {
      if (ptr) cudaFreeAsync(ptr, stream);
    }
  } workspace{nullptr, stream};
  if (plan.num_splits > 1) {
    const int64_t slots = int64_t(params.batch) * params.heads * plan.num_splits;
    const size_t bytes = (slots * params.headdim * params.dstate + slots) * sizeof(float);
    check_cuda(cudaMallocAsync(&workspace.ptr, bytes, stream), "cudaMallocAsync(split workspace)");
    params.split_states = static_cast<float*>(workspace.ptr);
    params.split_decay = params.split_states + slots * params.headdim * params.dstate;
    launch_pass<StateKernel>(params, ctas_per_split * (plan.num_splits - 1), stream);
    split_boundary_scan_kernel<<<static_cast<unsigned>(params.batch * params.heads), 256, 0, stream>>>(params);
    check_cuda(cudaGetLastError(), "split boundary scan launch");
  }
  launch_pass<MainKernel>(params, ctas_per_split * plan.num_splits, stream);
  if (params.varlen_states) {
    empty_sequence_states_kernel<<<static_cast<unsigned>(params.num_seqs * params.heads), 256, 0, stream>>>(params);
    check_cuda(cudaGetLastError(), "empty sequence states launch");
  }
}

}  // namespace flashssd::sm80
