// Probe of the first compute step of the sm90 forward (ssd_fwd_sm90.cuh), on its own
// so that a failure can be told apart from the rest of the tile:
//
//   S' = (C B^T) o L o dt    for one 64-token tile, with
//   - C and B tiles (64 x N, bf16) loaded by TMA into the forward's 128-byte swizzled
//     K-major shared-memory tiles (the layout WGMMA reads),
//   - S = C B^T by one warpgroup with WGMMA (both operands from shared memory, the
//     forward's wgmma_issue) and mask_scores(): the hierarchical decay mask of segsum.cuh
//     on the WGMMA accumulator.
//
// The mask reuse rests on a layout fact: a 64 x 64 WGMMA accumulator gives each warp of
// the warpgroup rows 16 w .. 16 w + 15, held per 8-column block exactly as an mma.sync
// m16n8 accumulator. tests/cpu/test_sm90_layouts.cu proves it on the host;
// tests/gpu/test_sm90_scores.cu runs this probe against float64 on the device.
#pragma once

#include <cuda_runtime.h>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/cutlass.h>

#include "kernels/sm90/ssd_fwd_sm90.cuh"

namespace flashssd::sm90 {

using namespace cute;

template <int kN_>
struct ScoresSm90 {
  using Fwd = SsdFwdSm90<64, kN_, 1>;  // the forward's tile shapes, layouts and MMA (one head: any N)
  using Element = typename Fwd::Element;
  static constexpr int kN = kN_, kQ = Fwd::kQ, kThreads = Fwd::kWarpgroupThreads;
  using GmemTensor = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)),
                                          Layout<Shape<int, int>, Stride<int64_t, _1>>{}));  // (token, state)
  using Tma = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemTensor{}, typename Fwd::LayoutBC{}));
  static constexpr uint32_t kTxBytes = 2 * kQ * kN * sizeof(Element);

  struct SharedStorage {
    alignas(1024) Element c[cosize_v<typename Fwd::LayoutBC>];
    alignas(1024) Element b[cosize_v<typename Fwd::LayoutBC>];
    sm80::TileDecay<kQ> decay;
    alignas(8) uint64_t tma_barrier;
  };
  static constexpr size_t kSmemBytes = sizeof(SharedStorage) + 1024;  // + slack to align the base

  struct Params {
    Tma tma_c, tma_b;
    int seqlen;
    const float* a;   // (T) log decay dt_t * A
    const float* dt;  // (T)
    float* scores;    // (tiles, kQ, kQ): this tile's masked scores, row-major
  };

  static Params make_params(const Element* C, const Element* B, int seqlen, const float* a, const float* dt,
                            float* scores) {
    auto view = [&](const Element* p) {
      return make_tensor(make_gmem_ptr(p), make_layout(make_shape(seqlen, kN), make_stride(int64_t(kN), _1{})));
    };
    return {make_tma_copy(SM90_TMA_LOAD{}, view(C), typename Fwd::LayoutBC{}),
            make_tma_copy(SM90_TMA_LOAD{}, view(B), typename Fwd::LayoutBC{}), seqlen, a, dt, scores};
  }
};

template <class K>
__global__ void __launch_bounds__(K::kThreads) scores_sm90_kernel(const __grid_constant__ typename K::Params p) {
  using Fwd = typename K::Fwd;
  using Barrier = cutlass::arch::ClusterTransactionBarrier;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  auto& smem = *reinterpret_cast<typename K::SharedStorage*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) &
                                                              ~uintptr_t(1023));
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, tile = blockIdx.x;

  Tensor sC = make_tensor(make_smem_ptr(smem.c), typename Fwd::LayoutBC{});
  Tensor sB = make_tensor(make_smem_ptr(smem.b), typename Fwd::LayoutBC{});
  if (tid == 0) {
    Barrier::init(&smem.tma_barrier, 1);
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  if (tid == 0) {
    Barrier::arrive_and_expect_tx(&smem.tma_barrier, K::kTxBytes);
    using Tile = Shape<typename Fwd::TQ, typename Fwd::TN>;
    Tensor gC = local_tile(p.tma_c.get_tma_tensor(make_shape(p.seqlen, int(K::kN))), Tile{}, make_coord(tile, 0));
    Tensor gB = local_tile(p.tma_b.get_tma_tensor(make_shape(p.seqlen, int(K::kN))), Tile{}, make_coord(tile, 0));
    auto [gc, sc] = tma_partition(p.tma_c, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sC), group_modes<0, 2>(gC));
    auto [gb, sb] = tma_partition(p.tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
    copy(p.tma_c.with(smem.tma_barrier), gc, sc);
    copy(p.tma_b.with(smem.tma_barrier), gb, sb);
  }

  // Decay factors of the tile while the loads fly (all 128 threads, as in the forward).
  const int tok = tile * K::kQ + tid;
  const bool token_thread = tid < K::kQ && tok < p.seqlen;
  sm80::prepare_tile_decay<SegsumVariant::kHierarchical, K::kQ>(smem.decay, tid, token_thread ? p.a[tok] : 0.f,
                                                                token_thread ? p.dt[tok] : 0.f);
  __syncthreads();
  Barrier::wait(&smem.tma_barrier, 0);

  typename Fwd::MmaS mma;
  auto thr = mma.get_thread_slice(tid);
  Tensor acc = partition_fragment_C(mma, Shape<typename Fwd::TQ, typename Fwd::TQ>{});
  wgmma_issue(mma, thr.partition_fragment_A(sC), thr.partition_fragment_B(sB), acc, true);
  warpgroup_wait<0>();
  warpgroup_fence_operand(acc);
  mask_scores<K::kQ, false, false, false>(acc, smem.decay, tid);  // (an SS accumulator: the m16n8 rows)

  // Register i: row 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 q + i % 2.
  const int g = lane / 4, q = lane % 4;
  float* out = p.scores + int64_t(tile) * K::kQ * K::kQ;
  CUTE_UNROLL
  for (int i = 0; i < K::kQ / 8 * 4; ++i)
    out[(16 * warp + g + 8 * ((i / 2) % 2)) * K::kQ + 8 * (i / 4) + 2 * q + i % 2] = acc(i);
}

}  // namespace flashssd::sm90
