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
// per tile (N = 128); its tensor work is small. Used at N = 128 and 256
// (SsdFwdSm90::kChunkScores).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
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

constexpr int kChunkScoresQ = 64, kChunkScoresThreads = 128;

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

// One CTA per (batch, group, tile), linear in blockIdx.x (tile fastest); warp w computes rows
// 16 w .. 16 w + 15 of the 64 x 64 tile over N in slices of 32, the next slice loading while
// one is multiplied. Sized for one wave at R1 (1024 tiles): 20 KB of shared memory and <= 64
// registers give 8 CTAs per SM (session 11's slices of 64 took 37 KB: 6 per SM, 1.29 waves,
// 18.6 us at R1 under ncu).
template <class T, int kN, class Out>
__global__ void __launch_bounds__(kChunkScoresThreads, 8) chunk_scores_kernel(const ChunkScoresArgs a) {
  static_assert(std::is_same_v<Out, __half> || std::is_same_v<Out, __nv_bfloat16>, "fp16 (scaled) or bf16 chunk scores");
  constexpr bool kScaled = std::is_same_v<Out, __half>;
  using Ops = sm80::HalfOperands<T>;
  constexpr int kQ = kChunkScoresQ, kSlice = 32, kPitch = kSlice + 8;  // (+8: conflict-free ldmatrix rows)
  static_assert(kN % kSlice == 0, "N in slices of 32");
  constexpr int kSlices = kN / kSlice;
  constexpr int kOutPitch = kQ + 8;  // the scaled tile staged for 16-byte stores (conflict-free both ways)
  constexpr int kBufferElems = 2 * kQ * kPitch;  // one slice of C, then of B
  static_assert(kQ * kOutPitch <= 2 * kBufferElems, "the staged output fits in the slice buffers");
  __shared__ __align__(16) T smem[2 * kBufferElems];
  allow_next_kernel();  // (launched programmatically after the call's previous kernel: programmatic_launch.cuh)
  wait_for_previous_kernel();
  const int tiles = (a.seqlen + kQ - 1) / kQ;
  const int64_t cta = blockIdx.x;
  const int tile = int(cta % tiles), g = int(cta / tiles % a.groups), b = int(cta / tiles / a.groups);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const T* C = static_cast<const T*>(a.C) + b * a.c_sb + g * a.c_sg;
  const T* B = static_cast<const T*>(a.B) + b * a.b_sb + g * a.b_sg;
  // Slice k (64 tokens x 32 n of C and of B, 16 bytes per cp.async, zero past T) into buffer
  // k % 2: the next slice is in flight while this one is multiplied.
  // Each thread loads 16 bytes of rows r and r + 32 (r = threadIdx.x / 4) of each slice.
  constexpr int kChunksPerRow = kSlice / 8;
  static_assert(kQ * kChunksPerRow == 2 * kChunkScoresThreads, "two 16-byte chunks of C and of B per thread and slice");
  const int load_row = threadIdx.x / kChunksPerRow, load_col = threadIdx.x % kChunksPerRow * 8;
  const int tok0 = tile * kQ + load_row, tok1 = tok0 + kQ / 2;
  const bool valid0 = tok0 < a.seqlen, valid1 = tok1 < a.seqlen;
  // (a mapped address even when nothing is read)
  const T* c0 = C + (valid0 ? tok0 : 0) * a.c_st + load_col;
  const T* c1 = C + (valid1 ? tok1 : 0) * a.c_st + load_col;
  const T* b0 = B + (valid0 ? tok0 : 0) * a.b_st + load_col;
  const T* b1 = B + (valid1 ? tok1 : 0) * a.b_st + load_col;
  auto load_slice = [&](int k) {
    T* c_tile = smem + (k % 2) * kBufferElems + load_row * kPitch + load_col;
    T* b_tile = c_tile + kQ * kPitch;
    constexpr int kHalf = kQ / 2 * kPitch;
    sm80::cp_async_16(c_tile, c0 + k * kSlice, valid0);
    sm80::cp_async_16(c_tile + kHalf, c1 + k * kSlice, valid1);
    sm80::cp_async_16(b_tile, b0 + k * kSlice, valid0);
    sm80::cp_async_16(b_tile + kHalf, b1 + k * kSlice, valid1);
    sm80::cp_async_commit();
  };
  float acc[kQ / 8][4] = {};
  load_slice(0);
#pragma unroll
  for (int k = 0; k < kSlices; ++k) {
    if (k + 1 < kSlices) {
      load_slice(k + 1);
      sm80::cp_async_wait<1>();
    } else {
      sm80::cp_async_wait<0>();
    }
    __syncthreads();
    const T* cs = smem + (k % 2) * kBufferElems;
    const T* bs = cs + kQ * kPitch;
#pragma unroll
    for (int kk = 0; kk < kSlice; kk += 16) {
      typename Ops::FragA fa;
      Ops::load_a(fa, cs, kPitch, 16 * warp, kk, lane);  // C (token i, n)
#pragma unroll
      for (int j0 = 0; j0 < kQ; j0 += 16) {
        typename Ops::FragB fb[2];
        Ops::load_b2(fb, bs, kPitch, j0, kk, lane);  // B (token j, n)
        Ops::mma(acc[j0 / 8], fa, fb[0]);
        Ops::mma(acc[j0 / 8 + 1], fa, fb[1]);
      }
    }
    __syncthreads();  // buffer k % 2 is refilled by slice k + 2 (after the last: the staged output)
  }
  // The m16n8 accumulator order: register e of n-tile t is (row + 8 (e / 2), 8 t + col + e % 2).
  const int row = 16 * warp + lane / 4, col = 2 * (lane % 4);
  float amax = 0.f;
#pragma unroll
  for (int t = 0; t < kQ / 8; ++t)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (8 * t + col + e % 2 > row + 8 * (e / 2)) acc[t][e] = 0.f;  // right of the diagonal
      amax = fmaxf(amax, fabsf(acc[t][e]));
    }
  float scale = 1.f;
  if constexpr (kScaled) {
    // The tile's largest |S| (NaN is ignored here and stays NaN in the output).
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
    __shared__ float warp_max[kChunkScoresThreads / 32];
    if (lane == 0) warp_max[warp] = amax;
    __syncthreads();
#pragma unroll
    for (int w = 0; w < kChunkScoresThreads / 32; ++w) amax = fmaxf(amax, warp_max[w]);
    scale = chunk_score_scale(amax);
  }
  using Pair = std::conditional_t<kScaled, __half2, __nv_bfloat162>;
  auto pack = [](float lo, float hi) {
    if constexpr (kScaled) return __floats2half2_rn(lo, hi);
    else return __floats2bfloat162_rn(lo, hi);
  };
  // Staged in shared memory, then stored 16 bytes per thread along the rows (a warp writes 512
  // contiguous bytes; the accumulator order would write 16-byte pieces of 8 rows).
  Out* staged = reinterpret_cast<Out*>(smem);
#pragma unroll
  for (int t = 0; t < kQ / 8; ++t) {
    *reinterpret_cast<Pair*>(staged + row * kOutPitch + 8 * t + col) = pack(acc[t][0] * scale, acc[t][1] * scale);
    *reinterpret_cast<Pair*>(staged + (row + 8) * kOutPitch + 8 * t + col) = pack(acc[t][2] * scale, acc[t][3] * scale);
  }
  __syncthreads();
  Out* out = static_cast<Out*>(a.scores) + cta * (kQ * kQ);
#pragma unroll
  for (int i = threadIdx.x; i < kQ * kQ / 8; i += kChunkScoresThreads) {
    const int r = i / (kQ / 8), c = i % (kQ / 8) * 8;
    *reinterpret_cast<uint4*>(out + r * kQ + c) = *reinterpret_cast<const uint4*>(staged + r * kOutPitch + c);
  }
  if (threadIdx.x == 0) a.inv_scales[cta] = 1.f / scale;  // (a power of two: exact)
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

// Out: fp16 (scaled tiles) or bf16 (unscaled), SsdFwdSm90::CudaScoreElement.
template <class T, int kN, class Out>
void launch_chunk_scores(const ChunkScoresArgs& a, cudaStream_t stream, bool after_previous = false) {
  const int64_t ctas = int64_t(a.batch) * a.groups * ((a.seqlen + kChunkScoresQ - 1) / kChunkScoresQ);
  if (ctas > int64_t(INT32_MAX))
    throw std::invalid_argument("flashssd sm90 forward: batch x groups x ceil(T / 64) exceeds 2^31 - 1 tiles");
  if (ctas == 0) return;
  launch_in_chain(chunk_scores_kernel<T, kN, Out>, dim3(static_cast<unsigned>(ctas)), dim3(kChunkScoresThreads), 0, stream,
                  after_previous, "chunk scores launch", a);
}

}  // namespace flashssd::sm90
