// Float32 CPU emulation of the decay-mask rules of the GPU kernels
// (src/kernels/common/segsum.cuh, DESIGN.md section 4), plus float64 truths.
//
// One compute tile has Q tokens with log-decays a_0 .. a_{Q-1} (a_k = dt_k * A,
// <= 0; exact zeros allowed; 0 past the end of a partial tile, as the kernel
// pads). The mask is L_ij = exp(a_{j+1} + ... + a_i) for i >= j, 0 above the
// diagonal. The tile is cut into Q / q blocks of q tokens (one warp's rows in
// the mma layout); block K holds tokens s(K) = qK .. e(K) = qK + q - 1.
//
// The emulation evaluates every float operation in the order the device code
// does (each rule is marked "Rule ..." in segsum_emulation.cpp and listed in
// `Rules` below), so that the CPU suite can prove, on every commit, the
// properties the kernel needs: no entry > 1, monotone rows and columns,
// nothing non-finite, error no worse than the direct sums. The GPU suite
// (same metrics, same inputs) then checks the real kernel on an H200.
//
// Plain C++17, no globals, no CUDA: usable from a .cu test as well.
#pragma once

#include <cstdint>

namespace flashssd {
namespace stability {

enum class Variant : int { kDiff = 0, kDirect = 1, kHierarchical = 2 };
constexpr int kNumVariants = 3;
const char* variant_name(Variant v);  // "diff", "direct", "hierarchical"

// How an in-block running sum (q terms, one warp) is evaluated.
enum class Scan : int {
  // one lane per token adds the block's a's one after the other, ascending
  // index, starting from 0.f: c_i = ((a_s + a_{s+1}) + ...) + a_i
  kSequential = 0,
  // Hillis-Steele over the q lanes of the block (__shfl_up/down_sync with
  // offsets 1, 2, 4, ...): what segsum.cuh's prepare_tile_decay does today
  kHillisSteele = 1,
};

// How the hierarchical variant combines the factors of an off-diagonal block
// (I, J), J < I, and of the decay-to-tile-end factor e_j.
enum class OffDiag : int {
  // E_K = exp(T_K) for every block K. Column factor G[I][j] = v_j, then
  // multiplied by E_{J+1}, E_{J+2}, ..., E_{I-1} one at a time (ascending K);
  // L_ij = u_i * G[I][j]. e_j continues the same chain through K = Q/q - 1.
  // Monotone rows AND columns by construction (see segsum_emulation.cpp).
  kChain = 0,
  // w_IJ = exp(T_{J+1} + ... + T_{I-1}); L_ij = (u_i * w_IJ) * v_j;
  // e_j = exp(r_j) * exp(sum_{K > J} T_K): what segsum.cuh does today.
  kExpOfSum = 1,
};

// Which exponential the device calls.
enum class ExpFn : int {
  // __expf(x) = ex2.approx(x * log2(e)); emulated as exp2f(x * 1.44269504f).
  // Same rounding of the argument as the device; exp2 itself is correctly
  // rounded here and within 2 ulp on the GPU (not bitwise equal).
  kFastExp2 = 0,
  kLibm = 1,  // expf
};

// The rules of one build of the kernel. Q % q == 0, 1 <= q <= Q.
struct Rules {
  int Q = 64;  // compute tile (tokens)
  int q = 16;  // block = rows of one warp
  Scan diff_scan = Scan::kHillisSteele;  // in-block prefix used by the diff variant's cumsum
  Scan scan = Scan::kSequential;         // in-block prefix/suffix of direct and hierarchical
  OffDiag offdiag = OffDiag::kChain;
  ExpFn exp = ExpFn::kFastExp2;
};

// The rule set the stability suite asserts on (monotone by construction).
Rules recommended_rules(int Q = 64, int q = 16);
// The rules of src/kernels/common/segsum.cuh as read on 2026-11-29 (Hillis-
// Steele in-block scans for every variant, w_IJ = exp(sum of block totals),
// L = (u * w) * v). Kept so the report can show what they do.
Rules segsum_cuh_rules(int Q = 64, int q = 16);
// "ok" or a static message saying what is wrong with r.
const char* check_rules(const Rules& r);

// ---- one tile --------------------------------------------------------------
// a: the tile's Q log-decays (<= 0). Outputs (any may be nullptr):
//   mask  Q*Q row-major, mask[i*Q + j] = L_ij (exactly 0 for j > i)
//   e     Q: e_j = exp(a_{j+1} + ... + a_{Q-1}), decay from token j to the tile end
//         (the kernel's to_end before the multiplication by dt_j)
//   p     Q: p_i = exp(a_0 + ... + a_i), read-out decay of the incoming state
//   total exp(a_0 + ... + a_{Q-1}), decay of the state across the tile
void segsum_tile_f32(Variant v, const Rules& rules, const float* a, float* mask, float* e, float* p,
                     float* total);
// Float64 truth for the same float inputs: every entry an ascending direct sum
// of the (exact) float a's in double, then exp.
void segsum_tile_f64(const float* a, int Q, double* mask, double* e, double* p, double* total);

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
//   S = C B^T; M_ij = (S_ij * L_ij) * dt_j      (j <= i; 0 above)
//   Y = M X + diag(p) (C h^T)                   (h: the incoming state)
//   h = total * h + X^T diag(dt * e) B
// y: T x P, h_final: P x N (either may be nullptr).
void ssd_chunked_f32(Variant v, const Rules& rules, const SsdInput& in, float* y, float* h_final);

// Float64 sequential recurrence, the truth for the same inputs:
//   h_t = exp(dt_t A) h_{t-1} + dt_t x_t B_t^T,  y_t = h_t C_t.
void ssd_recurrence_f64(const SsdInput& in, double* y, double* h_final);

}  // namespace stability
}  // namespace flashssd
