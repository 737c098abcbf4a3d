// Register-fragment helpers of the Hopper forward's consumers: which score rows a warp
// holds, the decay mask on a score accumulator, an accumulator register's (row, column),
// ldmatrix / stmatrix addressing of the transposed tiles, the tokens' weights on x's
// registers; and the check of the fragment-layout facts all of them rely on.
#pragma once

#include <cute/tensor.hpp>

#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/segsum.cuh"

namespace flashssd::sm90 {

using namespace cute;

// The 8-row blocks of the score tile (token rows) that warp w's two accumulator-order halves
// hold (registers i with (i / 2) % 2 == half). Scores from an SS WGMMA accumulator
// (scores_sm90.cuh) have the m16n8 rows, blocks 2 w and 2 w + 1 (kBalanced = false). The
// forward's chunk scores come from shared memory, S' goes back there, and at N = 64 it reads
// C, S's A operand, into registers by ldmatrix, so there any rows will do: blocks w and 7 - w
// (kBalanced), so that each warp masks w + 1 + 8 - w = 9 of the causal (block, n-tile) pairs;
// with 2 w and 2 w + 1 warp 3 masked 15 of the 36, and the warpgroup's WGMMA and barrier waited
// for it.
template <int kQ, bool kBalanced>
struct ScoreRows {
  static constexpr int kBlocks = kQ / 8;
  static constexpr CUTE_HOST_DEVICE int block(int warp, int half) { return kBalanced ? (half ? kBlocks - 1 - warp : warp) : 2 * warp + half; }
  // Row of accumulator pair (g, half) of the warp, and the ldmatrix / stmatrix row of a lane
  // (matrices 0 and 2 hold half 0, 1 and 3 half 1: MatrixRows below).
  static CUTE_HOST_DEVICE int pair_row(int warp, int g, int half) { return 8 * block(warp, half) + g; }
  static CUTE_HOST_DEVICE int row(int warp, int lane) { return pair_row(warp, lane % 8, lane / 8 % 2); }
  static CUTE_HOST_DEVICE int col(int lane, int j) { return 8 * (2 * j + lane / 16); }
  // The warp's last row block (half 1's in both maps) and the 16-column groups j its rows
  // reach (causal): 2 j <= that block.
  static constexpr CUTE_HOST_DEVICE int last_block(int warp) { return block(warp, 1); }
  static CUTE_HOST_DEVICE bool reaches(int warp, int j) { return 2 * j <= last_block(warp); }
};

// Calls f(Int<warp>{}) for the warp (0 .. 3) of the warpgroup: f's code is compiled once per
// warp, its branch is warp-uniform, and whatever f derives from the warp index is a constant.
template <class F>
__device__ __forceinline__ void with_warp_constant(int warp, F&& f) {
  switch (warp) {
    case 0: f(Int<0>{}); break;
    case 1: f(Int<1>{}); break;
    case 2: f(Int<2>{}); break;
    default: f(Int<3>{}); break;
  }
}

// S' = S o L o dt on a 64 x 64 score tile in the accumulator order (tid: thread of the
// warpgroup; rows as ScoreRows<kQ, true> gives them: balanced), with segsum.cuh's mask
// (fragment_layout_mismatches below checks the order of a WGMMA accumulator). The mask leaves
// the n-tiles right of a warp's diagonal untouched (the sm80 kernel never reads them); X^T S'^T
// reads all 64 columns, so they are zeroed here, unless kChunkScores: acc holds the chunk
// scores S / scale, whose entries right of the diagonal are zero already (load_scores does not
// read the groups no row reaches, and chunk_scores_kernel stores the others' as zero), so the
// mask skips them and no select is needed.
// kPerWarp: the mask's code is compiled per warp (with_warp_constant), so that the warp's row
// blocks are constants: which n-tiles are rank-one, diagonal or zero is then known at compile
// time, where with the warp index at run time every n-tile takes compares, predicated loads and
// multiplies of both kinds, and branches (the forward's kMaskPerWarp has the measurements).
// kBalanced: acc's rows are ScoreRows' balanced ones (the forward's S); false: an SS WGMMA
// accumulator's m16n8 rows (scores_sm90.cuh's probe of this mask).
template <int kQ, bool kChunkScores = false, bool kPerWarp = false, bool kBalanced = true, class Acc, bool kAll>
__device__ __forceinline__ void mask_scores(Acc& acc, const sm80::TileDecay<kQ, kAll>& decay, int tid, float scale = 1.f) {
  static_assert(decltype(size(acc))::value == kQ / 8 * 4, "32 accumulators per thread");
  using Rows = ScoreRows<kQ, kBalanced>;
  auto mask_warp = [&](auto warp) {  // int, or Int<w>: a constant
    float frag[kQ / 8][4];
    CUTE_UNROLL
    for (int i = 0; i < kQ / 8 * 4; ++i) frag[i / 4][i % 4] = acc(i);
    const int row_block[2] = {Rows::block(warp, 0), Rows::block(warp, 1)};
    sm80::apply_decay_mask_rows<SegsumVariant::kHierarchical, kQ, kChunkScores, kChunkScores>(frag, decay, row_block, tid % 32, scale);
    CUTE_UNROLL
    for (int i = 0; i < kQ / 8 * 4; ++i) acc(i) = (!kChunkScores && i / 4 > Rows::last_block(warp)) ? 0.f : frag[i / 4][i % 4];
  };
  if constexpr (kPerWarp) with_warp_constant(tid / 32, mask_warp);
  else mask_warp(tid / 32);
}

// Register i of a 64-row WGMMA accumulator of thread tid of its warpgroup: row
// 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 q + i % 2 (the m16n8 order per warp).
struct AccCoord {
  int warp, g, q;
  __device__ __forceinline__ explicit AccCoord(int tid) : warp(tid / 32), g(tid % 32 / 4), q(tid % 4) {}
  __device__ __forceinline__ int row(int i) const { return 16 * warp + g + 8 * ((i / 2) % 2); }
  __device__ __forceinline__ int col(int i) const { return 8 * (i / 4) + 2 * q + i % 2; }
};

// ldmatrix / stmatrix .x4 move a warp's accumulator-ordered bf16 pairs 16 columns at a time
// (one instruction for four pairs per thread, where 4-byte LDS/STS take four): register m of
// group j holds pair 4 j + m of the accumulator order (AccCoord): row g + 8 (m % 2) of the
// warp's 16, columns 8 (2 j + m / 2) + 2 q, + 1. Lane l gives the address of the 16-byte row
// l % 8 of matrix l / 8; ScoreRows above gives its (row, column) in S and S' (the rows of
// the warp's two halves: any 8-row blocks). tests/cpu checks that composing them with
// scores_offset puts every pair where the 4-byte accesses did, and that the .trans forms with
// x_offset / y_offset do for the (p, token) registers of x, z and y.
struct MatrixRows {
  // ldmatrix.x4.trans reads the same pairs of an operand stored transposed (its columns are
  // the 16-byte memory rows): lane l names operand column trans_col (a memory row) holding
  // operand rows trans_row .. + 7; register m of group j then holds the same (row, column)
  // pair as above. tests/cpu checks it for x read as (X diag w)^T.
  static CUTE_HOST_DEVICE int trans_row(int warp, int lane) { return 16 * warp + 8 * (lane / 8 % 2); }
  static CUTE_HOST_DEVICE int trans_col(int lane, int j) { return 8 * (2 * j + lane / 16) + lane % 8; }
};
using sm80::ldmatrix_x4_trans;
using sm80::ldmatrix_x4;
using sm80::silu_fast;
using sm80::smem_addr;
using sm80::stmatrix_x4;
using sm80::stmatrix_x4_trans;

// (X diag(w))^T from x's registers, group j (four (p, token) pairs, MatrixRows' order): pairs
// m = 0, 1 hold tokens 16 j + 2 q, + 1 (weights w_lo), m = 2, 3 tokens 16 j + 8 + 2 q, + 1
// (w_hi). x(k) reads pair k of x, out(k) is where scaled pair k goes. The state update's A
// operand in both passes.
template <class ElementPair, class X, class Out>
__device__ __forceinline__ void scale_by_token_weights(int j, float2 w_lo, float2 w_hi, X&& x, Out&& out) {
  CUTE_UNROLL
  for (int m = 0; m < 4; ++m) {
    const float2 wm = m / 2 ? w_hi : w_lo;
    const float2 xv = ElementPair::unpack(x(4 * j + m));
    out(4 * j + m) = ElementPair::pack(wm.x * xv.x, wm.y * xv.y);
  }
}

// Counts, for thread tid of the warpgroup, violations of the fragment-layout facts the
// kernel relies on: every accumulator (S, Y^T of both Y GEMMs, the state) holds in register i
// row 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 q + i % 2 (the sm80 m16n8 order
// segsum.cuh expects), and every RS A operand (the state for h C^T, X^T for X^T S'^T,
// (X diag(w))^T for the state update) holds in register i the same (row, column): so the
// state's accumulator and x's ldmatrix.trans registers feed them element by element. Host
// and device: the CPU suite (tests/cpu/test_sm90_layouts.cu) checks every thread without a GPU.
template <class K>
CUTE_HOST_DEVICE int fragment_layout_mismatches(int tid) {
  const int warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
  auto row = [&](int i) { return 16 * warp + g + 8 * ((i / 2) % 2); };
  auto col = [&](int i) { return 8 * (i / 4) + 2 * q + i % 2; };
  int bad = 0;
  // Each coordinate tensor must have `expected` registers in the accumulator order.
  auto check = [&](const auto& coords, int expected) {
    bad += int(size(coords)) != expected;
    for (int i = 0; i < int(size(coords)); ++i) bad += (get<0>(coords(i)) != row(i)) + (get<1>(coords(i)) != col(i));
  };
  typename K::MmaS mma_s;
  typename K::MmaYState mma_ys;
  typename K::MmaH mma_h;
  using QQ = Shape<typename K::TQ, typename K::TQ>;
  using PQ = Shape<typename K::TP, typename K::TQ>;
  using PN = Shape<typename K::TP, typename K::TN>;
  check(mma_s.get_thread_slice(tid).partition_C(make_identity_tensor(QQ{})), K::kQ * K::kQ / 128);
  // The forward's S from C in registers (MmaScoresRs): the same accumulator order, and C's
  // registers (token, n) in it too, so ldmatrix's pairs feed the A operand as they land.
  typename K::MmaScoresRs mma_s_rs;
  check(mma_s_rs.get_thread_slice(tid).partition_C(make_identity_tensor(QQ{})), K::kQ * K::kQ / 128);
  check(mma_s_rs.get_thread_slice(tid).partition_A(make_identity_tensor(Shape<typename K::TQ, typename K::TN>{})),
        K::kQ * K::kN / 128);
  check(mma_ys.get_thread_slice(tid).partition_C(make_identity_tensor(PQ{})), K::kP * K::kQ / 128);
  // X^T S'^T's halves (MmaYScoresHalf): each is the first half of y's registers in this order.
  typename K::MmaYScoresHalf mma_yx_half;
  check(mma_yx_half.get_thread_slice(tid).partition_C(make_identity_tensor(Shape<typename K::TP, typename K::TQHalf>{})),
        K::kP * K::kQ / 256);
  check(mma_yx_half.get_thread_slice(tid).partition_A(make_identity_tensor(PQ{})), K::kP * K::kQ / 128);
  check(mma_h.get_thread_slice(tid).partition_C(make_identity_tensor(PN{})), K::kP * K::kN / 128);
  check(mma_ys.get_thread_slice(tid).partition_A(make_identity_tensor(PN{})), K::kP * K::kN / 128);
  check(mma_h.get_thread_slice(tid).partition_A(make_identity_tensor(PQ{})), K::kP * K::kQ / 128);
  return bad;
}

template <class K>
__global__ void ssd_fwd_sm90_layout_check(int* mismatches) {  // one warpgroup
  const int bad = fragment_layout_mismatches<K>(threadIdx.x);
  if (bad) atomicAdd(mismatches, bad);
}

}  // namespace flashssd::sm90
