// First compute step of the planned sm90 forward (docs/HOPPER_PLAN.md item 2), on
// its own so that it can be tested before the rest of the mainloop goes in:
//
//   S' = (C B^T) o L o dt    for one 64-token tile, with
//   - C and B tiles (64 x N, bf16) loaded by TMA into 128-byte swizzled K-major
//     shared-memory tiles (the layout WGMMA reads),
//   - S = C B^T by one warpgroup with WGMMA (both operands from shared memory),
//   - the hierarchical decay mask of segsum.cuh applied on the WGMMA accumulator.
//
// The last point rests on a layout fact: a 64 x 64 WGMMA accumulator gives each warp
// of the warpgroup rows 16 w .. 16 w + 15, held per 8-column block exactly as an
// mma.sync m16n8 accumulator (registers (g, 2q), (g, 2q + 1), (g + 8, 2q), (g + 8, 2q + 1)).
// So the sm80 mask code applies unchanged; ScoresSm90::layout_mismatches() checks the
// fact against CuTe's own partition of the accumulator, and tests/gpu/test_sm90_scores.cpp
// runs both on the device.
#pragma once

#include <cuda_runtime.h>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/cutlass.h>

#include "kernels/common/segsum.cuh"

namespace flashssd::sm90 {

using namespace cute;

template <int kN_, SegsumVariant kVariant_ = SegsumVariant::kHierarchical>
struct ScoresSm90 {
  using Element = cutlass::bfloat16_t;
  static constexpr int kN = kN_;
  static constexpr SegsumVariant kVariant = kVariant_;
  static constexpr int kQ = 64;
  static constexpr int kThreads = 128;  // one warpgroup
  static_assert(kThreads == 2 * kQ, "prepare_tile_decay uses two threads per token");

  using SmemLayoutBC = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, Shape<Int<kQ>, Int<kN>>{}));
  using TiledMma = decltype(make_tiled_mma(
      GMMA::ss_op_selector<Element, Element, float, Shape<Int<kQ>, Int<kQ>, Int<kN>>>()));
  using GmemLayout = Layout<Shape<int, int>, Stride<int64_t, _1>>;  // (token, state), one sequence
  using GmemTensor = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)), GmemLayout{}));
  using Tma = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemTensor{}, SmemLayoutBC{}));
  static constexpr uint32_t kTxBytes = 2 * kQ * kN * sizeof(Element);

  struct SharedStorage {
    alignas(1024) Element c[cosize_v<SmemLayoutBC>];  // 128-byte swizzle: 1024-byte aligned tiles
    alignas(1024) Element b[cosize_v<SmemLayoutBC>];
    sm80::TileDecay<kQ> decay;
    alignas(8) uint64_t tma_barrier;
  };

  struct Params {
    Tma tma_c, tma_b;
    int seqlen;
    const float* a;    // (T) log decay dt_t * A
    const float* dt;   // (T)
    float* scores;     // (tiles, kQ, kQ): this tile's masked scores, row-major
    int* mismatches;   // accumulator elements whose coordinate differs from the m16n8 rule
  };

  static Params make_params(const Element* C, const Element* B, int seqlen, const float* a, const float* dt,
                            float* scores, int* mismatches) {
    auto view = [&](const Element* p) {
      return make_tensor(make_gmem_ptr(p), make_layout(make_shape(seqlen, kN), make_stride(int64_t(kN), _1{})));
    };
    return {make_tma_copy(SM90_TMA_LOAD{}, view(C), SmemLayoutBC{}), make_tma_copy(SM90_TMA_LOAD{}, view(B), SmemLayoutBC{}),
            seqlen, a, dt, scores, mismatches};
  }
};

template <class K>
__global__ void __launch_bounds__(K::kThreads) scores_sm90_kernel(const __grid_constant__ typename K::Params p) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // Swizzled tiles need 1024-byte alignment; the launch adds 1024 bytes of slack.
  auto& smem = *reinterpret_cast<typename K::SharedStorage*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, tile = blockIdx.x;
  using Barrier = cutlass::arch::ClusterTransactionBarrier;

  Tensor sC = make_tensor(make_smem_ptr(smem.c), typename K::SmemLayoutBC{});
  Tensor sB = make_tensor(make_smem_ptr(smem.b), typename K::SmemLayoutBC{});
  if (tid == 0) {
    Barrier::init(&smem.tma_barrier, 1);
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  if (tid == 0) {
    Barrier::arrive_and_expect_tx(&smem.tma_barrier, K::kTxBytes);
    Tensor mC = p.tma_c.get_tma_tensor(make_shape(p.seqlen, int(K::kN)));
    Tensor mB = p.tma_b.get_tma_tensor(make_shape(p.seqlen, int(K::kN)));
    Tensor gC = local_tile(mC, Shape<Int<K::kQ>, Int<K::kN>>{}, make_coord(tile, 0));
    Tensor gB = local_tile(mB, Shape<Int<K::kQ>, Int<K::kN>>{}, make_coord(tile, 0));
    auto [gc, sc] = tma_partition(p.tma_c, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sC), group_modes<0, 2>(gC));
    auto [gb, sb] = tma_partition(p.tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
    copy(p.tma_c.with(smem.tma_barrier), gc, sc);
    copy(p.tma_b.with(smem.tma_barrier), gb, sb);
  }

  // Decay factors of the tile while the loads fly (all 128 threads, as in the sm80 kernel).
  const int tok = tile * K::kQ + tid;
  const bool token_thread = tid < K::kQ && tok < p.seqlen;
  sm80::prepare_tile_decay<K::kVariant, K::kQ>(smem.decay, tid, token_thread ? p.a[tok] : 0.f,
                                         token_thread ? p.dt[tok] : 0.f);
  __syncthreads();
  Barrier::wait(&smem.tma_barrier, 0);

  // S = C B^T: 64 x 64 x kN, k-steps of 16, accumulator zero-initialised by the first.
  typename K::TiledMma mma;
  auto thr = mma.get_thread_slice(tid);
  Tensor tSrC = thr.partition_fragment_A(sC);
  Tensor tSrB = thr.partition_fragment_B(sB);
  Tensor acc = partition_fragment_C(mma, Shape<Int<K::kQ>, Int<K::kQ>>{});
  warpgroup_fence_operand(acc);
  warpgroup_arrive();
  mma.accumulate_ = GMMA::ScaleOut::Zero;
  CUTE_UNROLL
  for (int k = 0; k < size<2>(tSrC); ++k) {
    cute::gemm(mma, tSrC(_, _, k), tSrB(_, _, k), acc);
    mma.accumulate_ = GMMA::ScaleOut::One;
  }
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  warpgroup_fence_operand(acc);

  // The accumulator as the sm80 fragment s[n-tile][4]; count coordinate mismatches.
  static_assert(decltype(size(acc))::value == K::kQ / 8 * 4, "32 accumulators per thread");
  Tensor coord = thr.partition_C(make_identity_tensor(Shape<Int<K::kQ>, Int<K::kQ>>{}));
  const int g = lane / 4, q = lane % 4;
  float s[K::kQ / 8][4];
  int mismatches = 0;
  CUTE_UNROLL
  for (int i = 0; i < K::kQ / 8 * 4; ++i) {
    s[i / 4][i % 4] = acc(i);
    const int row = 16 * warp + g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * q + i % 2;
    mismatches += (get<0>(coord(i)) != row) + (get<1>(coord(i)) != col);
  }
  sm80::apply_decay_mask<K::kVariant, K::kQ>(s, smem.decay, warp, lane);

  float* out = p.scores + int64_t(tile) * K::kQ * K::kQ;
  CUTE_UNROLL
  for (int i = 0; i < K::kQ / 8 * 4; ++i) {
    const int row = 16 * warp + g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * q + i % 2;
    out[row * K::kQ + col] = s[i / 4][i % 4];
  }
  if (mismatches) atomicAdd(p.mismatches, mismatches);
}

}  // namespace flashssd::sm90
