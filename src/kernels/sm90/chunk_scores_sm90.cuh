// The chunk scores S = C B^T of every 64-token tile, once per (batch, group, tile), before
// the Hopper forward's main pass (ssd_fwd_sm90.cuh). Every head of a group masks the same
// S with its own decay; computed here once, the main pass loads it with the tile's x, B and C
// (8 KB per tile and CTA) instead of each consumer computing it (a 64 x 64 x N WGMMA reading
// 32 KB of shared memory per tile and head: the main pass's binding resource, HOPPER_PLAN).
//
// Output: (batch, groups, tiles, 64, 64) contiguous 16-bit elements (Out), tiles = ceil(T / 64),
// row i (token i of the tile) by column j, then the tiles' inverse scales as fp32
// (chunk_scores_bytes). Out = fp16 (the fp16 and N = 256 kernels, which mask S): each tile
// scaled by a power of two so that its largest |S| is below 2^14, the main pass multiplying it
// back in the mask; fp16's 11-bit mantissa keeps fp16 inputs' accuracy (a bf16 S cost them
// 5-10x: y 3e-4 -> 1.3-2.6e-3 against float64, session 11), the scale fp32's range (no tile
// overflows; fp16's 29 binades below its largest value stay normal). Out = bf16 (the bf16
// kernels at N = 128, SsdFwdSm90::kFactoredScores): unscaled (bf16 has fp32's range; the
// inverse scales are 1), since there S itself is the B operand of the factored intra-tile GEMM,
// of the x tile's type. Entries right of the diagonal (never read: causal) and rows and columns
// past T are zero. Used at N = 128 and 256 (SsdFwdSm90::kChunkScores).
//
// The pass moves 2 x 16 KB in and 8 KB out per tile (N = 128) and its tensor work is small, so
// it is built to stream: a persistent grid (chunk_scores_kernel) whose producer warp keeps
// kStages tiles of C and B in flight by TMA (the forward's 128-byte swizzled K-major tiles: one
// instruction per 64-column box, no address arithmetic per row), and one consumer warpgroup
// per CTA computes each tile by one SS WGMMA (64 x 64 x N, fp32 accumulation), masks and
// scales it in registers and hands it to a TMA store. (Until session 44 the pass loaded by
// 16-byte cp.async from every thread and multiplied by mma.sync; per-row bulk copies were
// 1.5-3.2x slower than that, session 43.)
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/cutlass.h>

#include "kernels/common/launch_util.h"
#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/programmatic_launch.cuh"
#include "kernels/sm90/wgmma.cuh"

namespace flashssd::sm90 {

using namespace cute;

struct ChunkScoresArgs {
  const void* B;  // (batch, T, groups, N), unit stride on N; strides in elements
  const void* C;
  int64_t b_sb, b_st, b_sg, c_sb, c_st, c_sg;
  int batch, seqlen, groups;
  void* scores;        // the output: (batch, groups, tiles, 64, 64) of Out, each tile scaled
  float* inv_scales;   // (batch, groups, tiles): what each tile's values are multiplied by to read S
};

// One consumer warpgroup (WGMMA, mask, scale, output) and one producer warp (TMA loads).
constexpr int kChunkScoresQ = 64, kChunkScoresConsumerThreads = 128, kChunkScoresThreads = kChunkScoresConsumerThreads + 32;

// A tile's scale from its largest |S|: 2^(14 - e) for amax in [2^(e-1), 2^e), so amax * scale
// < 2^14 (fp16's largest is ~2^16), the exponent clamped to fp32's normal range; an all-zero
// or non-finite tile keeps 1 (its NaN / inf stay what they are). tests/cpu checks the cases.
__host__ __device__ inline float chunk_score_scale(float amax) {
  float scale = 1.f;
  if (amax > 0.f && amax <= FLT_MAX) {
    int e = 0;
    frexpf(amax, &e);
    scale = ldexpf(1.f, max(-126, min(126, 14 - e)));
  }
  return scale;
}

// The pass for inputs T (__nv_bfloat16 or __half) with state size kN and output Out (__half:
// scaled tiles; __nv_bfloat16: unscaled): its tiles, MMA, TMA descriptors and shared memory.
template <class T, int kN_, class Out>
struct ChunkScoresSm90 {
  static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>, "bf16 or fp16 B and C");
  static_assert(std::is_same_v<Out, __half> || std::is_same_v<Out, __nv_bfloat16>, "fp16 (scaled) or bf16 chunk scores");
  using Element = std::conditional_t<std::is_same_v<T, __half>, cutlass::half_t, cutlass::bfloat16_t>;
  using OutElement = std::conditional_t<std::is_same_v<Out, __half>, cutlass::half_t, cutlass::bfloat16_t>;
  static constexpr int kN = kN_, kQ = kChunkScoresQ;
  static constexpr bool kScaled = std::is_same_v<Out, __half>;
  static_assert(kN % 64 == 0, "whole 128-byte swizzle atoms along N");
  using TQ = Int<kQ>;
  using TN = Int<kN>;
  // C and B tiles (token, n) as the forward's stages hold them (SsdFwdSm90::LayoutBC): the
  // K-major operands of S = C B^T as loaded.
  using LayoutBC = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, Shape<TQ, TN>{}));
  // The output tile (i, j), j contiguous, in the same 128-byte swizzled atoms: the TMA store
  // reads it so, and the accumulator's pairs land in it without bank conflicts (lane (g, q)
  // of a store writes 16-byte chunk (column / 8) ^ g of row g: 32 distinct banks).
  using LayoutOut = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<OutElement>{}, Shape<TQ, TQ>{}));
  static constexpr CUTE_HOST_DEVICE uint32_t out_offset(int i, int j) {  // byte offset of (i, j) in LayoutOut
    return (i / 8) * 1024 + (i % 8) * 128 + ((j * 2) ^ ((i % 8) << 4));
  }
  using Mma = decltype(make_tiled_mma(GMMA::ss_op_selector<Element, Element, float, Shape<TQ, TQ, TN>>()));
  // Global views: B / C as (token, n, group, batch), the output as (row, j) with row = tile
  // index * 64 + i (the main pass's view of it, SsdFwdSm90::GmemScores).
  using GmemBC = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)),
                                      Layout<Shape<int, int, int, int>, Stride<int64_t, _1, int64_t, int64_t>>{}));
  using TmaBC = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemBC{}, LayoutBC{}));
  using GmemOut = decltype(make_tensor(make_gmem_ptr(static_cast<OutElement*>(nullptr)),
                                       Layout<Shape<int, int>, Stride<int64_t, _1>>{}));
  using TmaOut = decltype(make_tma_copy(SM90_TMA_STORE{}, GmemOut{}, LayoutOut{}));
  // Bytes a stage's barrier expects: TMA counts whole boxes, the rows past T (zero-filled) too.
  static constexpr uint32_t kTxBytes = 2 * kQ * kN * sizeof(Element);

  // Two CTAs per SM where three stages fit in half of its shared memory (N = 64: 6 stages,
  // N = 128: 3), else one CTA with as many stages as fit (N = 256: 3); at most 6. (Session 43,
  // the cp.async form: two CTAs of 3 stages ran the pass 1.3-5.1% faster than one of 6: while
  // one CTA finishes a tile, the other's loads go on.)
  static constexpr int kCtasPerSm = kN <= 128 ? 2 : 1;
  static constexpr size_t kStageBytes = 2 * kQ * kN * sizeof(Element);
  static constexpr size_t kOutBytes = kQ * kQ * sizeof(OutElement);
  static constexpr size_t kBudget = kCtasPerSm == 2 ? 111 * 1024 : 226 * 1024;
  static constexpr int kStages = int((kBudget - kOutBytes - 2048) / kStageBytes < 6 ? (kBudget - kOutBytes - 2048) / kStageBytes : 6);
  static_assert(kStages >= 2, "two stages fit");
  struct Stage {
    alignas(1024) Element c[cosize_v<LayoutBC>];
    alignas(1024) Element b[cosize_v<LayoutBC>];
  };
  struct SharedStorage {
    Stage stage[kStages];
    // One output tile: the consumer waits for the previous tile's store to have read it
    // (issued a whole tile earlier) before it writes the next.
    alignas(1024) OutElement out[cosize_v<LayoutOut>];
    alignas(8) uint64_t full[kStages];   // the stage's C and B have landed
    alignas(8) uint64_t empty[kStages];  // the consumers' WGMMA has read the stage
    float warp_max[kChunkScoresConsumerThreads / 32];  // (scaled output) each warp's largest |S|
  };
  static constexpr size_t kBytes = sizeof(SharedStorage) + 1024;  // + slack to align the base to 1024
  // (With the 1 KB of static shared memory that ptxas gives the kernel for the extern array's
  // 1024-byte alignment, and the 1 KB the SM reserves per CTA.)
  static_assert(kCtasPerSm * (kBytes + 2048) <= 228 * 1024, "kCtasPerSm CTAs fit in an SM's shared memory");

  struct Params {
    TmaBC tma_c, tma_b;
    TmaOut tma_out;
    int batch, seqlen, groups, tiles;
    float* inv_scales;
  };
  // (Strides of extent-1 dimensions by tma_stride: the tests pass the raw ones.)
  static Params make_params(const ChunkScoresArgs& a) {
    auto view = [&](const void* ptr, int64_t sb, int64_t st, int64_t sg) {
      return make_tensor(make_gmem_ptr(static_cast<const Element*>(ptr)),
                         make_layout(make_shape(a.seqlen, int(kN), a.groups, a.batch),
                                     make_stride(tma_stride(st, a.seqlen), _1{}, tma_stride(sg, a.groups),
                                                 tma_stride(sb, a.batch))));
    };
    const int tiles = (a.seqlen + kQ - 1) / kQ;
    const int rows = a.batch * a.groups * tiles * kQ;  // (launch_chunk_scores checks that it fits)
    auto out = make_tensor(make_gmem_ptr(static_cast<OutElement*>(a.scores)),
                           make_layout(make_shape(rows, int(kQ)), make_stride(int64_t(kQ), _1{})));
    return {make_tma_copy(SM90_TMA_LOAD{}, view(a.C, a.c_sb, a.c_st, a.c_sg), LayoutBC{}),
            make_tma_copy(SM90_TMA_LOAD{}, view(a.B, a.b_sb, a.b_st, a.b_sg), LayoutBC{}),
            make_tma_copy(SM90_TMA_STORE{}, out, LayoutOut{}),
            a.batch, a.seqlen, a.groups, tiles, a.inv_scales};
  }
};

// A persistent grid (kCtasPerSm CTAs per SM at most, balanced_grid): CTA c computes tiles c,
// c + grid, ... of the (batch, group, tile) order, tile fastest, so that the grid streams B and
// C in token order.
//   producer  warp 4, one thread: waits for a free stage, then TMA-loads the next tile's C and B
//             into it (kStages tiles in flight);
//   consumer  warps 0-3 (a warpgroup): S = C B^T by one SS WGMMA; releases the stage; zeroes
//             the entries right of the diagonal; (fp16 output) scales the tile by its largest
//             |S|; writes the 16-bit pairs into the output tile; thread 0 stores it by TMA and
//             writes the inverse scale.
template <class T, int kN, class Out>
__global__ void __launch_bounds__(kChunkScoresThreads, ChunkScoresSm90<T, kN, Out>::kCtasPerSm)
    chunk_scores_kernel(const __grid_constant__ typename ChunkScoresSm90<T, kN, Out>::Params p) {
  using K = ChunkScoresSm90<T, kN, Out>;
  using FullBarrier = cutlass::arch::ClusterTransactionBarrier;
  using EmptyBarrier = cutlass::arch::ClusterBarrier;
  using NamedBarrier = cutlass::arch::NamedBarrier;
  constexpr int kQ = K::kQ, kStages = K::kStages, kWG = kChunkScoresConsumerThreads;
  constexpr int kConsumerBarrier = 1;  // (a NamedBarrier id: the consumer warpgroup's own)
  allow_next_kernel();  // (launched programmatically after the call's previous kernel: programmatic_launch.cuh)
  wait_for_previous_kernel();
  extern __shared__ __align__(1024) unsigned char chunk_scores_smem[];
  // Align by offsetting the shared array itself, so that the compiler keeps the shared space.
  const uint32_t misalign = static_cast<uint32_t>(__cvta_generic_to_shared(chunk_scores_smem)) & 1023u;
  auto& smem = *reinterpret_cast<typename K::SharedStorage*>(chunk_scores_smem + ((1024u - misalign) & 1023u));
  // (32-bit tile indices: launch_chunk_scores keeps tiles x 64 < 2^31.)
  const int total = p.batch * p.groups * p.tiles;
  const int count = (total - int(blockIdx.x) + int(gridDim.x) - 1) / int(gridDim.x);  // this CTA's tiles (the launch keeps grid <= total)
  const int tid = threadIdx.x;
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      FullBarrier::init(&smem.full[s], 1);    // the producer's expect-tx
      EmptyBarrier::init(&smem.empty[s], kWG);  // each consumer thread
    }
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();

  if (tid >= kWG) {
    // ---- producer: one thread keeps kStages tiles of C and B in flight ----
    if (tid == kWG) {
      cute::prefetch_tma_descriptor(p.tma_c.get_tma_descriptor());
      cute::prefetch_tma_descriptor(p.tma_b.get_tma_descriptor());
      auto load = [&](const typename K::TmaBC& tma, typename K::Element* stage_tile, int s, int tile, int g, int b) {
        Tensor m = tma.get_tma_tensor(make_shape(p.seqlen, int(kN), p.groups, p.batch))(_, _, g, b);
        Tensor sm = make_tensor(make_smem_ptr(stage_tile), typename K::LayoutBC{});
        Tensor gm = local_tile(m, Shape<typename K::TQ, typename K::TN>{}, make_coord(tile, 0));
        auto [g_part, s_part] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sm), group_modes<0, 2>(gm));
        copy(tma.with(smem.full[s]), g_part, s_part);
      };
      for (int k = 0; k < count; ++k) {
        const int s = k % kStages;
        EmptyBarrier::wait(&smem.empty[s], ((k / kStages) & 1) ^ 1);  // passes at once on the first round
        const int lin = int(blockIdx.x) + k * int(gridDim.x);
        const int tile = lin % p.tiles, g = lin / p.tiles % p.groups, b = lin / p.tiles / p.groups;
        FullBarrier::arrive_and_expect_tx(&smem.full[s], K::kTxBytes);
        load(p.tma_c, smem.stage[s].c, s, tile, g, b);
        load(p.tma_b, smem.stage[s].b, s, tile, g, b);
      }
    }
    return;
  }

  // ---- consumer warpgroup ----
  if (tid == 0) cute::prefetch_tma_descriptor(p.tma_out.get_tma_descriptor());
  // The warpgroup's barrier, also a compiler fence for its shared-memory reads and writes
  // (CUTLASS's bar.sync asm has no memory clobber).
  auto sync_consumers = [] {
    asm volatile("" ::: "memory");
    NamedBarrier::sync(kWG, kConsumerBarrier);
    asm volatile("" ::: "memory");
  };
  typename K::Mma mma;
  auto thr = mma.get_thread_slice(tid);
  Tensor acc = partition_fragment_C(mma, Shape<typename K::TQ, typename K::TQ>{});
  const int warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
  // Accumulator register i holds (row, column) = (16 warp + g + 8 ((i / 2) % 2), 8 (i / 4) + 2 q
  // + i % 2), the m16n8 order (tests/cpu/test_sm90_layouts.cu proves it for this MMA).
  auto row_of = [&](int i) { return 16 * warp + g + 8 * ((i / 2) % 2); };
  auto col_of = [&](int i) { return 8 * (i / 4) + 2 * q + i % 2; };
  const uint32_t out_base = static_cast<uint32_t>(__cvta_generic_to_shared(smem.out));
  for (int k = 0; k < count; ++k) {
    const int s = k % kStages;
    FullBarrier::wait(&smem.full[s], (k / kStages) & 1);
    Tensor sC = make_tensor(make_smem_ptr(smem.stage[s].c), typename K::LayoutBC{});
    Tensor sB = make_tensor(make_smem_ptr(smem.stage[s].b), typename K::LayoutBC{});
    wgmma_issue(mma, thr.partition_fragment_A(sC), thr.partition_fragment_B(sB), acc, true);
    warpgroup_wait<0>();
    warpgroup_fence_operand(acc);
    EmptyBarrier::arrive(&smem.empty[s]);  // this thread's WGMMA has read the stage

    float amax = 0.f;
    CUTE_UNROLL
    for (int i = 0; i < size(acc); ++i) {
      if (col_of(i) > row_of(i)) acc(i) = 0.f;  // right of the diagonal
      amax = fmaxf(amax, fabsf(acc(i)));        // (NaN is ignored here and stays NaN in the output)
    }
    if constexpr (K::kScaled) {
      CUTE_UNROLL
      for (int offset = 16; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
      if (lane == 0) smem.warp_max[warp] = amax;
    }
    // The previous tile's store has read the output tile (and the warps' maxima are written).
    if (tid == 0) tma_store_wait<0>();
    sync_consumers();
    float scale = 1.f;
    if constexpr (K::kScaled) {
      CUTE_UNROLL
      for (int w = 0; w < kWG / 32; ++w) amax = fmaxf(amax, smem.warp_max[w]);
      scale = chunk_score_scale(amax);
    }
    CUTE_UNROLL
    for (int i = 0; i < size(acc); i += 2) {
      const uint32_t bits = sm80::HalfPacking<Out>::pack(acc(i) * scale, acc(i + 1) * scale);
      asm volatile("st.shared.b32 [%0], %1;" ::"r"(out_base + K::out_offset(row_of(i), col_of(i))), "r"(bits) : "memory");
    }
    cutlass::arch::fence_view_async_shared();  // the generic-proxy writes, seen by the TMA store
    sync_consumers();
    if (tid == 0) {
      const int lin = int(blockIdx.x) + k * int(gridDim.x);
      Tensor mOut = p.tma_out.get_tma_tensor(make_shape(total * kQ, int(kQ)));
      Tensor gOut = local_tile(mOut, Shape<typename K::TQ, typename K::TQ>{}, make_coord(lin, 0));
      Tensor sOut = make_tensor(make_smem_ptr(smem.out), typename K::LayoutOut{});
      auto [g_part, s_part] = tma_partition(p.tma_out, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sOut), group_modes<0, 2>(gOut));
      copy(p.tma_out, s_part, g_part);
      tma_store_arrive();
      p.inv_scales[lin] = 1.f / scale;  // (a power of two: exact)
    }
  }
  if (tid == 0) tma_store_wait<0>();  // the output tile must stay valid until the last store has read it
}

// Tiles, score elements and bytes of the output for a problem: the 16-bit scores, then the
// fp32 inverse scales (at a multiple of 8 KB).
inline size_t chunk_scores_tiles(int batch, int seqlen, int groups) {
  return size_t(batch) * groups * ((seqlen + kChunkScoresQ - 1) / kChunkScoresQ);
}
inline size_t chunk_scores_elements(int batch, int seqlen, int groups) {
  return chunk_scores_tiles(batch, seqlen, groups) * kChunkScoresQ * kChunkScoresQ;
}
inline size_t chunk_scores_bytes(int batch, int seqlen, int groups) {
  return chunk_scores_elements(batch, seqlen, groups) * sizeof(uint16_t) + chunk_scores_tiles(batch, seqlen, groups) * sizeof(float);
}
// The inverse scales within a buffer of chunk_scores_bytes that starts with the scores.
inline float* chunk_score_inv_scales(void* scores, int batch, int seqlen, int groups) {
  return reinterpret_cast<float*>(static_cast<uint16_t*>(scores) + chunk_scores_elements(batch, seqlen, groups));
}

// Out: fp16 (scaled tiles) or bf16 (unscaled), SsdFwdSm90::CudaScoreElement. max_ctas > 0 caps
// the grid (the tests' way to give each CTA many tiles).
template <class T, int kN, class Out>
void launch_chunk_scores(const ChunkScoresArgs& a, cudaStream_t stream, bool after_previous = false, int max_ctas = 0) {
  using K = ChunkScoresSm90<T, kN, Out>;
  const int64_t tiles = int64_t(a.batch) * a.groups * ((a.seqlen + kChunkScoresQ - 1) / kChunkScoresQ);
  // (The output's rows, tiles x 64, are TMA coordinates: 32-bit.)
  if (tiles * kChunkScoresQ > int64_t(INT32_MAX))
    throw std::invalid_argument("flashssd sm90 forward: batch x groups x ceil(T / 64) x 64 exceeds 2^31 - 1 chunk score rows");
  if (tiles == 0) return;
  int device = 0, sms = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device attribute");
  auto kernel = chunk_scores_kernel<T, kN, Out>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(K::kBytes)), "cudaFuncSetAttribute");
  const int slots = K::kCtasPerSm * sms;
  const int64_t grid = balanced_grid(tiles, max_ctas > 0 ? std::min(slots, max_ctas) : slots);
  launch_in_chain(kernel, dim3(static_cast<unsigned>(grid)), dim3(kChunkScoresThreads), K::kBytes, stream, after_previous,
                  "chunk scores launch", K::make_params(a));
}

}  // namespace flashssd::sm90
