// Portable tensor-core SSD forward (sm_80 and newer: mma.sync + cp.async).
//
// One CTA owns one split of the sequence for one (batch, head, head-dim block)
// and walks its compute tiles of kQ tokens in order, carrying the P x N state in
// registers (DESIGN.md section 3): no chunk state ever goes through HBM inside a
// split. Per tile, with the 4 warps each owning 16 rows (tokens) of the tile:
//
//   S    = C B^T                      (mma, causal n-tiles only)
//   S'   = S * L * dt_j               (decay mask in registers: segsum.cuh)
//   Y    = diag(exp(cs)) C h^T + S' X  (mma; S' is reused as the A operand)
//   y    = (Y + D x) * silu(z)        (epilogue, straight from registers)
//   h    = exp(total) h + X^T diag(dt exp(suffix)) B   (mma; warps split the N columns)
//
// Tiles are cut at sequence boundaries (seq_idx / cu_seqlens), so a state reset
// only ever happens between tiles and no in-tile sequence masking is needed.
// kWriteY = false is the first phase of the split-sequence scheme: it produces
// each split's local final state and total decay without reading C or writing y.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/common/cu_seqlens.cuh"
#include "kernels/common/dt.cuh"
#include "kernels/common/kernel_params.h"
#include "kernels/common/mma_sm80.cuh"
#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/segsum.cuh"

namespace flashssd::sm80 {

// A compute tile: tokens [start, start + len) of one sequence.
struct Tile {
  int start = 0;
  int len = 0;              // 0: no tile (past the split's end)
  int seq = 0;              // sequence number (cu_seqlens mode)
  bool new_seq = false;     // the state resets to zero before this tile
  bool ends_seq = false;    // last tile of sequence `seq` (cu_seqlens mode)
};

template <class Element_, int kN_, int kBP_, SegsumVariant kVariant_, bool kWriteY_>
struct SsdFwdKernel {
  using Element = Element_;
  using Ops = Operands<Element>;  // fragment loads and mma for this element type
  static constexpr int kN = kN_;       // state dim, padded (zero-filled past N)
  static constexpr int kBP = kBP_;     // head-dim block of one CTA
  static constexpr SegsumVariant kVariant = kVariant_;
  static constexpr bool kWriteY = kWriteY_;
  static constexpr int kQ = 64;        // compute tile (tokens)
  static constexpr int kWarps = 4;
  static constexpr int kThreads = kWarps * 32;
  // fp32 tiles are twice the bytes: one stage (latency hidden by more CTAs per SM
  // instead) keeps them within an A100's shared memory.
  static constexpr int kStages = sizeof(Element) == 4 ? 1 : 2;
  static constexpr int kElemsPer16B = 16 / sizeof(Element);
  // +8 elements per row: conflict-free ldmatrix (16-bit); for fp32 a pitch of 8 mod 32
  // words keeps the float2 fragment loads of a half-warp on distinct banks.
  static constexpr int kXPitch = kBP + 8;
  static constexpr int kBCPitch = kN + 8;
  static constexpr int kStateCols = kN / kWarps;  // state columns owned by one warp
  static constexpr int kStateMT = kBP / 16;
  static constexpr int kStateNT = kStateCols / 8;
  static_assert(kQ == kWarps * 16, "one 16-row mma block per warp");
  static_assert(kThreads == 2 * kQ, "prepare_tile_decay uses two threads per token");
  static_assert(kStateCols % 16 == 0 && kBP % 16 == 0, "tile shapes");

  struct Stage {
    Element x[kQ][kXPitch];
    Element b[kQ][kBCPitch];
    Element c[kWriteY ? kQ : 1][kBCPitch];
  };
  struct SharedStorage {
    Stage stage[kStages];
    Element h[kWriteY ? kBP : 1][kBCPitch];  // copy of the state in the input type, for C h^T
    TileDecay<kQ> decay;
    alignas(16) float D[kBP];  // skip connection of this head-dim block (0 without D)
    typename Ops::WeightPair decay_weights[kQ / 2];  // to_end of tokens (2i, 2i+1), as update_state scales B
    unsigned seq_change[2];
  };
  static constexpr size_t kSmemBytes = sizeof(SharedStorage);

  const SsdKernelParams& p;
  SharedStorage& smem;
  const int tid, warp, lane;
  int b, h, p0, split;
  int split_begin, split_end;
  const Element* x_bh;
  const Element* z_bh;
  const Element* B_bg;
  const Element* C_bg;
  Element* y_bh;
  float A_h;

  __device__ SsdFwdKernel(const SsdKernelParams& params, SharedStorage& s, int work_id)
      : p(params), smem(s), tid(threadIdx.x), warp(threadIdx.x / 32), lane(threadIdx.x % 32) {
    // Work id -> (batch, split, head, head-dim block); heads fastest so that CTAs
    // sharing one group's B/C run together and share them through L2.
    const int pb = work_id % p.p_blocks;
    int rest = work_id / p.p_blocks;
    h = rest % p.heads;
    rest /= p.heads;
    const int splits_launched = kWriteY ? p.num_splits : p.num_splits - 1;
    split = rest % splits_launched;
    b = rest / splits_launched;
    p0 = pb * kBP;
    split_begin = split * p.split_len;
    split_end = min(p.seqlen, split_begin + p.split_len);
    const int g = h / p.heads_per_group;
    x_bh = static_cast<const Element*>(p.x) + b * p.x_sb + h * p.x_sh + p0;
    z_bh = p.z ? static_cast<const Element*>(p.z) + b * p.z_sb + h * p.z_sh + p0 : nullptr;
    B_bg = static_cast<const Element*>(p.B) + b * p.B_sb + g * p.B_sg;
    C_bg = static_cast<const Element*>(p.C) + b * p.C_sb + g * p.C_sg;
    y_bh = kWriteY ? static_cast<Element*>(p.y) + b * p.y_sb + h * p.y_sh + p0 : nullptr;
    A_h = p.A[h * p.A_s];
  }

  // ---- scheduler: the next tile of this split ------------------------------------
  __device__ int cu_at(int k) const {
    return static_cast<int>(cu_seqlens_at(p.cu_seqlens, p.cu_seqlens_64, p.cu_s, k));
  }

  // All threads call this with the same arguments; it may synchronise the CTA.
  // The tile ends early at a cu_seqlens boundary or where seq_idx changes (both
  // reset the state when both are given).
  __device__ Tile next_tile(int t, int seq_hint) {
    Tile tile;
    if (t >= split_end) return tile;
    tile.start = t;
    int len = min(kQ, split_end - t);
    int seq_end = 0;
    if (p.cu_seqlens) {
      int k = seq_hint;
      while (k + 1 < p.num_seqs && cu_at(k + 1) <= t) ++k;  // skip ended / empty sequences
      seq_end = cu_at(k + 1);
      tile.seq = k;
      tile.new_seq = (t == cu_at(k)) && k > 0;
      len = min(len, seq_end - t);  // <= 0 only for an invalid cu_seqlens: stops the split
    }
    if (p.seq_idx) {
      const int32_t* seq = p.seq_idx + b * p.seq_sb;
      const int32_t s0 = seq[t * p.seq_st];
      tile.new_seq |= t > 0 && seq[(t - 1) * p.seq_st] != s0;
      if (tid < kQ) {
        const bool changed = tid < len && seq[(t + tid) * p.seq_st] != s0;
        const unsigned ballot = __ballot_sync(0xffffffffu, changed);
        if (lane == 0) smem.seq_change[warp] = ballot;
      }
      __syncthreads();
      const unsigned long long changes =
          (static_cast<unsigned long long>(smem.seq_change[1]) << 32) | smem.seq_change[0];
      if (changes) len = __ffsll(static_cast<long long>(changes)) - 1;
      __syncthreads();  // seq_change is rewritten by the next call
    }
    tile.len = len;
    tile.ends_seq = p.cu_seqlens && t + len == seq_end;
    return tile;
  }

  // ---- producer: async copies of one tile into a pipeline stage --------------------
  __device__ void load_tile(const Tile& tile, Stage& st) {
    // Each thread copies fixed 16-byte columns of rows r0, r0 + kRowStep, ...
    constexpr int kXChunks = kBP / kElemsPer16B, kBCChunks = kN / kElemsPer16B;  // 16-byte chunks per row
    constexpr int kXRowStep = kThreads / kXChunks, kBCRowStep = kThreads / kBCChunks;
    static_assert(kThreads % kXChunks == 0 && kThreads % kBCChunks == 0 && kQ % kXRowStep == 0 &&
                  kQ % kBCRowStep == 0, "copy shape");
    {
      const int r0 = tid / kXChunks, c = (tid % kXChunks) * kElemsPer16B;
      const bool col_ok = p0 + c < p.headdim;
      const Element* src = x_bh + int64_t(tile.start + r0) * p.x_st + c;
      const int64_t step = int64_t(kXRowStep) * p.x_st;
#pragma unroll
      for (int r = r0; r < kQ; r += kXRowStep, src += step) {
        const bool ok = col_ok && r < tile.len;
        cp_async_16(&st.x[r][c], ok ? src : x_bh, ok);
      }
    }
    {
      const int r0 = tid / kBCChunks, c = (tid % kBCChunks) * kElemsPer16B;
      const bool col_ok = c < p.dstate;
      const Element* srcB = B_bg + int64_t(tile.start + r0) * p.B_st + c;
      const Element* srcC = C_bg + int64_t(tile.start + r0) * p.C_st + c;
      const int64_t stepB = int64_t(kBCRowStep) * p.B_st, stepC = int64_t(kBCRowStep) * p.C_st;
#pragma unroll
      for (int r = r0; r < kQ; r += kBCRowStep, srcB += stepB, srcC += stepC) {
        const bool ok = col_ok && r < tile.len;
        cp_async_16(&st.b[r][c], ok ? srcB : B_bg, ok);
        if constexpr (kWriteY) cp_async_16(&st.c[r][c], ok ? srcC : C_bg, ok);
      }
    }
  }

  // Processed dt of token `start + tid` (0 past the tile), loaded one tile ahead.
  __device__ float load_dt(const Tile& tile) const {
    if (tid >= tile.len) return 0.f;
    const int64_t off = b * p.dt_sb + int64_t(tile.start + tid) * p.dt_st + h * p.dt_sh;
    return process_dt(load_dt_raw(p.dt, p.dt_type, off), p.dt_bias ? p.dt_bias + h * p.dt_bias_s : nullptr,
                      p.dt_softplus, p.dt_lo, p.dt_hi);
  }

  // ---- state fragment helpers --------------------------------------------------------
  // Element (mt, nt, r) of a warp's state fragment sits at head-dim row
  // 16 mt + g + 8 (r / 2) and state column warp * kStateCols + 8 nt + 2 q + r % 2.
  using StateFrag = float[kStateMT][kStateNT][4];

  template <class F>
  __device__ void for_state_pairs(F&& f) const {
    const int g = lane / 4, q = lane % 4;
#pragma unroll
    for (int mt = 0; mt < kStateMT; ++mt)
#pragma unroll
      for (int nt = 0; nt < kStateNT; ++nt)
#pragma unroll
        for (int half = 0; half < 2; ++half)
          f(mt, nt, half, 16 * mt + g + 8 * half, warp * kStateCols + 8 * nt + 2 * q);
  }

  __device__ void load_state(StateFrag& st, const float* src, int64_t sp) const {
    for_state_pairs([&](int mt, int nt, int half, int row, int col) {
      float2 v = make_float2(0.f, 0.f);
      if (src && p0 + row < p.headdim && col < p.dstate)
        v = *reinterpret_cast<const float2*>(src + int64_t(p0 + row) * sp + col);
      st[mt][nt][2 * half] = v.x;
      st[mt][nt][2 * half + 1] = v.y;
    });
  }
  __device__ void store_state(const StateFrag& st, float* dst, int64_t sp) const {
    for_state_pairs([&](int mt, int nt, int half, int row, int col) {
      if (p0 + row < p.headdim && col < p.dstate)
        *reinterpret_cast<float2*>(dst + int64_t(p0 + row) * sp + col) =
            make_float2(st[mt][nt][2 * half], st[mt][nt][2 * half + 1]);
    });
  }
  __device__ void state_to_smem(const StateFrag& st) {
    if constexpr (kWriteY) {
      for_state_pairs([&](int mt, int nt, int half, int row, int col) {
        Ops::store_pair(&smem.h[row][col], st[mt][nt][2 * half], st[mt][nt][2 * half + 1]);
      });
    }
  }

  // ---- mainloop pieces -------------------------------------------------------------------
  // Y (this warp's 16 rows x kBP) = diag(readout) C h^T + (L o C B^T) diag(dt) X.
  __device__ void tile_output(const Stage& st, bool has_state, float (&yacc)[kBP / 8][4]) {
    const int g = lane / 4;
    float s[kQ / 8][4];
#pragma unroll
    for (int i = 0; i < kQ / 8; ++i) s[i][0] = s[i][1] = s[i][2] = s[i][3] = 0.f;
#pragma unroll
    for (int i = 0; i < kBP / 8; ++i) yacc[i][0] = yacc[i][1] = yacc[i][2] = yacc[i][3] = 0.f;

    const int row0 = warp * 16;
#pragma unroll
    for (int k0 = 0; k0 < kN; k0 += 16) {
      typename Ops::FragA a;  // C rows of this warp, state columns k0..k0+15
      Ops::load_a(a, &st.c[0][0], kBCPitch, row0, k0, lane);
#pragma unroll
      for (int np = 0; np < kWarps; ++np) {  // causal: key tokens 16 np.. only up to this warp
        if (np <= warp) {
          typename Ops::FragB bb[2];
          Ops::load_b2(bb, &st.b[0][0], kBCPitch, 16 * np, k0, lane);
          Ops::mma(s[2 * np], a, bb[0]);
          Ops::mma(s[2 * np + 1], a, bb[1]);
        }
      }
      if (has_state) {
#pragma unroll
        for (int np = 0; np < kBP / 16; ++np) {
          typename Ops::FragB hh[2];
          Ops::load_b2(hh, &smem.h[0][0], kBCPitch, 16 * np, k0, lane);
          Ops::mma(yacc[2 * np], a, hh[0]);
          Ops::mma(yacc[2 * np + 1], a, hh[1]);
        }
      }
    }
    // Incoming state decays to token i by exp(cs_i).
    const float r_lo = smem.decay.readout[row0 + g], r_hi = smem.decay.readout[row0 + g + 8];
#pragma unroll
    for (int i = 0; i < kBP / 8; ++i) {
      yacc[i][0] *= r_lo; yacc[i][1] *= r_lo;
      yacc[i][2] *= r_hi; yacc[i][3] *= r_hi;
    }

    apply_decay_mask<kVariant, kQ>(s, smem.decay, warp, lane);

    // S' (accumulator layout) becomes the A operand of S' X, 16 key tokens per k-step.
#pragma unroll
    for (int kk = 0; kk < kWarps; ++kk) {
      if (kk <= warp) {
        typename Ops::FragA a;
        Ops::a_from_acc(a, s[2 * kk], s[2 * kk + 1]);
#pragma unroll
        for (int np = 0; np < kBP / 16; ++np) {
          typename Ops::FragB xx[2];
          Ops::load_b2_kmajor(xx, &st.x[0][0], kXPitch, 16 * kk, 16 * np, lane);
          Ops::mma(yacc[2 * np], a, xx[0]);
          Ops::mma(yacc[2 * np + 1], a, xx[1]);
        }
      }
    }
  }

  // y = (Y + D x) * silu(z), stored straight from the accumulator fragment.
  // The gate z of this thread's fragment positions, loaded before the tile's GEMMs so
  // that their latency hides the loads.
  using GateFrag = typename Ops::Pair[2][kBP / 8];
  __device__ void load_gate(const Tile& tile, GateFrag& zf) const {
    const int g = lane / 4, q = lane % 4;
    const int valid_cols = p.headdim - p0;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = warp * 16 + g + 8 * half;
      const Element* z_row = z_bh + int64_t(tile.start + r) * p.z_st + 2 * q;
#pragma unroll
      for (int nt = 0; nt < kBP / 8; ++nt)
        zf[half][nt] = (r < tile.len && 8 * nt + 2 * q < valid_cols) ? Ops::load_pair(z_row + 8 * nt)
                                                                     : Ops::zero_pair();
    }
  }

  template <bool kGate>
  __device__ void epilogue(const Tile& tile, const Stage& st, const float (&yacc)[kBP / 8][4],
                           const GateFrag& zf) {
    const int g = lane / 4, q = lane % 4;
    const int valid_cols = p.headdim - p0;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = warp * 16 + g + 8 * half;
      if (r >= tile.len) continue;
      const int64_t tok = tile.start + r;
      Element* y_row = y_bh + tok * p.y_st + 2 * q;
#pragma unroll
      for (int nt = 0; nt < kBP / 8; ++nt) {
        const int col = 8 * nt + 2 * q;
        if (col >= valid_cols) continue;
        const float2 xv = Ops::to_float2(Ops::load_pair(&st.x[r][col]));
        const float2 d = *reinterpret_cast<const float2*>(&smem.D[col]);
        float v0 = yacc[nt][2 * half] + d.x * xv.x;
        float v1 = yacc[nt][2 * half + 1] + d.y * xv.y;
        if constexpr (kGate) {  // silu(z) = z / (1 + exp(-z)); the fast division gives 0 for exp(-z) = inf
          const float2 zv = Ops::to_float2(zf[half][nt]);
          v0 *= __fdividef(zv.x, 1.f + fast_exp(-zv.x));
          v1 *= __fdividef(zv.y, 1.f + fast_exp(-zv.y));
        }
        Ops::store_pair(y_row + 8 * nt, v0, v1);
      }
    }
  }

  // h = exp(total) h + X^T diag(dt_j exp(a_{j+1..end})) B; this warp owns kStateCols columns.
  __device__ void update_state(const Stage& st, StateFrag& hs) {
    const float decay = smem.decay.total_decay;
#pragma unroll
    for (int mt = 0; mt < kStateMT; ++mt)
#pragma unroll
      for (int nt = 0; nt < kStateNT; ++nt)
#pragma unroll
        for (int r = 0; r < 4; ++r) hs[mt][nt][r] *= decay;

    const int q = lane % 4;
    const int col0 = warp * kStateCols;
#pragma unroll
    for (int kk = 0; kk < kQ / 16; ++kk) {
      // Weights of key tokens 16 kk + 2 q (+1) and 16 kk + 8 + 2 q (+1): the B fragment
      // registers of those tokens are scaled as loaded.
      const auto w_lo = smem.decay_weights[8 * kk + q], w_hi = smem.decay_weights[8 * kk + 4 + q];
      typename Ops::FragB bfrag[kStateNT / 2][2];  // state columns col0 + 16 np + 8 j
#pragma unroll
      for (int np = 0; np < kStateNT / 2; ++np)
        Ops::load_b2_kmajor_scaled(bfrag[np], &st.b[0][0], kBCPitch, 16 * kk, col0 + 16 * np, lane, w_lo, w_hi);
#pragma unroll
      for (int mt = 0; mt < kStateMT; ++mt) {
        typename Ops::FragA a;  // X^T: head-dim rows 16 mt.., key tokens 16 kk..
        Ops::load_a_kmajor(a, &st.x[0][0], kXPitch, 16 * kk, 16 * mt, lane);
#pragma unroll
        for (int nt = 0; nt < kStateNT; ++nt) Ops::mma(hs[mt][nt], a, bfrag[nt / 2][nt % 2]);
      }
    }
  }

  // ---- the CTA's whole split -------------------------------------------------------------
  __device__ void run() {
    StateFrag hs;
    // Incoming state: initial_states for the first split, else the boundary scan's result.
    const float* init = nullptr;
    int64_t init_sp = p.dstate;
    if (kWriteY && split > 0) {
      init = p.split_states + ((int64_t(b) * p.heads + h) * p.num_splits + (split - 1)) * p.headdim * p.dstate;
    } else if (kWriteY && p.initial_states) {
      init = p.initial_states + b * p.init_sb + h * p.init_sh;
      init_sp = p.init_sp;
    }
    load_state(hs, init, init_sp);
    state_to_smem(hs);
    for (int c = tid; c < kBP; c += kThreads)
      smem.D[c] = (p.D && p0 + c < p.headdim) ? p.D[h * p.D_sh + (p0 + c) * p.D_sp] : 0.f;
    bool has_state = init != nullptr;
    float split_decay = 1.f;

    int seq = 0;
    if (p.cu_seqlens) {  // first sequence that ends after split_begin (binary search)
      int lo = 0, hi = p.num_seqs - 1;
      while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (cu_at(mid + 1) <= split_begin) lo = mid + 1; else hi = mid;
      }
      seq = lo;
    }
    Tile cur = next_tile(split_begin, seq);
    load_tile(cur, smem.stage[0]);
    cp_async_commit();
    float dt_cur = load_dt(cur);

    for (int it = 0; cur.len > 0; ++it) {
      const Tile nxt = next_tile(cur.start + cur.len, cur.seq);
      if constexpr (kStages > 1) {  // prefetch into the other stage
        if (nxt.len > 0) load_tile(nxt, smem.stage[(it + 1) % kStages]);
        cp_async_commit();
      }
      const float dt_next = load_dt(nxt);

      if (cur.new_seq) {  // sequence boundary: the state restarts from zero
#pragma unroll
        for (int mt = 0; mt < kStateMT; ++mt)
#pragma unroll
          for (int nt = 0; nt < kStateNT; ++nt)
#pragma unroll
            for (int r = 0; r < 4; ++r) hs[mt][nt][r] = 0.f;
        has_state = false;
        split_decay = 0.f;
      }
      {
        const float w = prepare_tile_decay<kVariant, kQ>(smem.decay, tid, dt_cur * A_h, dt_cur);
        if (tid < kQ) {  // packed weight pairs for update_state
          const float w_next = __shfl_down_sync(0xffffffffu, w, 1);
          if (tid % 2 == 0) smem.decay_weights[(tid % kQ) / 2] = Ops::weight_pair(w, w_next);
        }
      }
      cp_async_wait<kStages - 1>();
      __syncthreads();

      const Stage& st = smem.stage[it % kStages];
      if constexpr (kWriteY) {
        float yacc[kBP / 8][4];
        GateFrag zf;
        if (z_bh) {
          load_gate(cur, zf);
          tile_output(st, has_state, yacc);
          epilogue<true>(cur, st, yacc, zf);
        } else {
          tile_output(st, has_state, yacc);
          epilogue<false>(cur, st, yacc, zf);
        }
      }
      update_state(st, hs);
      split_decay *= smem.decay.total_decay;
      has_state = true;
      __syncthreads();  // every warp is done with this stage, the decay factors and smem.h
      if constexpr (kStages == 1) {  // the stage is free now
        if (nxt.len > 0) load_tile(nxt, smem.stage[0]);
        cp_async_commit();
      }
      state_to_smem(hs);
      if (kWriteY && p.varlen_states && cur.ends_seq)
        store_state(hs, p.varlen_states + cur.seq * p.var_ss + h * p.var_sh, p.var_sp);

      cur = nxt;
      dt_cur = dt_next;
    }

    if constexpr (kWriteY) {
      if (p.final_states && split == p.num_splits - 1)
        store_state(hs, p.final_states + b * p.fin_sb + h * p.fin_sh, p.fin_sp);
    } else {
      const int64_t slot = (int64_t(b) * p.heads + h) * p.num_splits + split;
      store_state(hs, p.split_states + slot * p.headdim * p.dstate, p.dstate);
      if (tid == 0 && p0 == 0) p.split_decay[slot] = split_decay;
    }
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::kThreads) ssd_fwd_sm80_kernel(const __grid_constant__ SsdKernelParams params) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& smem = *reinterpret_cast<typename Kernel::SharedStorage*>(smem_raw);
  Kernel k(params, smem, blockIdx.x);
  k.run();
}

}  // namespace flashssd::sm80
