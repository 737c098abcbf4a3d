// Float32 emulation of the kernel's decay-mask rules; see segsum_emulation.h.
//
// Every float operation below is one the device performs (segsum.cuh:
// prepare_tile_decay, apply_decay_mask), in the device's order (no FMA
// contraction: this file is built with -ffp-contract=off; the device code has
// no a * b + c pattern in these paths either).
//
// Why the direct / hierarchical rules are monotone and <= 1 (what the suite
// asserts; dt = 1):
//  (a) fl(x + y) and fl(x * y) are monotone in x; exp is monotone (fast_exp
//      too: ex2.approx is monotone, and the flush to 0 keeps it so).
//  (b) Ascending sums of non-positive terms: fl(s + a) <= s, so prefixes only
//      go down, and a sum with one more term in FRONT is also smaller:
//      (a_j + a_{j+1}) + ... <= a_{j+1} + ... step by step. Hence, in a block,
//      c_{i+1} <= c_i, r_{j-1} <= r_j, D_{i+1,j} <= D_ij, D_{i,j-1} <= D_ij,
//      T_K = c_{e(K)} <= r_{s(K)}, c_i <= D_{i,s(I)}; and r_j == D_{e(J),j}
//      bitwise (the same ascending sum).
//  (c) Every factor is exp(<= 0) <= 1, so every product is <= each factor.
//  Rows, crossing from block I-1 into I (column j in block J < I-1):
//      L[e(I-1)][j] = u_{e(I-1)} * G[I-1][j] = E_{I-1} * G[I-1][j] = G[I][j]
//      >= u_{s(I)} * G[I][j] = L[s(I)][j].  For J = I-1: L[e(J)][j] =
//      exp(D_{e(J),j}) = v_j = G[J+1][j] >= u * v_j.
//  Columns, crossing from block J-1 into J (row i in block I > J):
//      G[I][e(J-1)] = chain(1 * E_J) <= chain(v_{s(J)}) = G[I][s(J)] since
//      E_J = exp(T_J) <= exp(r_{s(J)}); into the diagonal block: L[i][e(I-1)]
//      = u_i * 1 = exp(c_i) <= exp(D_{i,s(I)}) = L[i][s(I)].
//  None of these steps holds for Hillis-Steele scans (windows of different
//  trees: c_{i+1} > c_i by an ulp is possible, e.g. after a run of zeros: the
//  diff variant shows it), nor for exp(x + y) against exp(x) * exp(y) (either
//  may be the larger), which is why segsum.cuh uses sequential sums and the
//  column chain for the hierarchical variant.
#include "segsum_emulation.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

namespace flashssd {
namespace stability {

const char* variant_name(Variant v) {
  switch (v) {
    case Variant::kDiff: return "diff";
    case Variant::kDirect: return "direct";
    case Variant::kHierarchical: return "hierarchical";
  }
  return "?";
}

Rules device_rules(int Q, int q) {
  Rules r;
  r.Q = Q;
  r.q = q;
  return r;
}

const char* check_rules(const Rules& r) {
  if (r.Q < 1 || r.q < 1) return "Q and q must be >= 1";
  if (r.q > r.Q) return "q must be <= Q";
  if (r.Q % r.q != 0) return "Q must be a multiple of q";
  if ((r.q & (r.q - 1)) != 0) return "q must be a power of two (shuffle width of the diff scan)";
  return "ok";
}

// Rule X: the exponential, fast_exp(x) = ex2.approx.ftz.f32(x * 1.4426950408889634f).
// The product is rounded to float first (that rounding, ~|x| * 2^-24, dominates
// the error for large |x|), then 2^y; .ftz flushes results below 2^-126 to +0.
float fast_exp_f32(float x) {
  const float kLog2e = 1.4426950408889634f;
  const float y = x * kLog2e;
  const float r = std::exp2(y);
  return r < FLT_MIN ? 0.0f : r;  // NaN stays NaN
}

int mask_exp_factors(Variant v, const Rules& R, int i, int j) {
  if (j > i) return 0;
  const int I = i / R.q, J = j / R.q;
  if (v != Variant::kHierarchical || I == J) return 1;
  return 2 + (I - J - 1);  // u_i, v_j, E_{J+1} .. E_{I-1}
}

int e_exp_factors(Variant v, const Rules& R, int j) {
  if (v != Variant::kHierarchical) return 1;
  return 1 + (R.Q / R.q - 1 - j / R.q);  // v_j, E_{J+1} .. E_{nb-1}
}

namespace {

// Rule S-diff: Hillis-Steele in-block inclusive prefix, as segsum.cuh's
// __shfl_up_sync(.., off, q) loop: for off = 1, 2, 4, ... < q, lanes l >= off
// do x_l <- x_l + x_{l-off} (every lane reads the previous step's values).
void block_prefix_hillis_steele(const float* a, int q, float* c) {
  std::vector<float> old(q);
  for (int l = 0; l < q; ++l) c[l] = a[l];
  for (int off = 1; off < q; off <<= 1) {
    std::copy(c, c + q, old.begin());
    for (int l = off; l < q; ++l) c[l] = old[l] + old[l - off];
  }
}

// Rule S: sequential in-block sums (direct, hierarchical). Each lane l starts
// from 0.f and adds the block's a's in ascending index order: the inclusive
// prefix c_l = a_0 + ... + a_l and the exclusive suffix r_l = a_{l+1} + ... +
// a_{q-1} (0 for the last lane; the same additions in the same order as the
// diagonal-block sum D_{e,l}).
void block_prefix_sequential(const float* a, int q, float* c) {
  float s = 0.f;
  for (int l = 0; l < q; ++l) {
    s = s + a[l];
    c[l] = s;
  }
}
void block_suffix_sequential(const float* a, int q, float* r) {
  for (int l = 0; l < q; ++l) {
    float s = 0.f;
    for (int k = l + 1; k < q; ++k) s = s + a[k];
    r[l] = s;
  }
}

// Rule D: direct ascending sum a_{j+1} + ... + a_i starting from 0.f (empty: 0).
inline float direct_sum(const float* a, int j, int i) {
  float s = 0.f;
  for (int k = j + 1; k <= i; ++k) s = s + a[k];
  return s;
}

}  // namespace

void segsum_tile_f32(Variant v, const Rules& R, const float* a, float* mask, float* e, float* p,
                     float* total, const float* dt_in) {
  const int Q = R.Q, q = R.q, nb = R.Q / R.q;
  std::vector<float> dt(Q, 1.0f);
  if (dt_in) std::copy(dt_in, dt_in + Q, dt.begin());

  // Rule S1/S2/S3: per block K, prefix c, exclusive suffix r (not used by
  // diff), total T_K = c_{e(K)} (bitwise the last prefix).
  std::vector<float> c(Q), r(Q, 0.f), T(nb);
  for (int K = 0; K < nb; ++K) {
    if (v == Variant::kDiff) {
      block_prefix_hillis_steele(a + K * q, q, c.data() + K * q);
    } else {
      block_prefix_sequential(a + K * q, q, c.data() + K * q);
      block_suffix_sequential(a + K * q, q, r.data() + K * q);
    }
    T[K] = c[K * q + q - 1];
  }
  // Rule S4: sums of block totals are ascending over K starting from 0.f:
  // before_I = T_0 + ... + T_{I-1}, all = T_0 + ... + T_{nb-1}. The tile
  // cumsum is cs_i = before_I + c_i.
  std::vector<float> before(nb, 0.f);
  for (int I = 0; I < nb; ++I) {
    float s = 0.f;
    for (int K = 0; K < I; ++K) s = s + T[K];
    before[I] = s;
  }
  float all = 0.f;
  for (int K = 0; K < nb; ++K) all = all + T[K];
  std::vector<float> cs(Q);
  for (int t = 0; t < Q; ++t) cs[t] = before[t / q] + c[t];

  // Rule P: read-out p_i = exp(cs_i) and total decay exp(all), every variant.
  if (p)
    for (int t = 0; t < Q; ++t) p[t] = fast_exp_f32(cs[t]);
  if (total) *total = fast_exp_f32(all);

  // Rule H: hierarchical factors u_i = exp(c_i), v_j = exp(r_j), E_K = exp(T_K);
  // the column chain, one factor at a time in ascending K:
  //   g = v_j; for I > J: G(I, j) = g; g = g * E_I.   e_j = dt_j * g (at I = nb).
  // The kernel stores G(I, j) * dt_j; the mask entry is u_i * (G(I, j) * dt_j).
  std::vector<float> u(Q), E(nb), chain_dt(static_cast<size_t>(nb) * Q, 0.f), to_end_h(Q);
  if (v == Variant::kHierarchical) {
    for (int K = 0; K < nb; ++K) E[K] = fast_exp_f32(T[K]);
    for (int t = 0; t < Q; ++t) {
      u[t] = fast_exp_f32(c[t]);
      float g = fast_exp_f32(r[t]);  // v_t
      for (int I = t / q + 1; I < nb; ++I) {
        chain_dt[static_cast<size_t>(I) * Q + t] = g * dt[t];
        g = g * E[I];
      }
      to_end_h[t] = g;
    }
  }

  // Rule E: to_end = dt_j * e_j.
  if (e) {
    for (int j = 0; j < Q; ++j) {
      float ej = 1.f;
      switch (v) {
        case Variant::kDiff: ej = fast_exp_f32(all - cs[j]); break;  // the prefix subtraction
        case Variant::kDirect: ej = fast_exp_f32(direct_sum(a, j, Q - 1)); break;
        case Variant::kHierarchical: ej = to_end_h[j]; break;  // the chain to the tile end
      }
      e[j] = dt[j] * ej;
    }
  }

  if (!mask) return;
  // Rule M: the mask times dt_j. Above the diagonal the value is selected to 0
  // (never a multiplication by 0, which would turn an overflowed exp into NaN).
  for (int i = 0; i < Q; ++i) {
    for (int j = 0; j < Q; ++j) {
      float L;
      if (j > i) {
        L = 0.f;
      } else if (v == Variant::kDiff) {  // exp(cs_i - cs_j) * dt_j
        L = fast_exp_f32(cs[i] - cs[j]) * dt[j];
      } else if (v == Variant::kDirect || i / q == j / q) {
        // direct, and the hierarchical diagonal blocks (at most q - 1 terms):
        // exp(ascending a_{j+1} + ... + a_i) * dt_j
        L = fast_exp_f32(direct_sum(a, j, i)) * dt[j];
      } else {  // rank-one block: u_i * (G(I, j) * dt_j)
        L = u[i] * chain_dt[static_cast<size_t>(i / q) * Q + j];
      }
      mask[i * Q + j] = L;
    }
  }
}

void state_pass_weights_f32(const float* a, const float* dt, float* e, float* total) {
  constexpr int kLanes = 32;
  float pair[kLanes], after[kLanes];
  for (int l = 0; l < kLanes; ++l) pair[l] = a[2 * l] + a[2 * l + 1];
  for (int l = 0; l < kLanes; ++l) after[l] = l + 1 < kLanes ? pair[l + 1] : 0.0f;
  for (int offset = 1; offset < kLanes; offset *= 2) {
    float next[kLanes];
    for (int l = 0; l < kLanes; ++l) next[l] = l + offset < kLanes ? after[l] + after[l + offset] : after[l];
    std::copy(next, next + kLanes, after);
  }
  for (int l = 0; l < kLanes; ++l) {
    const float d0 = dt ? dt[2 * l] : 1.0f, d1 = dt ? dt[2 * l + 1] : 1.0f;
    e[2 * l] = d0 * fast_exp_f32(after[l] + a[2 * l + 1]);
    e[2 * l + 1] = d1 * fast_exp_f32(after[l]);
  }
  if (total) *total = fast_exp_f32(after[0] + pair[0]);
}

void state_pass_pair_weights_f32(const float* a, const float* dt, float* e, float* total) {
  constexpr int kQ = 64;
  float total_a, total_b;
  state_pass_weights_f32(a, dt, e, &total_a);
  state_pass_weights_f32(a + kQ, dt ? dt + kQ : nullptr, e + kQ, &total_b);
  for (int j = 0; j < kQ; ++j) e[j] *= total_b;
  if (total) *total = total_a * total_b;
}

void segsum_tile_f64(const float* a, int Q, double* mask, double* e, double* p, double* total) {
  auto dsum = [&](int from, int to) {  // ascending sum of a[from..to] in double
    double s = 0.0;
    for (int k = from; k <= to; ++k) s += static_cast<double>(a[k]);
    return s;
  };
  if (mask)
    for (int i = 0; i < Q; ++i)
      for (int j = 0; j < Q; ++j) mask[i * Q + j] = (j > i) ? 0.0 : std::exp(dsum(j + 1, i));
  if (e)
    for (int j = 0; j < Q; ++j) e[j] = std::exp(dsum(j + 1, Q - 1));
  if (p)
    for (int i = 0; i < Q; ++i) p[i] = std::exp(dsum(0, i));
  if (total) *total = std::exp(dsum(0, Q - 1));
}

void ssd_chunked_f32(Variant v, const Rules& R, const SsdInput& in, float* y, float* h_final) {
  const int Q = R.Q, P = in.P, N = in.N;
  std::vector<float> h(static_cast<size_t>(P) * N, 0.f);
  if (in.h0) std::copy(in.h0, in.h0 + static_cast<size_t>(P) * N, h.begin());

  std::vector<float> a(Q), dtt(Q), L(static_cast<size_t>(Q) * Q), e(Q), p(Q);
  std::vector<float> S(static_cast<size_t>(Q) * Q), Ch(static_cast<size_t>(Q) * P);
  for (int t0 = 0; t0 < in.T; t0 += Q) {
    const int len = std::min(Q, in.T - t0);
    // Padding past the sequence: a = dt = 0 (exact: adds 0, multiplies by 1).
    for (int k = 0; k < Q; ++k) {
      dtt[k] = (k < len) ? in.dt[t0 + k] : 0.f;
      a[k] = dtt[k] * in.A;  // a = dt * A, rounded to float
    }
    float total = 1.f;  // L: the mask times dt_j, e: to_end = dt_j * e_j, as the kernel forms them
    segsum_tile_f32(v, R, a.data(), L.data(), e.data(), p.data(), &total, dtt.data());

    const float* X = in.x + static_cast<size_t>(t0) * P;
    const float* Bt = in.B + static_cast<size_t>(t0) * N;
    const float* Ct = in.C + static_cast<size_t>(t0) * N;
    // S = C B^T, then M = S * (L dt_j) on and below the diagonal.
    for (int i = 0; i < len; ++i)
      for (int j = 0; j <= i; ++j) {
        float s = 0.f;
        for (int n = 0; n < N; ++n) s += Ct[i * N + n] * Bt[j * N + n];
        S[i * Q + j] = s * L[i * Q + j];
      }
    // C h^T with the incoming state.
    for (int i = 0; i < len; ++i)
      for (int pp = 0; pp < P; ++pp) {
        float s = 0.f;
        for (int n = 0; n < N; ++n) s += Ct[i * N + n] * h[static_cast<size_t>(pp) * N + n];
        Ch[i * P + pp] = s;
      }
    // Y = M X + diag(p) C h^T.
    if (y)
      for (int i = 0; i < len; ++i)
        for (int pp = 0; pp < P; ++pp) {
          float s = 0.f;
          for (int j = 0; j <= i; ++j) s += S[i * Q + j] * X[j * P + pp];
          y[static_cast<size_t>(t0 + i) * P + pp] = s + p[i] * Ch[i * P + pp];
        }
    // h = total * h + X^T diag(dt * e) B: the kernel weights B's rows by
    // to_end_j = dt_j * e_j (e above), then multiplies by X^T.
    for (int pp = 0; pp < P; ++pp)
      for (int n = 0; n < N; ++n) {
        float s = 0.f;
        for (int j = 0; j < len; ++j) s += X[j * P + pp] * (Bt[j * N + n] * e[j]);
        float& hv = h[static_cast<size_t>(pp) * N + n];
        hv = total * hv + s;
      }
  }
  if (h_final) std::copy(h.begin(), h.end(), h_final);
}

void ssd_recurrence_f64(const SsdInput& in, double* y, double* h_final) {
  const int P = in.P, N = in.N;
  std::vector<double> h(static_cast<size_t>(P) * N, 0.0);
  if (in.h0)
    for (size_t k = 0; k < h.size(); ++k) h[k] = in.h0[k];
  const double A = in.A;
  for (int t = 0; t < in.T; ++t) {
    const double dt = in.dt[t];
    const double decay = std::exp(dt * A);  // dt * A is exact in double
    const float* xt = in.x + static_cast<size_t>(t) * P;
    const float* Bt = in.B + static_cast<size_t>(t) * N;
    const float* Ct = in.C + static_cast<size_t>(t) * N;
    for (int pp = 0; pp < P; ++pp) {
      double* hp = h.data() + static_cast<size_t>(pp) * N;
      const double dx = dt * xt[pp];
      double acc = 0.0;
      for (int n = 0; n < N; ++n) {
        hp[n] = decay * hp[n] + dx * Bt[n];
        acc += hp[n] * Ct[n];
      }
      if (y) y[static_cast<size_t>(t) * P + pp] = acc;
    }
  }
  if (h_final) std::copy(h.begin(), h.end(), h_final);
}

}  // namespace stability
}  // namespace flashssd
