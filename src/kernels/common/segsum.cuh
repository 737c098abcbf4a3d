// The decay mask L_ij = exp(a_{j+1} + ... + a_i) (i >= j, else 0) of one
// compute tile, applied in registers to the mma accumulator fragment of C B^T,
// three ways (DESIGN.md section 4), selected by a template parameter:
//
//   kDiff          L_ij = exp(cs_i - cs_j) from one running cumsum. Fast, but the
//                  subtraction cancels: entries > 1 and non-monotone rows appear on
//                  adversarial decays. Kept to measure exactly that.
//   kDirect        L_ij = exp(sum a_{j+1..i}) summed per element. Stable, slow.
//   kHierarchical  the tile is cut into blocks of kBlock rows (one warp's 16 rows).
//                  Diagonal blocks: direct sums of at most kBlock - 1 terms.
//                  Off-diagonal block (I, J), J < I, is rank one:
//                  L_ij = u_i * w_IJ * v_j, u_i = exp(in-block prefix up to i),
//                  v_j = exp(in-block suffix after j), w_IJ = exp(block totals
//                  strictly between J and I). Every sum has one sign and every
//                  factor is in (0, 1]: no cancellation, no entry > 1, monotone rows.
//
// The same rules are emulated in float32 on the CPU by tests/stability (CI).
// Per-token factors are prepared once per tile by prepare_tile_decay() into
// shared memory; apply_decay_mask() then works on one warp's fragment.
#pragma once

#include "flashssd/flashssd.h"

namespace flashssd::sm80 {

template <int kQ>
struct TileDecay {
  static constexpr int kBlock = 16;               // rows per warp in the mma layout
  static constexpr int kNumBlocks = kQ / kBlock;
  float a[kQ];        // log-decay a_t = dt_t * A (<= 0); 0 past the tile's length
  float dt[kQ];       // processed dt; 0 past the tile's length
  float cs[kQ];       // inclusive cumsum over the tile (one sign: no cancellation)
  float readout[kQ];  // exp(cs_i): decay of the incoming state up to token i
  float to_end[kQ];   // dt_j * exp(a_{j+1} + ... + a_{Q-1}): weight of token j in the outgoing state
  float u[kQ];        // hierarchical: exp(in-block inclusive prefix)
  float v[kQ];        // hierarchical: exp(in-block exclusive suffix)
  float w[kNumBlocks][kNumBlocks];  // hierarchical: exp(sum of block totals strictly between)
  float total_decay;  // exp(sum of all a in the tile)
};

// Called by the first kQ threads (tokens) of the CTA with each token's a and dt
// (zeros past the tile's length). Writes the per-token factors. The caller
// synchronises the CTA afterwards. Lanes of one 16-token block are 16 lanes of
// one warp, so in-block scans are shuffles.
template <SegsumVariant kVariant, int kQ>
__device__ __forceinline__ void prepare_tile_decay(TileDecay<kQ>& td, int t, float a, float dt,
                                                   float* block_total_scratch) {
  constexpr int kBlock = TileDecay<kQ>::kBlock;
  constexpr int kNB = TileDecay<kQ>::kNumBlocks;
  const int lane16 = t % kBlock;
  const int blk = t / kBlock;
  const unsigned full = 0xffffffffu;

  // In-block inclusive prefix (Hillis-Steele; every partial sum has one sign).
  float prefix = a;
#pragma unroll
  for (int off = 1; off < kBlock; off <<= 1) {
    float o = __shfl_up_sync(full, prefix, off, kBlock);
    if (lane16 >= off) prefix += o;
  }
  // In-block inclusive suffix, then shift by one lane to make it exclusive
  // (no subtraction anywhere).
  float suffix_incl = a;
#pragma unroll
  for (int off = 1; off < kBlock; off <<= 1) {
    float o = __shfl_down_sync(full, suffix_incl, off, kBlock);
    if (lane16 + off < kBlock) suffix_incl += o;
  }
  float suffix_excl = __shfl_down_sync(full, suffix_incl, 1, kBlock);
  if (lane16 == kBlock - 1) suffix_excl = 0.f;
  if (lane16 == kBlock - 1) block_total_scratch[blk] = prefix;
  td.a[t] = a;
  td.dt[t] = dt;
  // Block totals are exchanged through shared memory by the kQ token threads
  // only (warps 0 .. kQ/32-1): a named barrier for exactly those threads.
  asm volatile("bar.sync 1, %0;\n" ::"n"(kQ));

  float before = 0.f;  // sum of block totals before this token's block
  float after = 0.f;   // sum of block totals after it
#pragma unroll
  for (int k = 0; k < kNB; ++k) {
    const float tot = block_total_scratch[k];
    if (k < blk) before += tot;
    if (k > blk) after += tot;
  }
  float all = 0.f;
#pragma unroll
  for (int k = 0; k < kNB; ++k) all += block_total_scratch[k];

  const float cs = before + prefix;
  td.cs[t] = cs;
  td.readout[t] = __expf(cs);
  if (t == 0) td.total_decay = __expf(all);

  float to_end;
  if constexpr (kVariant == SegsumVariant::kDiff) {
    to_end = __expf(all - cs);  // the prefix subtraction this variant is known for
  } else if constexpr (kVariant == SegsumVariant::kDirect) {
    // a_{j+1..Q-1} summed in order, through shared memory written above.
    float s = 0.f;
    for (int k = t + 1; k < kQ; ++k) s += td.a[k];
    to_end = __expf(s);
  } else {
    to_end = __expf(suffix_excl) * __expf(after);
  }
  td.to_end[t] = dt * to_end;
  td.u[t] = __expf(prefix);
  td.v[t] = __expf(suffix_excl);
  if (t < kNB * kNB) {
    const int I = t / kNB, J = t % kNB;
    float between = 0.f;
    for (int k = J + 1; k < I; ++k) between += block_total_scratch[k];
    td.w[I][J] = (J < I) ? __expf(between) : 0.f;
  }
}

// Masks one warp's accumulator fragment of S = C B^T (rows 16*warp .. +15 of the
// tile, all kQ columns as kQ/8 n-tiles of 8) in place: S_ij <- S_ij * L_ij * dt_j,
// zero above the diagonal. Fragment element (nt, r): row 16*warp + g + 8*(r/2),
// column 8*nt + 2*q + r%2 (g = lane / 4, q = lane % 4).
template <SegsumVariant kVariant, int kQ>
__device__ __forceinline__ void apply_decay_mask(float (&s)[kQ / 8][4], const TileDecay<kQ>& td,
                                                 int warp, int lane) {
  constexpr int kBlock = TileDecay<kQ>::kBlock;
  const int g = lane / 4, q = lane % 4;
  const int row_base = warp * kBlock;

  // In-block log-decays of this warp's block, for the diagonal-block direct sums.
  float blk_a[kBlock];
#pragma unroll
  for (int k = 0; k < kBlock; ++k) blk_a[k] = td.a[row_base + k];

#pragma unroll
  for (int nt = 0; nt < kQ / 8; ++nt) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int ii = g + 8 * (r / 2);           // row within the warp's block
      const int i = row_base + ii;
      const int j = 8 * nt + 2 * q + (r % 2);
      const int J = j / kBlock;
      float L;
      if (j > i) {
        L = 0.f;
      } else if constexpr (kVariant == SegsumVariant::kDiff) {
        L = __expf(td.cs[i] - td.cs[j]);
      } else if constexpr (kVariant == SegsumVariant::kDirect) {
        float sum = 0.f;
        for (int k = j + 1; k <= i; ++k) sum += td.a[k];
        L = __expf(sum);
      } else {
        if (J == warp) {  // diagonal block: direct sum of at most kBlock - 1 terms
          const int jj = j - row_base;
          float sum = 0.f;
#pragma unroll
          for (int k = 1; k < kBlock; ++k)
            if (k > jj && k <= ii) sum += blk_a[k];
          L = __expf(sum);
        } else {  // rank-one off-diagonal block
          L = td.u[i] * td.w[warp][J] * td.v[j];
        }
      }
      s[nt][r] = (j > i) ? 0.f : s[nt][r] * L * td.dt[j];
    }
  }
}

}  // namespace flashssd::sm80
