// The decay mask L_ij = exp(a_{j+1} + ... + a_i) (i >= j, else 0) of one
// compute tile, applied in registers to the mma accumulator fragment of C B^T,
// three ways (DESIGN.md section 4), selected by a template parameter:
//
//   kDiff          L_ij = exp(cs_i - cs_j) from one running cumsum. Fast, but the
//                  subtraction cancels: entries > 1 and non-monotone rows appear on
//                  adversarial decays. Kept to measure exactly that.
//   kDirect        L_ij = exp(sum a_{j+1..i}) summed per element. Stable, slow.
//   kHierarchical  the tile is cut into blocks of kBlock = 8 rows/columns: the 8
//                  rows a thread-quad's accumulator registers span in the m16n8
//                  layout, and exactly one n-tile of columns.
//                  Diagonal blocks: direct sums of at most 7 terms.
//                  Off-diagonal block (I, J), J < I, is rank one:
//                  L_ij = u_i * (v_j * E_{J+1} * ... * E_{I-1}), u_i = exp(in-block
//                  prefix up to i), v_j = exp(in-block suffix after j), E_K =
//                  exp(total of block K). Every sum has one sign and every factor
//                  is in (0, 1]: no cancellation, no entry > 1, monotone rows.
//
// The same rules are emulated in float32 on the CPU by tests/stability (CI).
// prepare_tile_decay() computes the per-token factors (and the hierarchical
// variant's diagonal blocks) once per tile into shared memory with all 2 kQ
// threads of the CTA; apply_decay_mask() then works on one warp's fragment with
// one or two multiplies per element.
#pragma once

#include "flashssd/flashssd.h"
#include "kernels/common/mma_sm80.cuh"

namespace flashssd::sm80 {

template <int kQ>
struct TileDecay {
  static constexpr int kBlock = 8;
  static constexpr int kNumBlocks = kQ / kBlock;
  alignas(16) float a[kQ];  // log-decay a_t = dt_t * A (<= 0); 0 past the tile's length
  float dt[kQ];       // processed dt; 0 past the tile's length
  float readout[kQ];  // exp(cs_i): decay of the incoming state up to token i
  float to_end[kQ];   // dt_j * exp(a_{j+1} + ... + a_{Q-1}): weight of token j in the outgoing state
  float cs[kQ];       // diff: tile cumsum
  float u[kQ];        // hierarchical: exp(in-block inclusive prefix)
  float chain_dt[kNumBlocks][kQ];  // hierarchical: G(I, j) * dt_j, G(I, j) = v_j E_{J+1} ... E_{I-1}, I > J
  float block_total[kNumBlocks];
  float block_decay[kNumBlocks];   // hierarchical: E_K = exp(T_K)
  alignas(8) float diag_dt[kQ][kBlock];  // hierarchical: L_ij dt_j inside row i's diagonal block (0 for j > i)
  float total_decay;  // exp(sum of all a in the tile)
};

// Called by all 2 kQ threads of the CTA. Role 0 (threads 0 .. kQ-1, one token
// each, given the token's a and dt; zeros past the tile's length) does the scans
// and per-token factors; role 1 (threads kQ .. 2 kQ - 1), otherwise idle here,
// precomputes the hierarchical variant's diagonal blocks for row tid - kQ.
// Returns the token's state-update weight dt_j * exp(a_{j+1..Q-1}) on role 0.
// The caller synchronises the 2 kQ threads afterwards.
//
// Rounding rules (tests/stability emulates exactly these; they make the
// hierarchical mask monotone and <= 1 by construction):
//  - direct/hierarchical in-block sums are ascending sums starting from 0; the
//    block total T_K is bitwise the block's last prefix;
//  - sums of block totals are ascending from 0;
//  - off-diagonal blocks use the column chain G(I, j) = v_j * E_{J+1} * ... * E_{I-1},
//    multiplied one factor at a time, with u, v and E_K = exp(T_K) all from fast_exp;
//  - diagonal blocks: exp of the ascending sum a_{j+1} + ... + a_i;
//  - diff uses a Hillis-Steele (parallel) in-block scan, like Triton's tl.cumsum.
// Synchronises the 2 kQ threads that call prepare_tile_decay: the whole CTA by default;
// the Hopper kernel passes a named barrier of its producer warpgroup.
struct CtaSync {
  __device__ __forceinline__ void operator()() const { __syncthreads(); }
};

// prepare_tile_decays: the same for kHeads heads of one tile at once (td[0 .. kHeads - 1],
// one a and dt per head and thread; w[h] receives the weights): the heads share the two
// synchronisations and their independent chains interleave (the Hopper kernel's producer
// prepares two heads per stage). Each head's arithmetic is exactly the one-head version's.
// kWeightsOnly (hierarchical): only what a state update reads (w, total_decay): no mask
// factors (diagonal blocks, chains, u, readout); w is computed exactly as without it.
template <SegsumVariant kVariant, int kQ, int kHeads, bool kWeightsOnly = false, class Sync = CtaSync>
__device__ __forceinline__ void prepare_tile_decays(TileDecay<kQ>* td, int tid, const float (&a)[kHeads],
                                                    const float (&dt)[kHeads], float (&w)[kHeads], Sync sync = {}) {
  constexpr int kBlock = TileDecay<kQ>::kBlock;
  constexpr int kNB = TileDecay<kQ>::kNumBlocks;
  const int t = tid % kQ;
  const int lane8 = t % kBlock;
  const int blk = t / kBlock;
  const int first = blk * kBlock, last = first + kBlock - 1;

  if (tid < kQ) {
#pragma unroll
    for (int h = 0; h < kHeads; ++h) {
      td[h].a[t] = a[h];
      td[h].dt[t] = dt[h];
    }
  }
  static_assert(2 * kQ == 128, "both roles are the whole CTA");
  sync();  // a, dt visible to both roles

  float prefix[kHeads], suffix[kHeads];  // role 0: in-block inclusive prefix, exclusive suffix
#pragma unroll
  for (int h = 0; h < kHeads; ++h) {
    prefix[h] = a[h];
    suffix[h] = 0.f;
  }
  static_assert(!kWeightsOnly || kVariant == SegsumVariant::kHierarchical, "weights-only is hierarchical");
  if (tid >= kQ) {  // role 1: diagonal blocks (hierarchical only)
    if constexpr (kVariant == SegsumVariant::kHierarchical && !kWeightsOnly) {
      const int ii = lane8;
#pragma unroll
      for (int h = 0; h < kHeads; ++h) {
#pragma unroll
        for (int jj = 0; jj < kBlock; ++jj) {
          float sum = 0.f;
#pragma unroll
          for (int k = 1; k < kBlock; ++k)
            if (k > jj && k <= ii) sum += td[h].a[first + k];
          td[h].diag_dt[t][jj] = (jj <= ii) ? fast_exp(sum) * td[h].dt[first + jj] : 0.f;
        }
      }
    }
  } else {
#pragma unroll
    for (int h = 0; h < kHeads; ++h) {
      if constexpr (kVariant == SegsumVariant::kDiff) {
#pragma unroll
        for (int off = 1; off < kBlock; off <<= 1) {
          const float up = __shfl_up_sync(0xffffffffu, prefix[h], off, kBlock);
          if (lane8 >= off) prefix[h] += up;
        }
      } else {
        prefix[h] = 0.f;
#pragma unroll
        for (int k = 0; k < kBlock; ++k) {
          const float ak = td[h].a[first + k];
          if (first + k <= t) prefix[h] += ak;
          if (first + k > t) suffix[h] += ak;
        }
      }
      if (t == last) {
        td[h].block_total[blk] = prefix[h];
        if constexpr (kVariant == SegsumVariant::kHierarchical) td[h].block_decay[blk] = fast_exp(prefix[h]);
      }
    }
  }
  sync();  // block totals visible
#pragma unroll
  for (int h = 0; h < kHeads; ++h) w[h] = 0.f;
  if (tid >= kQ) return;

#pragma unroll
  for (int h = 0; h < kHeads; ++h) {
    float before = 0.f, all = 0.f;
#pragma unroll
    for (int k = 0; k < kNB; ++k) {
      if (k < blk) before += td[h].block_total[k];
      all += td[h].block_total[k];
    }
    const float cs = before + prefix[h];
    if constexpr (!kWeightsOnly) td[h].readout[t] = fast_exp(cs);
    if (t == 0) td[h].total_decay = fast_exp(all);

    float to_end;
    if constexpr (kVariant == SegsumVariant::kDiff) {
      td[h].cs[t] = cs;
      to_end = fast_exp(all - cs);  // the prefix subtraction this variant is known for
    } else if constexpr (kVariant == SegsumVariant::kDirect) {
      float sum = 0.f;
      for (int k = t + 1; k < kQ; ++k) sum += td[h].a[k];
      to_end = fast_exp(sum);
    } else {
      if constexpr (!kWeightsOnly) td[h].u[t] = fast_exp(prefix[h]);
      float g = fast_exp(suffix[h]);  // v_t
#pragma unroll
      for (int I = 0; I < kNB; ++I) {
        if (I > blk) {
          if constexpr (!kWeightsOnly) td[h].chain_dt[I][t] = g * dt[h];
          g *= td[h].block_decay[I];  // E_I
        }
      }
      to_end = g;  // the chain continued to the tile end
    }
    td[h].to_end[t] = dt[h] * to_end;
    w[h] = dt[h] * to_end;
  }
}

// One head (the sm80 kernel, the segsum probe).
template <SegsumVariant kVariant, int kQ, class Sync = CtaSync>
__device__ __forceinline__ float prepare_tile_decay(TileDecay<kQ>& td, int tid, float a, float dt, Sync sync = {}) {
  float w[1];
  prepare_tile_decays<kVariant, kQ, 1>(&td, tid, {a}, {dt}, w, sync);
  return w[0];
}

// Masks one warp's accumulator fragment of S = C B^T in place:
// S_ij <- S_ij * L_ij * dt_j, zero above the diagonal. The warp owns rows
// 16 warp .. 16 warp + 15; fragment element (nt, r) is row 16 warp + g + 8 (r / 2),
// column 8 nt + 2 q + r % 2 (g = lane / 4, q = lane % 4). N-tiles right of the
// warp's diagonal are left untouched: the caller never reads them.
template <SegsumVariant kVariant, int kQ>
__device__ __forceinline__ void apply_decay_mask(float (&s)[kQ / 8][4], const TileDecay<kQ>& td,
                                                 int warp, int lane) {
  const int g = lane / 4, q = lane % 4;
#pragma unroll
  for (int nt = 0; nt < kQ / 8; ++nt) {
    if (nt > 2 * warp + 1) continue;  // above the diagonal for both row halves
    const int j0 = 8 * nt + 2 * q;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int I = 2 * warp + half;  // row block (8 rows) of this half
      const int i = 8 * I + g;
      float L0, L1;  // L_{i, j0} * dt_{j0}, L_{i, j0+1} * dt_{j0+1}
      if (nt > I) {
        L0 = L1 = 0.f;
      } else if constexpr (kVariant == SegsumVariant::kDiff) {
        const float ci = td.cs[i];
        L0 = (j0 <= i) ? fast_exp(ci - td.cs[j0]) * td.dt[j0] : 0.f;
        L1 = (j0 + 1 <= i) ? fast_exp(ci - td.cs[j0 + 1]) * td.dt[j0 + 1] : 0.f;
      } else if constexpr (kVariant == SegsumVariant::kDirect) {
        float s0 = 0.f, s1 = 0.f;
        for (int k = j0 + 1; k <= i; ++k) s0 += td.a[k];
        for (int k = j0 + 2; k <= i; ++k) s1 += td.a[k];
        L0 = (j0 <= i) ? fast_exp(s0) * td.dt[j0] : 0.f;
        L1 = (j0 + 1 <= i) ? fast_exp(s1) * td.dt[j0 + 1] : 0.f;
      } else {
        if (nt < I) {  // rank-one block: L_ij dt_j = u_i * (G(I, j) dt_j)
          const float ui = td.u[i];
          const float2 gd = *reinterpret_cast<const float2*>(&td.chain_dt[I][j0]);
          L0 = ui * gd.x;
          L1 = ui * gd.y;
        } else {  // diagonal block: precomputed by prepare_tile_decay
          const float2 ld = *reinterpret_cast<const float2*>(&td.diag_dt[i][2 * q]);
          L0 = ld.x;
          L1 = ld.y;
        }
      }
      s[nt][2 * half] *= L0;
      s[nt][2 * half + 1] *= L1;
    }
  }
}

}  // namespace flashssd::sm80
