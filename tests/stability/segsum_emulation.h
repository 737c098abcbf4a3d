// Float32 CPU emulation of the decay-mask rules of the GPU kernels
// (src/kernels/common/segsum.cuh, DESIGN.md section 4), plus float64 truths.
//
// One compute tile has Q tokens with log-decays a_0 .. a_{Q-1} (a_k = dt_k * A,
// <= 0; exact zeros allowed; 0 past the end of a partial tile, as the kernel
// pads). The mask is L_ij = exp(a_{j+1} + ... + a_i) for i >= j, 0 above the
// diagonal. The tile is cut into Q / q blocks of q tokens (segsum.cuh: q = 8,
// the rows a thread quad's accumulator registers span in the m16n8 layout and
// one n-tile of columns); block K holds tokens s(K) = qK .. e(K) = qK + q - 1.
//
// The emulation evaluates every float operation the device code performs, in
// the same order (each rule is marked "Rule ..." in segsum_emulation.cpp), so
// that the CPU suite proves on every commit the properties the kernel needs:
// no entry > 1, monotone rows and columns, nothing non-finite, error no worse
// than the direct sums. The one operation that is not bitwise the device's is
// the exponential's last step (ex2.approx, within 2 ulp on the GPU; exp2f here,
// correctly rounded); every exponent argument is bitwise the device's. The GPU
// suite (tests/gpu/test_segsum_gpu.cpp) measures how close the device mask is
// to this emulation, on the same inputs.
//
// Plain C++17, no globals, no CUDA: usable from a .cu test as well.
#pragma once

#include <cstdint>

namespace flashssd {
namespace stability {

enum class Variant : int { kDiff = 0, kDirect = 1, kHierarchical = 2 };
constexpr int kNumVariants = 3;
const char* variant_name(Variant v);  // "diff", "direct", "hierarchical"

// Tile shape. The rules themselves are fixed: they are those of segsum.cuh,
//   diff          Hillis-Steele in-block prefix scan (shuffles, width q),
//                 cs = before + prefix, L = exp(cs_i - cs_j), e = exp(all - cs);
//   direct        ascending sequential sums from 0.f for every entry and e;
//   hierarchical  ascending sequential in-block prefix / exclusive suffix from
//                 0.f, block total = the last prefix, diagonal blocks as direct,
//                 off-diagonal L_ij = u_i * G(I, j) with the column chain
//                 G(I, j) = v_j * E_{J+1} * ... * E_{I-1} multiplied one factor
//                 at a time, e_j = the chain continued to the tile end;
// all variants: before / all = ascending sums of block totals from 0.f, read-out
// p_i = exp(cs_i), exp = fast_exp (see fast_exp_f32).
struct Rules {
  int Q = 64;  // compute tile (tokens); the sm80 kernel's kQ
  int q = 8;   // block (tokens); segsum.cuh's TileDecay::kBlock
};

// The rules of src/kernels/common/segsum.cuh (the device truth). Q = 64, q = 8
// is what the kernels are built with; other shapes are for the shape-independence
// test of the hierarchical guarantees.
Rules device_rules(int Q = 64, int q = 8);
// "ok" or a static message saying what is wrong with r.
const char* check_rules(const Rules& r);

// The device's fast_exp (src/kernels/common/mma_sm80.cuh):
// ex2.approx.ftz.f32(x * log2e). The product is rounded to float exactly as on
// the device; 2^y is correctly rounded here (within 2 ulp on the GPU); results
// below FLT_MIN (2^-126) flush to +0 like .ftz.
float fast_exp_f32(float x);

// ---- one tile --------------------------------------------------------------
// a: the tile's Q log-decays (<= 0). dt: the tile's Q processed dt, or nullptr
// for dt = 1 (then every output is the pure decay, bitwise: x * 1 is exact).
// Outputs (any may be nullptr):
//   mask  Q*Q row-major, the factor the device multiplies S_ij by:
//         mask[i*Q + j] = L_ij * dt_j, formed as the device forms it (exactly 0
//         for j > i)
//   e     Q: dt_j * e_j, e_j = exp(a_{j+1} + ... + a_{Q-1}): the kernel's to_end
//   p     Q: p_i = exp(a_0 + ... + a_i), read-out decay of the incoming state
//   total exp(a_0 + ... + a_{Q-1}), decay of the state across the tile
void segsum_tile_f32(Variant v, const Rules& rules, const float* a, float* mask, float* e, float* p,
                     float* total, const float* dt = nullptr);
// Float64 truth for the same float inputs (dt = 1): every entry an ascending
// direct sum of the (exact) float a's in double, then exp.
void segsum_tile_f64(const float* a, int Q, double* mask, double* e, double* p, double* total);

// Number of exponentials whose product (with the rounding of each multiply) is
// mask entry (i, j), i >= j, of variant v: 1, except hierarchical off-diagonal
// blocks: u_i, v_j and E_{J+1} .. E_{I-1}. Bounds how far the device's entry
// may be from the emulation's (each ex2.approx within 2 ulp).
int mask_exp_factors(Variant v, const Rules& rules, int i, int j);
// The same for e_j (hierarchical: v_j and E_{J+1} .. E_{Q/q-1}).
int e_exp_factors(Variant v, const Rules& rules, int j);

// ---- the Hopper state pass's weights ---------------------------------------
// sm80::tile_weights_warp (segsum.cuh), operation by operation: one warp over a 64-token
// tile, lane l holding tokens 2 l and 2 l + 1 (a, processed dt, or dt = nullptr for 1):
// pair_l = a_2l + a_2l+1; after_l = pair_{l+1} (0 at lane 31), then the Hillis-Steele
// suffix steps after_l += after_{l+o} for o = 1, 2, 4, 8, 16 (where l + o < 32, each step on
// the previous step's values); e_2l = dt_2l exp(after_l + a_2l+1), e_2l+1 = dt_2l+1
// exp(after_l), total = exp(after_0 + pair_0). Not the hierarchical rules: no row is
// formed, only the 64 weights and the total decay.
void state_pass_weights_f32(const float* a, const float* dt, float* e, float* total);
// The state pass's weights of a pair of 64-token tiles (a: 128 decays): each tile's as
// above, the first tile's times the second's total decay (the pair's update is one
// (X diag(w))^T B over 128 tokens); total = the product of the two totals.
void state_pass_pair_weights_f32(const float* a, const float* dt, float* e, float* total);

// ---- one (batch, head) sequence, end to end --------------------------------
struct SsdInput {
  int T = 0;                  // tokens (any; the last tile may be partial)
  int P = 0;                  // head dim
  int N = 0;                  // state dim
  const float* x = nullptr;   // T x P
  const float* dt = nullptr;  // T (already processed: > = 0)
  float A = -1.f;             // < 0
  const float* B = nullptr;   // T x N
  const float* C = nullptr;   // T x N
  const float* h0 = nullptr;  // P x N initial state, or nullptr for zeros
};

// Chunked SSD in float32 with the variant's mask and factors, tile by tile
// (tiles of rules.Q tokens, the last one padded with a = dt = 0, x = B = C = 0):
//   a = dt * A                                  (float)
//   S = C B^T; M_ij = S_ij * (L_ij dt_j)        (j <= i; 0 above; L dt as the device forms it)
//   Y = M X + diag(p) (C h^T)                   (h: the incoming state)
//   h = total * h + X^T diag(dt * e) B
// The GEMMs are plain float32 loops (the device uses bf16/fp16 operands).
// y: T x P, h_final: P x N (either may be nullptr).
void ssd_chunked_f32(Variant v, const Rules& rules, const SsdInput& in, float* y, float* h_final);

// Float64 sequential recurrence, the truth for the same inputs:
//   h_t = exp(dt_t A) h_{t-1} + dt_t x_t B_t^T,  y_t = h_t C_t.
void ssd_recurrence_f64(const SsdInput& in, double* y, double* h_final);

}  // namespace stability
}  // namespace flashssd
