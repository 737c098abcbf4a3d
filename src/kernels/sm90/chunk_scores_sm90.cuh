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
// past T are zero. mma.sync with fp32 accumulation: the pass moves 2 x 16 KB in and 8 KB out
// per tile (N = 128); its tensor work is small, so it is built to stream B and C (a persistent
// grid with several tiles in flight per SM, chunk_scores_kernel). Used at N = 128 and 256
// (SsdFwdSm90::kChunkScores).
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

#include "kernels/common/launch_util.h"
#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/programmatic_launch.cuh"

namespace flashssd::sm90 {

struct ChunkScoresArgs {
  const void* B;  // (batch, T, groups, N), unit stride on N; strides in elements
  const void* C;
  int64_t b_sb, b_st, b_sg, c_sb, c_st, c_sg;
  int batch, seqlen, groups;
  void* scores;        // the output: (batch, groups, tiles, 64, 64) of Out, each tile scaled
  float* inv_scales;   // (batch, groups, tiles): what each tile's values are multiplied by to read S
};

constexpr int kChunkScoresQ = 64, kChunkScoresThreads = 256;

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

// Shared memory of the pass: kStages stages of one tile's C and B (64 tokens x N each, rows
// padded by 16 bytes for conflict-free ldmatrix), then the staged 64 x 64 output.
template <class T, int kN>
struct ChunkScoresStorage {
  static constexpr int kQ = kChunkScoresQ, kPitch = kN + 8, kOutPitch = kQ + 8;
  static constexpr int kTileElems = kQ * kPitch;  // C or B of one tile
  static constexpr size_t kStageBytes = 2 * kTileElems * sizeof(T);
  static constexpr size_t kOutBytes = kQ * kOutPitch * sizeof(uint16_t);
  // Two CTAs per SM where three stages fit in half of its shared memory (N = 64: 5 stages,
  // N = 128: 3), else one CTA with as many stages as fit (N = 256: 3); at most 6. Two CTAs of 3
  // stages ran the pass 1.3-5.1% faster than one of 6 (bench/results/logs/2026-12-05-s43-call1/):
  // while one CTA stores a tile's output or waits at its barrier, the other's loads go on.
  static constexpr int kCtasPerSm = kN <= 128 ? 2 : 1;
  static constexpr size_t kBudget = kCtasPerSm == 2 ? 111 * 1024 : 226 * 1024;
  static constexpr int kStages = int((kBudget - kOutBytes) / kStageBytes < 6 ? (kBudget - kOutBytes) / kStageBytes : 6);
  static_assert(kStages >= 2, "two stages fit");
  static constexpr size_t kBytes = kStages * kStageBytes + kOutBytes;
  // (With the kernel's static warp maxima and the 1 KB the SM reserves per CTA.)
  static_assert(kCtasPerSm * (kBytes + kChunkScoresThreads / 32 * sizeof(float) + 1024) <= 228 * 1024,
                "kCtasPerSm CTAs fit in an SM's shared memory");
};

// A persistent grid (kCtasPerSm CTAs per SM at most, balanced_grid): CTA c computes tiles c, c + grid,
// ... of the (batch, group, tile) order, tile fastest, so that the grid streams B and C in
// token order. Each tile's C and B are fetched kStages - 1 tiles ahead by cp.async (up to
// ~140 KB in flight per SM at N = 128), so that the pass streams at the read bandwidth: session 40
// measured the one-tile-per-CTA form (1024 CTAs of 4 warps, two 8 KB slices in flight each)
// at 2.1 TB/s of DRAM reads at R1 (15.7 us for 33.6 MB). Warp w computes rows 16 (w % 4) ..
// + 15 by columns 32 (w / 4) .. + 31 of the 64 x 64 tile (mma.sync, fp32 accumulation); the
// two warps whose block lies right of the diagonal compute nothing.
template <class T, int kN, class Out>
__global__ void __launch_bounds__(kChunkScoresThreads, ChunkScoresStorage<T, kN>::kCtasPerSm) chunk_scores_kernel(const ChunkScoresArgs a) {
  static_assert(std::is_same_v<Out, __half> || std::is_same_v<Out, __nv_bfloat16>, "fp16 (scaled) or bf16 chunk scores");
  constexpr bool kScaled = std::is_same_v<Out, __half>;
  using Ops = sm80::HalfOperands<T>;
  using Storage = ChunkScoresStorage<T, kN>;
  constexpr int kQ = kChunkScoresQ, kPitch = Storage::kPitch, kOutPitch = Storage::kOutPitch, kStages = Storage::kStages;
  constexpr int kThreads = kChunkScoresThreads, kChunksPerRow = kN / 8;  // 16-byte pieces of a row
  static_assert(kN % 16 == 0 && (kQ * kChunksPerRow) % kThreads == 0, "whole 16-byte pieces per thread");
  extern __shared__ __align__(16) unsigned char chunk_scores_smem[];
  T* stages = reinterpret_cast<T*>(chunk_scores_smem);
  Out* staged = reinterpret_cast<Out*>(chunk_scores_smem + kStages * Storage::kStageBytes);
  __shared__ float warp_max[kThreads / 32];
  allow_next_kernel();  // (launched programmatically after the call's previous kernel: programmatic_launch.cuh)
  wait_for_previous_kernel();
  const int tiles = (a.seqlen + kQ - 1) / kQ;
  const int64_t total = int64_t(a.batch) * a.groups * tiles;
  const int64_t count = (total - blockIdx.x + gridDim.x - 1) / gridDim.x;  // this CTA's tiles (the launch keeps grid <= total)
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  // This CTA's k-th tile into stage k % kStages (zero past T), as one commit group; an empty
  // group past the CTA's last tile, so that the wait below counts the same for every tile.
  auto load_tile = [&](int64_t k) {
    if (k < count) {
      const int64_t lin = blockIdx.x + k * gridDim.x;
      const int tile = int(lin % tiles), g = int(lin / tiles % a.groups), b = int(lin / tiles / a.groups);
      const T* C = static_cast<const T*>(a.C) + b * a.c_sb + g * a.c_sg;
      const T* B = static_cast<const T*>(a.B) + b * a.b_sb + g * a.b_sg;
      T* c_tile = stages + (k % kStages) * 2 * Storage::kTileElems;
      T* b_tile = c_tile + Storage::kTileElems;
#pragma unroll
      for (int m = 0; m < kQ * kChunksPerRow / kThreads; ++m) {
        const int i = threadIdx.x + m * kThreads;
        const int row = i / kChunksPerRow, col = i % kChunksPerRow * 8, tok = tile * kQ + row;
        const bool valid = tok < a.seqlen;
        // (a mapped address even when nothing is read)
        sm80::cp_async_16(c_tile + row * kPitch + col, C + (valid ? tok : 0) * a.c_st + col, valid);
        sm80::cp_async_16(b_tile + row * kPitch + col, B + (valid ? tok : 0) * a.b_st + col, valid);
      }
    }
    sm80::cp_async_commit();
  };

  const int row_block = warp % 4, col_half = warp / 4;
  const int row = 16 * row_block + lane / 4, col = 2 * (lane % 4);
  const bool computes = 32 * col_half <= 16 * row_block + 15;  // not wholly right of the diagonal
#pragma unroll
  for (int k = 0; k < kStages - 1; ++k) load_tile(k);
  for (int64_t k = 0; k < count; ++k) {
    sm80::cp_async_wait<kStages - 2>();  // this thread's pieces of tile k have landed
    __syncthreads();  // everyone's have; everyone is done with tile k - 1's stage and output
    load_tile(k + kStages - 1);  // into tile k - 1's stage
    const T* cs = stages + (k % kStages) * 2 * Storage::kTileElems;
    const T* bs = cs + Storage::kTileElems;
    float acc[4][4] = {};  // n-tile t: columns 32 col_half + 8 t ..
    if (computes) {
#pragma unroll
      for (int kk = 0; kk < kN; kk += 16) {
        typename Ops::FragA fa;
        Ops::load_a(fa, cs, kPitch, 16 * row_block, kk, lane);  // C (token i, n)
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          typename Ops::FragB fb[2];
          Ops::load_b2(fb, bs, kPitch, 32 * col_half + 16 * j, kk, lane);  // B (token j, n)
          Ops::mma(acc[2 * j], fa, fb[0]);
          Ops::mma(acc[2 * j + 1], fa, fb[1]);
        }
      }
    }
    // The m16n8 accumulator order: register e of n-tile t is (row + 8 (e / 2), 32 col_half + 8 t + col + e % 2).
    float amax = 0.f;
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (32 * col_half + 8 * t + col + e % 2 > row + 8 * (e / 2)) acc[t][e] = 0.f;  // right of the diagonal
        amax = fmaxf(amax, fabsf(acc[t][e]));
      }
    float scale = 1.f;
    if constexpr (kScaled) {
      // The tile's largest |S| (NaN is ignored here and stays NaN in the output).
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
      if (lane == 0) warp_max[warp] = amax;
      __syncthreads();
#pragma unroll
      for (int w = 0; w < kThreads / 32; ++w) amax = fmaxf(amax, warp_max[w]);
      scale = chunk_score_scale(amax);
    }
    using Pair = std::conditional_t<kScaled, __half2, __nv_bfloat162>;
    auto pack = [](float lo, float hi) {
      if constexpr (kScaled) return __floats2half2_rn(lo, hi);
      else return __floats2bfloat162_rn(lo, hi);
    };
    // Staged, then stored 16 bytes per thread along the rows (a warp writes 512 contiguous
    // bytes; the accumulator order would write 16-byte pieces of 8 rows).
#pragma unroll
    for (int t = 0; t < 4; ++t) {
      const int c = 32 * col_half + 8 * t + col;
      *reinterpret_cast<Pair*>(staged + row * kOutPitch + c) = pack(acc[t][0] * scale, acc[t][1] * scale);
      *reinterpret_cast<Pair*>(staged + (row + 8) * kOutPitch + c) = pack(acc[t][2] * scale, acc[t][3] * scale);
    }
    __syncthreads();
    const int64_t lin = blockIdx.x + k * gridDim.x;
    Out* out = static_cast<Out*>(a.scores) + lin * (kQ * kQ);
    static_assert(kQ * kQ / 8 % kThreads == 0, "whole 16-byte pieces of the output per thread");
#pragma unroll
    for (int m = 0; m < kQ * kQ / 8 / kThreads; ++m) {
      const int i = threadIdx.x + m * kThreads;
      const int r = i / (kQ / 8), c = i % (kQ / 8) * 8;
      *reinterpret_cast<uint4*>(out + r * kQ + c) = *reinterpret_cast<const uint4*>(staged + r * kOutPitch + c);
    }
    if (threadIdx.x == 0) a.inv_scales[lin] = 1.f / scale;  // (a power of two: exact)
  }
  sm80::cp_async_wait<0>();  // (the empty groups past the last tile)
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
  const int64_t tiles = int64_t(a.batch) * a.groups * ((a.seqlen + kChunkScoresQ - 1) / kChunkScoresQ);
  if (tiles > int64_t(INT32_MAX))
    throw std::invalid_argument("flashssd sm90 forward: batch x groups x ceil(T / 64) exceeds 2^31 - 1 tiles");
  if (tiles == 0) return;
  int device = 0, sms = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device attribute");
  auto kernel = chunk_scores_kernel<T, kN, Out>;
  constexpr size_t kSmemBytes = ChunkScoresStorage<T, kN>::kBytes;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes)), "cudaFuncSetAttribute");
  const int slots = ChunkScoresStorage<T, kN>::kCtasPerSm * sms;
  const int64_t grid = balanced_grid(tiles, max_ctas > 0 ? std::min(slots, max_ctas) : slots);
  launch_in_chain(kernel, dim3(static_cast<unsigned>(grid)), dim3(kChunkScoresThreads), kSmemBytes, stream, after_previous,
                  "chunk scores launch", a);
}

}  // namespace flashssd::sm90
