// The chunk scores S = C B^T of every 64-token tile, once per (batch, group, tile), before
// the Hopper forward's main pass (ssd_fwd_sm90.cuh). Every head of a group masks the same
// S with its own decay; computed here once, the main pass loads it with the tile's x, B and C
// (8 KB per tile and CTA) instead of each consumer computing it (a 64 x 64 x N WGMMA reading
// 32 KB of shared memory per tile and head: the main pass's binding resource, HOPPER_PLAN).
//
// Output: (batch, groups, tiles, 64, 64) contiguous bf16, tiles = ceil(T / 64), row i
// (token i of the tile) by column j; tokens past T read as zero, so their rows and columns
// are zero. bf16 whatever the input type: fp32's range (an fp16 S could overflow where
// S o L o dt does not), the main pass converts it back to fp32 for the mask. mma.sync with
// fp32 accumulation: the pass moves 2 x 16 KB in and 8 KB out per tile (N = 128); its tensor
// work is small. Used at N = 128 and 256 (SsdFwdSm90::kChunkScores).
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/common/launch_util.h"
#include "kernels/common/operands_sm80.cuh"

namespace flashssd::sm90 {

struct ChunkScoresArgs {
  const void* B;  // (batch, T, groups, N), unit stride on N; strides in elements
  const void* C;
  int64_t b_sb, b_st, b_sg, c_sb, c_st, c_sg;
  int batch, seqlen, groups;
  __nv_bfloat16* scores;  // the output
};

constexpr int kChunkScoresQ = 64, kChunkScoresThreads = 128;

// One CTA per (batch, group, tile), linear in blockIdx.x (tile fastest); warp w computes rows
// 16 w .. 16 w + 15 of the 64 x 64 tile over N in slices of 64, the next slice loading while
// one is multiplied.
template <class T, int kN>
__global__ void __launch_bounds__(kChunkScoresThreads) chunk_scores_kernel(const ChunkScoresArgs a) {
  using Ops = sm80::HalfOperands<T>;
  constexpr int kQ = kChunkScoresQ, kSlice = 64, kPitch = kSlice + 8;  // (+8: conflict-free ldmatrix rows)
  static_assert(kN % kSlice == 0, "N in slices of 64");
  constexpr int kSlices = kN / kSlice, kBuffers = kSlices > 1 ? 2 : 1;
  __shared__ __align__(16) T c_tile[kBuffers][kQ * kPitch];
  __shared__ __align__(16) T b_tile[kBuffers][kQ * kPitch];
  const int tiles = (a.seqlen + kQ - 1) / kQ;
  const int64_t cta = blockIdx.x;
  const int tile = int(cta % tiles), g = int(cta / tiles % a.groups), b = int(cta / tiles / a.groups);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const T* C = static_cast<const T*>(a.C) + b * a.c_sb + g * a.c_sg;
  const T* B = static_cast<const T*>(a.B) + b * a.b_sb + g * a.b_sg;
  // Slice k (64 tokens x 64 n of C and of B, 16 bytes per cp.async, zero past T) into buffer
  // k % 2: the next slice is in flight while this one is multiplied.
  auto load_slice = [&](int k) {
    for (int i = threadIdx.x; i < kQ * kSlice / 8; i += kChunkScoresThreads) {
      const int row = i / (kSlice / 8), col = i % (kSlice / 8) * 8;
      const int tok = tile * kQ + row;
      const bool valid = tok < a.seqlen;
      const int64_t at = valid ? tok : 0;  // (a mapped address even when nothing is read)
      sm80::cp_async_16(&c_tile[k % kBuffers][row * kPitch + col], C + at * a.c_st + k * kSlice + col, valid);
      sm80::cp_async_16(&b_tile[k % kBuffers][row * kPitch + col], B + at * a.b_st + k * kSlice + col, valid);
    }
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
    const T* cs = c_tile[k % kBuffers];
    const T* bs = b_tile[k % kBuffers];
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
    __syncthreads();  // buffer k % 2 is refilled by slice k + 2
  }
  // The m16n8 accumulator order: (row g, columns 2 q, + 1) and row g + 8.
  __nv_bfloat16* out = a.scores + cta * (kQ * kQ);
  const int row = 16 * warp + lane / 4, col = 2 * (lane % 4);
#pragma unroll
  for (int t = 0; t < kQ / 8; ++t) {
    *reinterpret_cast<__nv_bfloat162*>(out + row * kQ + 8 * t + col) = __floats2bfloat162_rn(acc[t][0], acc[t][1]);
    *reinterpret_cast<__nv_bfloat162*>(out + (row + 8) * kQ + 8 * t + col) = __floats2bfloat162_rn(acc[t][2], acc[t][3]);
  }
}

// Elements of the output for a problem.
inline size_t chunk_scores_elements(int batch, int seqlen, int groups) {
  return size_t(batch) * groups * ((seqlen + kChunkScoresQ - 1) / kChunkScoresQ) * kChunkScoresQ * kChunkScoresQ;
}

template <class T, int kN>
void launch_chunk_scores(const ChunkScoresArgs& a, cudaStream_t stream) {
  const int64_t ctas = int64_t(a.batch) * a.groups * ((a.seqlen + kChunkScoresQ - 1) / kChunkScoresQ);
  if (ctas > int64_t(INT32_MAX))
    throw std::invalid_argument("flashssd sm90 forward: batch x groups x ceil(T / 64) exceeds 2^31 - 1 tiles");
  if (ctas == 0) return;
  chunk_scores_kernel<T, kN><<<static_cast<unsigned>(ctas), kChunkScoresThreads, 0, stream>>>(a);
  check_cuda(cudaGetLastError(), "chunk scores launch");
}

}  // namespace flashssd::sm90
