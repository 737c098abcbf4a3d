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

#include <type_traits>

#include "flashssd/flashssd.h"
#include "kernels/common/mma_sm80.cuh"

namespace flashssd::sm80 {

// kAllFields = false: without to_end (read by the sm80 probe only) and cs (the diff variant's),
// a record 504 bytes smaller (the Hopper kernel's N = 64 stages: sessions 28-29).
template <int kQ, bool kAllFields = true>
struct TileDecay {
  static constexpr int kBlock = 8;
  static constexpr int kNumBlocks = kQ / kBlock;
  alignas(16) float a[kQ];  // log-decay a_t = dt_t * A (<= 0); 0 past the tile's length
  alignas(16) float dt[kQ];  // processed dt; 0 past the tile's length
  float readout[kQ];  // exp(cs_i): decay of the incoming state up to token i
  float to_end[kAllFields ? kQ : 1];   // dt_j * exp(a_{j+1} + ... + a_{Q-1}): weight of token j in the outgoing state
  float cs[kAllFields ? kQ : 1];       // diff: tile cumsum
  float u[kQ];        // hierarchical: exp(in-block inclusive prefix)
  float chain_dt[kNumBlocks][kQ];  // hierarchical: G(I, j) * dt_j, G(I, j) = v_j E_{J+1} ... E_{I-1}, I > J
  float block_total[kNumBlocks];
  alignas(16) float block_decay[kNumBlocks];   // hierarchical: E_K = exp(T_K)
  alignas(16) float diag_dt[kQ][kBlock];  // hierarchical: L_ij dt_j inside row i's diagonal block (0 for j > i)
  float total_decay;  // exp(sum of all a in the tile)
  // (The Hopper forward's factored tiles: the multiplier of h C^T before the intra-tile GEMM,
  // 0 for a tile in the exact form; ssd_fwd_sm90.cuh, kFactoredScores.)
  float factored_scale;
};

// Called by all 2 kQ threads of the CTA. Role 0 (threads 0 .. kQ-1, one token
// each, given the token's a and dt; zeros past the tile's length) does the scans
// and per-token factors; role 1 (threads kQ .. 2 kQ - 1), otherwise idle here,
// precomputes the hierarchical variant's diagonal blocks, column tid - kQ.
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

namespace detail {

// kN floats from 16-byte-aligned shared memory in 128-bit loads.
template <int kN>
__device__ __forceinline__ void load_floats(const float* p, float (&v)[kN]) {
  static_assert(kN % 4 == 0, "whole float4s");
#pragma unroll
  for (int k = 0; k < kN; k += 4) {
    const float4 f = *reinterpret_cast<const float4*>(p + k);
    v[k] = f.x; v[k + 1] = f.y; v[k + 2] = f.z; v[k + 3] = f.w;
  }
}

// Token t's in-block inclusive prefix and exclusive suffix of a (td.a visible), and, on a
// block's last token, the block's total (and, hierarchical, its decay E_K).
template <SegsumVariant kVariant, int kQ, bool kAll>
__device__ __forceinline__ void scan_in_block(TileDecay<kQ, kAll>& td, int t, float a, float& prefix, float& suffix) {
  constexpr int kBlock = TileDecay<kQ>::kBlock;
  const int lane8 = t % kBlock, blk = t / kBlock;
  const int first = blk * kBlock, last = first + kBlock - 1;
  prefix = a;
  suffix = 0.f;
  if constexpr (kVariant == SegsumVariant::kDiff) {
#pragma unroll
    for (int off = 1; off < kBlock; off <<= 1) {  // 8 consecutive lanes hold one block
      const float up = __shfl_up_sync(0xffffffffu, prefix, off, kBlock);
      if (lane8 >= off) prefix += up;
    }
  } else {
    prefix = 0.f;
#pragma unroll
    for (int k = 0; k < kBlock; ++k) {
      const float ak = td.a[first + k];
      if (first + k <= t) prefix += ak;
      if (first + k > t) suffix += ak;
    }
  }
  if (t == last) {
    td.block_total[blk] = prefix;
    if constexpr (kVariant == SegsumVariant::kHierarchical) td.block_decay[blk] = fast_exp(prefix);
  }
}

// Hierarchical: column t of its diagonal block, L_ij dt_j for the block's rows i (0 above
// the diagonal; td.a visible, dt = this column's processed dt). Down a column the sum
// a_{j+1} + ... + a_i grows one ascending term per row, so each entry rounds exactly as the
// rules above say (the ascending sum from 0) while the column shares its
// partial sums: 7 adds per thread instead of the 28 a row needs (each of its entries starts
// its sum elsewhere). Its scalar stores are 4-way bank conflicted: a warp's four blocks, 256
// bytes apart, store the same row i at once (a pad row after each block would remove it:
// probe, session 14 call 7, the two-head form between the barriers 0.527 -> 0.510 ms; rows:
// 0.488). Every form computes its diagonal blocks this way: the one-head form (role 1: the
// sm80 kernel, the Hopper kernel at N = 256; probe, session 14 call 2: N = 256 0.827 -> 0.791
// ms; sm80 R1 8k 1.617 -> 1.592) and the two-head form of the Hopper producer
// (prepare_tile_decay_pair). A row form (diagonal_block_row, 8741570's segsum.cuh: two
// float4 stores per row, 28 adds) was faster in the producer's plain loop only while the dt
// prefetch's wait sat inside it (session 14: 0.490 vs 0.498 ms; session 15 call 5, after the
// wait moved: 0.495 vs 0.475), and was removed.
template <int kQ, bool kAll>
__device__ __forceinline__ void diagonal_block_column(TileDecay<kQ, kAll>& td, int t, float dt) {
  constexpr int kBlock = TileDecay<kQ>::kBlock;
  static_assert(kBlock == 8, "two float4 of a per block");
  const int jj = t % kBlock, first = t - jj;
  float a[kBlock];
  load_floats(&td.a[first], a);
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < kBlock; ++i) {
    if (i > jj) sum += a[i];
    td.diag_dt[first + i][jj] = (i >= jj) ? fast_exp(sum) * dt : 0.f;
  }
}

// Token t's factors once every block total is visible; returns its state-update weight
// dt_t exp(a_{t+1..Q-1}). readout_scale multiplies the readout factors, and *total (when
// given) gets the tile's total decay on every thread (the Hopper main pass's state fold,
// ssd_fwd_sm90.cuh). kHoistDecays: the block decays
// E_I are read before the chain, two 128-bit loads, instead of each after the previous
// chain_dt store (which the compiler cannot move it above: it may alias), so the chain's
// multiplies do not each wait for a load (the Hopper producer's pair form; in the one-head
// form they spill its N = 256 state pass).
// Whether a tile's record needs the mask's fields (u, chain_dt, diag_dt), decided from its
// total decay: by default always (the Hopper producer passes its factored form's test).
struct AlwaysMask {
  __device__ __forceinline__ bool operator()(float) const { return true; }
};

template <SegsumVariant kVariant, int kQ, bool kHoistDecays = false, bool kAll = true, class NeedsMask = AlwaysMask>
__device__ __forceinline__ float token_factors(TileDecay<kQ, kAll>& td, int t, float prefix, float suffix, float dt,
                                               float readout_scale, float* total, NeedsMask needs_mask = {},
                                               bool* mask_out = nullptr) {
  constexpr int kNB = TileDecay<kQ>::kNumBlocks;
  const int blk = t / TileDecay<kQ>::kBlock;
  float before = 0.f, all = 0.f;
#pragma unroll
  for (int k = 0; k < kNB; ++k) {
    if (k < blk) before += td.block_total[k];
    all += td.block_total[k];
  }
  const float cs = before + prefix;
  td.readout[t] = fast_exp(cs) * readout_scale;
  const float total_decay = fast_exp(all);
  if (t == 0) td.total_decay = total_decay;
  if (total) *total = total_decay;
  const bool mask = needs_mask(total_decay);
  if (mask_out) *mask_out = mask;

  float to_end;
  if constexpr (kVariant == SegsumVariant::kDiff) {
    static_assert(kAll, "the diff variant keeps cs");
    td.cs[t] = cs;
    to_end = fast_exp(all - cs);  // the prefix subtraction this variant is known for
  } else if constexpr (kVariant == SegsumVariant::kDirect) {
    float sum = 0.f;
    for (int k = t + 1; k < kQ; ++k) sum += td.a[k];
    to_end = fast_exp(sum);
  } else {
    // u and the chain's stores only where the record needs the mask's fields; the chain itself
    // runs either way (it gives the weight), in two copies, so that the test is one branch, not
    // one per store (session 70's fm: +16 BSSY / BRA pairs in the producer, its stages later, the
    // SM's rate 6.7% slower). With AlwaysMask the test folds away and u is written first, as
    // before the test existed (the order every other kernel's SASS was measured with).
    constexpr bool kAlwaysMask = std::is_same_v<NeedsMask, AlwaysMask>;
    if constexpr (kAlwaysMask) td.u[t] = fast_exp(prefix);
    float decays[kNB];
    if constexpr (kHoistDecays) load_floats(td.block_decay, decays);
    float g = fast_exp(suffix);  // v_t
    auto chain = [&](auto store_tag) {
#pragma unroll
      for (int I = 0; I < kNB; ++I) {
        if (I > blk) {
          if constexpr (decltype(store_tag)::value) td.chain_dt[I][t] = g * dt;
          if constexpr (kHoistDecays) g *= decays[I];  // E_I
          else g *= td.block_decay[I];
        }
      }
    };
    if (mask) {
      if constexpr (!kAlwaysMask) td.u[t] = fast_exp(prefix);
      chain(std::true_type{});
    } else {
      chain(std::false_type{});
    }
    to_end = g;  // the chain continued to the tile end
  }
  if constexpr (kAll) td.to_end[t] = dt * to_end;
  return dt * to_end;
}

}  // namespace detail

// (readout_scale, total: token_factors'; role 1 leaves *total alone.)
template <SegsumVariant kVariant, int kQ, bool kAll, class Sync = CtaSync>
__device__ __forceinline__ float prepare_tile_decay(TileDecay<kQ, kAll>& td, int tid, float a, float dt, Sync sync = {},
                                                    float readout_scale = 1.f, float* total = nullptr) {
  static_assert(2 * kQ == 128, "both roles are the whole CTA");
  const int t = tid % kQ;
  if (tid < kQ) {
    td.a[t] = a;
    td.dt[t] = dt;
  }
  sync();  // a, dt visible to both roles
  float prefix = 0.f, suffix = 0.f;
  if (tid >= kQ) {  // role 1: diagonal blocks (hierarchical only)
    if constexpr (kVariant == SegsumVariant::kHierarchical) detail::diagonal_block_column(td, t, td.dt[t]);
  } else {
    detail::scan_in_block<kVariant>(td, t, a, prefix, suffix);
  }
  sync();  // block totals visible
  if (tid >= kQ) return 0.f;
  return detail::token_factors<kVariant, kQ>(td, t, prefix, suffix, dt, readout_scale, total);
}

// Two heads of a tile (the Hopper kernel's producer), hierarchical: thread tid is token
// tid % kQ of head tid / kQ (td[0], td[1]) and does all of that head's work for its token
// (the scan, its factors, its column of the diagonal block), so the two heads run side by
// side between the same two synchronisations. Each head's arithmetic is exactly
// prepare_tile_decay's, but td.dt is not written: nothing that reads this form's output reads
// it (its diagonal blocks take dt from the register). Returns the token's weight for its
// head. The block decays are read before the chain (token_factors' kHoistDecays), the
// diagonal blocks by columns (diagonal_block_column).
// needs_mask(total decay) says whether the tile's record needs the mask's fields; where it
// does not (the Hopper kernel's factored tiles, whose consumers read none of them), u, chain_dt
// and the diagonal block are not written: ~80 of a tile-slice's ~810 shared-memory wavefronts,
// the diagonal blocks' column stores 4-way bank conflicts (ncu, session 70).
// Sync has two steps, each as narrow as what it publishes:
//  - sync.tokens(): a visible to the thread's own block, whose 8 tokens are 8 lanes of one
//    warp (__syncwarp);
//  - sync.totals(hd): the block totals visible to all kQ threads of head hd (two warps).
// (Over the whole warpgroup both, the Hopper producer was slower: probe R1 8k, API's dt,
// session 16 call 2: N = 128 0.477 -> 0.473 ms, N = 64 0.439 -> 0.433 with the hoisted decays,
// 4 packed sequences per row 0.546 -> 0.510, with z 0.650 -> 0.587.) Until session 17 the
// state pass ran it too, on two tiles per round; its consumers now compute their weights
// (tile_weights_warp).
template <int kQ, bool kAll, class Sync, class NeedsMask = detail::AlwaysMask>
__device__ __forceinline__ float prepare_tile_decay_pair(TileDecay<kQ, kAll>* td, int tid, float a, float dt, Sync sync,
                                                         float readout_scale = 1.f, float* total = nullptr,
                                                         NeedsMask needs_mask = {}) {
  static_assert(2 * kQ == 128, "one warpgroup: a token of each head per thread pair");
  const int t = tid % kQ, hd = tid / kQ;
  td[hd].a[t] = a;
  sync.tokens();  // a visible to the block's lanes
  float prefix, suffix;
  detail::scan_in_block<SegsumVariant::kHierarchical>(td[hd], t, a, prefix, suffix);
  sync.totals(hd);  // the head's block totals visible
  bool mask;
  const float w = detail::token_factors<SegsumVariant::kHierarchical, kQ, true>(td[hd], t, prefix, suffix, dt, readout_scale,
                                                                                 total, needs_mask, &mask);
  // The diagonal block last: after the barrier its a values are reloaded, not kept
  // live across the scan (the producer has 40-48 registers).
  if (mask) detail::diagonal_block_column(td[hd], t, dt);
  return w;
}

// The state-update weights of a 64-token tile, computed by one warp from the tile's a and dt
// (the Hopper state pass's consumers: each of their warps needs all 64). Lane l holds tokens
// 2 l and 2 l + 1; returns their weights dt_t exp(a_{t+1} + ... + a_63) in w and the tile's
// total decay exp(a_0 + ... + a_63) on every lane. The suffix sums are sums of one sign
// (a <= 0; -inf where a sequence starts, which stays -inf: exp gives 0, never NaN), in a
// warp tree instead of the hierarchical factors' ascending sums and block products: no
// cancellation either way, every factor in [0, 1], but other roundings (a split's state from
// the state pass differs from the main pass's own in the last bits).
__device__ __forceinline__ float tile_weights_warp(float2 a, float2 dt, int lane, float2& w) {
  const float pair = a.x + a.y;
  // after = the pairs of lanes > l: the inclusive suffix sums of the pairs shifted by one lane.
  float after = __shfl_down_sync(0xffffffffu, pair, 1);
  if (lane == 31) after = 0.f;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const float later = __shfl_down_sync(0xffffffffu, after, offset);
    if (lane + offset < 32) after += later;
  }
  w.x = dt.x * fast_exp(after + a.y);
  w.y = dt.y * fast_exp(after);
  return fast_exp(__shfl_sync(0xffffffffu, after + pair, 0));
}

// Masks one warp's accumulator fragment of S = C B^T in place:
// S_ij <- S_ij * L_ij * dt_j, zero above the diagonal. Fragment element (nt, r) is row
// 8 row_block[r / 2] + g, column 8 nt + 2 q + r % 2 (g = lane / 4, q = lane % 4): the two
// 8-row blocks of the warp's registers (2 warp and 2 warp + 1 in the m16n8 order of an mma
// accumulator, apply_decay_mask below; any two when S comes from memory). N-tiles right of a
// row block's diagonal are set to zero, or, kRightZero (they hold zeros already), left
// alone; n-tiles right of both are left untouched (the sm80 kernel never reads them).
// kScaled (hierarchical; the Hopper kernel's chunk scores): S arrives divided by a power of
// two, `scale`, and the factors are multiplied by it instead of every element, once per row
// for the rank-one blocks: bitwise the same products while u_i * scale and the diagonal
// factors times scale stay normal (power-of-two scaling commutes with rounding there; below,
// at products under ~1e-34, they may differ in the last bits).
template <SegsumVariant kVariant, int kQ, bool kScaled = false, bool kRightZero = false, bool kAll = true>
__device__ __forceinline__ void apply_decay_mask_rows(float (&s)[kQ / 8][4], const TileDecay<kQ, kAll>& td,
                                                      const int (&row_block)[2], int lane, float scale = 1.f) {
  static_assert(kVariant == SegsumVariant::kHierarchical || !kScaled, "the scaled form is the hierarchical variant's");
  static_assert(kAll || kVariant != SegsumVariant::kDiff, "the diff variant reads cs");
  const int g = lane / 4, q = lane % 4;
  const int last = row_block[0] > row_block[1] ? row_block[0] : row_block[1];
#pragma unroll
  for (int nt = 0; nt < kQ / 8; ++nt) {
    if (nt > last) continue;  // above the diagonal for both row blocks
    const int j0 = 8 * nt + 2 * q;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int I = row_block[half];  // row block (8 rows) of this half
      const int i = 8 * I + g;
      float L0, L1;  // L_{i, j0} * dt_{j0}, L_{i, j0+1} * dt_{j0+1}
      if (nt > I) {
        if constexpr (kRightZero) continue;
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
          const float ui = kScaled ? td.u[i] * scale : td.u[i];
          const float2 gd = *reinterpret_cast<const float2*>(&td.chain_dt[I][j0]);
          L0 = ui * gd.x;
          L1 = ui * gd.y;
        } else {  // diagonal block: precomputed by prepare_tile_decay
          const float2 ld = *reinterpret_cast<const float2*>(&td.diag_dt[i][2 * q]);
          L0 = kScaled ? ld.x * scale : ld.x;
          L1 = kScaled ? ld.y * scale : ld.y;
        }
      }
      s[nt][2 * half] *= L0;
      s[nt][2 * half + 1] *= L1;
    }
  }
}

// The mask on an mma accumulator: warp w owns rows 16 warp .. 16 warp + 15.
template <SegsumVariant kVariant, int kQ, bool kScaled = false>
__device__ __forceinline__ void apply_decay_mask(float (&s)[kQ / 8][4], const TileDecay<kQ>& td,
                                                 int warp, int lane, float scale = 1.f) {
  const int row_block[2] = {2 * warp, 2 * warp + 1};
  apply_decay_mask_rows<kVariant, kQ, kScaled>(s, td, row_block, lane, scale);
}

}  // namespace flashssd::sm80
