// The Hopper forward (issue 5): every GEMM of the SSD tile on WGMMA, operands loaded
// by TMA into 128-byte swizzled tiles, warp-specialised, persistent. Launched by
// ssd_fwd_sm90_launch.cuh (ssd_forward's dispatch on sm_90a); tested directly by
// tests/gpu/test_sm90_forward.cu and through the API by the GPU suites; timed directly by
// bench/sm90_forward_probe.cu. docs/HOPPER_PLAN.md has its measurements.
//
// One CTA walks work items (batch, split, pair of head slices of one group: a head slice is
// 64 channels of a head) with three warpgroups:
//   producer   warpgroup 0: thread 0 issues the TMA loads of x and z (per slice), B and C
//              (shared by the heads of the group) into a kStages-deep mbarrier pipeline;
//              thread i loads the dt of token i % 64 of slot i / 64's head and computes that
//              token's decay factors (segsum.cuh) into the same stage, so the consumers
//              never wait on a scan or a global load (the state pass: the token's a and dt,
//              from which its consumers' warps compute the weights);
//   consumers  warpgroups 1 .. kHeadsPerCta, one head slice each, walk the sequence in tiles
//              of 64 tokens and carry the 64 x N state as a WGMMA accumulator; the two take
//              turns issuing their state update (+ next S) (ping-pong). Per tile (as the
//              sm80 kernel, DESIGN.md section 3), with the output computed transposed,
//              Y^T (p, token), so that the state and x serve as register A operands:
//   S  = C B^T                           N = 128, 256: the chunk scores, once per group
//                                        and tile before the main pass (mma.sync,
//                                        chunk_scores_sm90.cuh), loaded with the stage
//                                        by TMA; N = 64: RS WGMMA (64 x 64 x N, C read by
//                                        ldmatrix in the rows that share the mask evenly
//                                        over the warps) during the previous tile
//   Y^T = h C^T diag(exp(cs))            RS WGMMA (P x 64 x N): the state from its own
//                                        accumulator, in bf16 (no shared-memory copy)
//   S' = S o L o dt                      segsum.cuh's mask on the accumulator, while h C^T
//                                        runs; to shared memory in bf16 (8 KB)
//   Y^T += X^T S'^T                      RS WGMMA (P x 64 x 64): X^T in registers by
//                                        ldmatrix.trans of the x tile; by halves of the
//                                        tokens, the first over S''s first 32 columns only
//   h  = exp(total) h + (X diag(w))^T B  RS WGMMA (P x N x 64), w = dt exp(a_{j+1..end}):
//                                        the same registers scaled by the tokens' weights;
//                                        runs with the epilogue (and the next S). bf16,
//                                        N <= 128, not packed: h carried as h / G (G the
//                                        running decay, in the readout factors and weights),
//                                        so exp(total) h is a multiply only at a refold
//                                        (K::kFoldFloor)
//   y  = (Y + D x) * silu(z)             to shared memory (two buffers) by stmatrix.trans,
//                                        then a TMA store (partial tiles clipped by TMA)
// Options served: D (per head or per channel), z, initial and final states, dt bias /
// softplus / limits, packed sequences (seq_idx and cu_seqlens: the producer gives a token that
// starts a sequence the log-decay -inf, see below; the per-sequence final states of cu_seqlens
// come from the state pass run over each sequence), split sequences, any number of heads per
// group; bf16 or fp16 x, B, C, z, y (template parameter; the WGMMAs take the same type and
// accumulate in fp32); N in {64, 128, 256} (template parameter; N = 256 with one consumer
// per CTA and the lean tile schedule, registers being short); any head dim P that is a
// multiple of kP = 64 (the dispatch allows 64 and 128): the slices of a head are
// independent SSDs sharing the head's decay, so P = 128 puts a head's two slices side by
// side in one CTA.
//
// The files (the kernel = scheduler + producer + consumers, as FlashAttention-3's hopper/):
//   ssd_fwd_sm90_traits.cuh   the configuration: tiles, layouts, MMA atoms, shared storage,
//                             parameters and TMA descriptors (set by ssd_fwd_sm90_launch.cuh)
//   tile_scheduler_sm90.cuh   the persistent grid's work items
//   ssd_fwd_sm90_roles.cuh    the types the roles share; producer_sm90.cuh (TMA + decay
//                             factors) and consumer_sm90.cuh (mainloop + epilogue)
//   fragments_sm90.cuh        register-fragment helpers (score rows, mask, coordinates) and
//                             the layout facts a CPU test checks; wgmma.cuh the WGMMA issue
//   this file                 the kernel: shared memory, barriers, the roles' dispatch
#pragma once

#include <cuda_runtime.h>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>

#include "kernels/common/programmatic_launch.cuh"
#include "kernels/sm90/consumer_sm90.cuh"
#include "kernels/sm90/fragments_sm90.cuh"
#include "kernels/sm90/producer_sm90.cuh"
#include "kernels/sm90/split_fixup.h"
#include "kernels/sm90/ssd_fwd_sm90_roles.cuh"
#include "kernels/sm90/ssd_fwd_sm90_traits.cuh"
#include "kernels/sm90/tile_scheduler_sm90.cuh"

namespace flashssd::sm90 {

using namespace cute;

// kGateZ and kStatePass: see SsdFwdRoles (ssd_fwd_sm90_roles.cuh).
template <class K, bool kGateZ, bool kStatePass = false>
__global__ void __launch_bounds__(K::kThreads, 1) ssd_fwd_sm90_kernel(const __grid_constant__ typename K::Params p) {
  using Roles = SsdFwdRoles<K, kGateZ, kStatePass>;
  using Barrier = typename Roles::Barrier;
  using SharedStorage = typename Roles::SharedStorage;
  constexpr int kHeads = Roles::kHeads, kWG = Roles::kWG, kStages = Roles::kStages;
  static_assert(K::template kSmemBytes<kStatePass, kGateZ> <= K::kMaxSmemBytes, "more shared memory than a Hopper CTA can have");
  // (Launched programmatically after the call's previous kernel: see programmatic_launch.cuh.)
  allow_next_kernel();
  wait_for_previous_kernel();
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // Align by offsetting the shared array itself (not through an integer) so that the
  // compiler keeps the shared address space: LDS/STS, not generic LD/ST.
  const uint32_t misalign = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw)) & 1023u;
  auto& smem = *reinterpret_cast<SharedStorage*>(smem_raw + ((1024u - misalign) & 1023u));
  // At N = 256 the warpgroup index is broadcast from lane 0: ptxas then knows it is
  // warp-uniform and keeps the consumer's shared-memory descriptors in uniform registers (no
  // R2UR before each WGMMA). Session 54 (H100, API A/B over 5 rounds, call 7): R1 N = 256
  // -0.5..-1.6%. In every kernel (call 5) it read bf16 N = 128 -0.3..+0.2% and fp16 N = 128
  // +0.6%, so only N = 256 takes it (bench/results/logs/2026-12-06-s54-calls/).
  const int warpgroup = [] {
    if constexpr (K::kN == 256) return __shfl_sync(0xffffffffu, int(threadIdx.x) / kWG, 0);
    else return int(threadIdx.x / kWG);
  }();
  const int wtid = threadIdx.x % kWG;
  const typename Roles::Scheduler scheduler{p};
  if (int(blockIdx.x) >= scheduler.num_items()) return;  // the launch keeps grid <= items; a spare CTA has no tile
  if constexpr (kStatePass) {
    if (!scheduler.varlen() && fixup_chosen(p.window_tiles, p.fixup_budget)) return;  // the fix-up's scheme (split_fixup.h)
  }
  // Producer and consumers walk the same items and tiles; `it` counts the CTA's tiles over
  // all its items and gives the pipeline stage and phase.

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      Barrier::init(&smem.full[s], 1 + kWG);       // the TMA issuer's expect-tx + each producer thread
      Barrier::init(&smem.empty[s], kHeads * kWG);  // each consumer thread
    }
    Barrier::init(&smem.spare_arrivals, (1u << 20) - 1);  // (the largest count: its phases are never waited for)
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    Roles::producer(p, smem, scheduler, wtid);
    return;
  }
  Roles::consumer(p, smem, scheduler, warpgroup, wtid);
}

}  // namespace flashssd::sm90
