// Float32 emulation of the kernel's decay-mask rules; see segsum_emulation.h.
//
// Every float operation below is one the device performs, in the device's
// order (no FMA contraction: this file is built with -ffp-contract=off).
//
// Why kSequential + kChain is monotone and <= 1 (what the suite asserts):
//  (a) fl(x + y) and fl(x * y) are monotone in x; exp is monotone.
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
//  trees: c_{i+1} > c_i by an ulp is possible, e.g. after a run of zeros), nor
//  for exp(x + y) against exp(x) * exp(y) (either may be the larger).
#include "segsum_emulation.h"

#include <algorithm>
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

Rules recommended_rules(int Q, int q) {
  Rules r;
  r.Q = Q;
  r.q = q;
  r.diff_scan = Scan::kHillisSteele;
  r.scan = Scan::kSequential;
  r.offdiag = OffDiag::kChain;
  r.exp = ExpFn::kFastExp2;
  return r;
}

Rules segsum_cuh_rules(int Q, int q) {
  Rules r;
  r.Q = Q;
  r.q = q;
  r.diff_scan = Scan::kHillisSteele;
  r.scan = Scan::kHillisSteele;
  r.offdiag = OffDiag::kExpOfSum;
  r.exp = ExpFn::kFastExp2;
  return r;
}

const char* check_rules(const Rules& r) {
  if (r.Q < 1 || r.q < 1) return "Q and q must be >= 1";
  if (r.q > r.Q) return "q must be <= Q";
  if (r.Q % r.q != 0) return "Q must be a multiple of q";
  return "ok";
}

namespace {

// Rule X: the exponential. __expf(x) is ex2.approx(x * log2(e)): the product is
// rounded to float first (that rounding, ~|x| * 2^-24, dominates the error for
// large |x|), then 2^y.
inline float dev_exp(ExpFn f, float x) {
  if (f == ExpFn::kLibm) return std::exp(x);
  const float kLog2e = 1.4426950408889634f;
  const float y = x * kLog2e;
  return std::exp2(y);
}

// Rule S1: in-block inclusive prefix c[l] = a[0] + ... + a[l] (block-local).
void block_prefix(Scan scan, const float* a, int q, float* c) {
  if (scan == Scan::kSequential) {
    // each lane: s = 0; for k = 0..l: s += a[k]  (ascending)
    float s = 0.f;
    for (int l = 0; l < q; ++l) {
      s = s + a[l];
      c[l] = s;
    }
    return;
  }
  // Hillis-Steele: for off = 1, 2, 4, ... < q: lanes l >= off do
  // x_l <- x_l + x_{l-off} (all lanes read the previous step's values).
  std::vector<float> old(q);
  for (int l = 0; l < q; ++l) c[l] = a[l];
  for (int off = 1; off < q; off <<= 1) {
    std::copy(c, c + q, old.begin());
    for (int l = off; l < q; ++l) c[l] = old[l] + old[l - off];
  }
}

// Rule S2: in-block exclusive suffix r[l] = a[l+1] + ... + a[q-1] (0 for the
// last lane).
void block_suffix_excl(Scan scan, const float* a, int q, float* r) {
  if (scan == Scan::kSequential) {
    // each lane: s = 0; for k = l+1..q-1: s += a[k]  (ascending: the same
    // additions, in the same order, as the diagonal-block sum D_{e,l})
    for (int l = 0; l < q; ++l) {
      float s = 0.f;
      for (int k = l + 1; k < q; ++k) s = s + a[k];
      r[l] = s;
    }
    return;
  }
  // Hillis-Steele inclusive suffix (lanes l + off < q do x_l <- x_l + x_{l+off}),
  // then shifted down one lane (__shfl_down_sync(.., 1)); the last lane gets 0.
  std::vector<float> incl(a, a + q), old(q);
  for (int off = 1; off < q; off <<= 1) {
    old = incl;
    for (int l = 0; l + off < q; ++l) incl[l] = old[l] + old[l + off];
  }
  for (int l = 0; l < q; ++l) r[l] = (l + 1 < q) ? incl[l + 1] : 0.f;
}

// Rule D: direct ascending sum a_{j+1} + ... + a_i starting from 0.f (empty: 0).
inline float direct_sum(const float* a, int j, int i) {
  float s = 0.f;
  for (int k = j + 1; k <= i; ++k) s = s + a[k];
  return s;
}

}  // namespace

void segsum_tile_f32(Variant v, const Rules& R, const float* a, float* mask, float* e, float* p,
                     float* total) {
  const int Q = R.Q, q = R.q, nb = R.Q / R.q;
  const Scan scan = (v == Variant::kDiff) ? R.diff_scan : R.scan;

  // Rule S1/S2/S3: per block K, prefix c, exclusive suffix r, total T_K = c_{e(K)}.
  std::vector<float> c(Q), r(Q), T(nb);
  for (int K = 0; K < nb; ++K) {
    block_prefix(scan, a + K * q, q, c.data() + K * q);
    block_suffix_excl(scan, a + K * q, q, r.data() + K * q);
    T[K] = c[K * q + q - 1];
  }
  // Rule S4: sums of block totals (cross-warp, through shared memory) are
  // ascending over K starting from 0.f: before_I = T_0 + ... + T_{I-1},
  // all = T_0 + ... + T_{nb-1}. The tile cumsum is cs_i = before_I + c_i.
  std::vector<float> before(nb + 1);
  before[0] = 0.f;
  for (int K = 0; K < nb; ++K) before[K + 1] = before[K] + T[K];
  float all = 0.f;
  for (int K = 0; K < nb; ++K) all = all + T[K];
  std::vector<float> cs(Q);
  for (int t = 0; t < Q; ++t) cs[t] = before[t / q] + c[t];

  // Rule P: read-out p_i = exp(cs_i) and total decay exp(all) (one sign each).
  if (p)
    for (int t = 0; t < Q; ++t) p[t] = dev_exp(R.exp, cs[t]);
  if (total) *total = dev_exp(R.exp, all);

  // Rule H: hierarchical factors u_i = exp(c_i), v_j = exp(r_j), E_K = exp(T_K).
  std::vector<float> u(Q), vv(Q), E(nb);
  if (v == Variant::kHierarchical) {
    for (int t = 0; t < Q; ++t) {
      u[t] = dev_exp(R.exp, c[t]);
      vv[t] = dev_exp(R.exp, r[t]);
    }
    for (int K = 0; K < nb; ++K) E[K] = dev_exp(R.exp, T[K]);
  }
  // Rule H-chain: G(I, j) = v_j * E_{J+1} * ... * E_{I-1}, multiplied one
  // factor at a time in ascending K (g = g * E_K), J = j / q < I.
  auto chain = [&](int I, int j) {
    float g = vv[j];
    for (int K = j / q + 1; K < I; ++K) g = g * E[K];
    return g;
  };
  // Rule H-expsum: w_IJ = exp(0 + T_{J+1} + ... + T_{I-1}) (ascending).
  auto w_expsum = [&](int I, int J) {
    float between = 0.f;
    for (int K = J + 1; K < I; ++K) between = between + T[K];
    return dev_exp(R.exp, between);
  };

  // Rule E: decay to the tile end e_j.
  if (e) {
    for (int j = 0; j < Q; ++j) {
      const int J = j / q;
      switch (v) {
        case Variant::kDiff:  // exp(all - cs_j): the prefix subtraction
          e[j] = dev_exp(R.exp, all - cs[j]);
          break;
        case Variant::kDirect:  // exp(a_{j+1} + ... + a_{Q-1}), ascending
          e[j] = dev_exp(R.exp, direct_sum(a, j, Q - 1));
          break;
        case Variant::kHierarchical:
          if (R.offdiag == OffDiag::kChain) {
            e[j] = chain(nb, j);  // the column chain continued to the tile end
          } else {
            float after = 0.f;  // 0 + T_{J+1} + ... + T_{nb-1}
            for (int K = J + 1; K < nb; ++K) after = after + T[K];
            e[j] = vv[j] * dev_exp(R.exp, after);
          }
          break;
      }
    }
  }

  if (!mask) return;
  // Rule M: the mask. Above the diagonal the value is selected to 0 (never a
  // multiplication by 0, which would turn an overflowed exp into NaN).
  for (int i = 0; i < Q; ++i) {
    for (int j = 0; j < Q; ++j) {
      float L;
      if (j > i) {
        L = 0.f;
      } else if (v == Variant::kDiff) {  // exp(cs_i - cs_j)
        L = dev_exp(R.exp, cs[i] - cs[j]);
      } else if (v == Variant::kDirect) {  // exp(ascending a_{j+1} + ... + a_i)
        L = dev_exp(R.exp, direct_sum(a, j, i));
      } else {
        const int I = i / q, J = j / q;
        if (I == J) {  // diagonal block: direct sum of at most q - 1 terms
          L = dev_exp(R.exp, direct_sum(a, j, i));
        } else if (R.offdiag == OffDiag::kChain) {  // u_i * G(I, j)
          L = u[i] * chain(I, j);
        } else {  // (u_i * w_IJ) * v_j
          L = (u[i] * w_expsum(I, J)) * vv[j];
        }
      }
      mask[i * Q + j] = L;
    }
  }
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
  std::vector<float> S(static_cast<size_t>(Q) * Q), Ch(static_cast<size_t>(Q) * P), w(Q);
  for (int t0 = 0; t0 < in.T; t0 += Q) {
    const int len = std::min(Q, in.T - t0);
    // Padding past the sequence: a = dt = 0 (exact: adds 0, multiplies by 1).
    for (int k = 0; k < Q; ++k) {
      dtt[k] = (k < len) ? in.dt[t0 + k] : 0.f;
      a[k] = dtt[k] * in.A;  // a = dt * A, rounded to float
    }
    float total = 1.f;
    segsum_tile_f32(v, R, a.data(), L.data(), e.data(), p.data(), &total);

    const float* X = in.x + static_cast<size_t>(t0) * P;
    const float* Bt = in.B + static_cast<size_t>(t0) * N;
    const float* Ct = in.C + static_cast<size_t>(t0) * N;
    // S = C B^T, then M = (S * L) * dt_j on and below the diagonal.
    for (int i = 0; i < len; ++i)
      for (int j = 0; j <= i; ++j) {
        float s = 0.f;
        for (int n = 0; n < N; ++n) s += Ct[i * N + n] * Bt[j * N + n];
        S[i * Q + j] = (s * L[i * Q + j]) * dtt[j];
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
    // to_end_j = dt_j * e_j, then multiplies by X^T.
    for (int j = 0; j < len; ++j) w[j] = dtt[j] * e[j];
    for (int pp = 0; pp < P; ++pp)
      for (int n = 0; n < N; ++n) {
        float s = 0.f;
        for (int j = 0; j < len; ++j) s += X[j * P + pp] * (Bt[j * N + n] * w[j]);
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
