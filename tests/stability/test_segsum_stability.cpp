// CPU stability suite of the decay-mask variants (issue 4, DESIGN.md section 4).
//
// The three variants are emulated in float32 with the rules of
// src/kernels/common/segsum.cuh (device_rules(), segsum_emulation.h: Q = 64,
// q = 8) and measured against float64 on adversarial log-decays,
// mask alone and end to end. Asserted for the hierarchical variant on every
// case: no entry > 1, no monotonicity violation, nothing non-finite, error no
// worse than twice the direct variant's (with a rounding-level floor, below).
// The diff variant's failures are measured, printed, and required to show up
// (so that a change that hides them is noticed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <initializer_list>
#include <string>
#include <vector>

#include "segsum_emulation.h"
#include "stability_metrics.h"
#include "stability_suite.h"

namespace flashssd {
namespace stability {
namespace {

// Floor of the "<= 2x direct" comparisons. When both variants are at rounding
// level (tiny decays: every exponent in [-0.64, 0]; or cases where direct is
// exact), 2x direct is a coin toss between 1 and 3 ulps: direct rounds one sum
// and one exp, a hierarchical off-diagonal entry at Q = 64, q = 8 is a product
// of up to 8 exps (u, v and the block decays E_1 .. E_6) with 7 multiplies,
// each within half an ulp (<= 2^-24 relative for values in (0.5, 1]) in this
// emulation, i.e. <= 15 * 6e-8 = 9e-7 < 1e-6 in the worst case (measured:
// 2.7e-7 against direct's 8.8e-8 on tiny_only). Any real loss of accuracy (a
// cancellation) is orders of magnitude above 1e-6 (diff: ~1e-3). End to end,
// both variants share the same float32 GEMM code, whose rounding (~1e-7
// relative) dominates; the same floor applies. (The device suite,
// tests/gpu/test_segsum_gpu.cpp, uses 1.5e-6: ex2.approx is within 2 ulp.)
constexpr double kRoundingFloor = 1e-6;

double bound(double direct) { return std::max(2.0 * direct, kRoundingFloor); }

// Q tokens of a packed row: decays a in (-0.5, 0] and processed dt in [0.01, 1), then a = -inf
// at `resets` (where sequences start), with float64's weights exp(a_{j+1} + ...) (eref).
struct ResetTokens {
  std::vector<float> a, dt;
  std::vector<double> eref;
};
ResetTokens reset_tokens(int Q, uint64_t seed, std::initializer_list<int> resets) {
  ResetTokens r{std::vector<float>(Q), std::vector<float>(Q), std::vector<double>(Q)};
  SplitMix64 g(seed);
  for (int k = 0; k < Q; ++k) {
    r.a[k] = static_cast<float>(-g.uniform(0.0, 0.5));
    r.dt[k] = static_cast<float>(g.uniform(0.01, 1.0));
  }
  for (int s : resets) r.a[s] = -INFINITY;
  std::vector<double> L(Q * Q), p(Q);
  double total;
  segsum_tile_f64(r.a.data(), Q, L.data(), r.eref.data(), p.data(), &total);
  return r;
}

// ---- the metrics themselves --------------------------------------------------------
TEST(StabilityMetrics, CountsEachFailureKind) {
  const int Q = 4;
  // Exact mask for a = {0, -1, -1, -1}.
  std::vector<float> a = {0.f, -1.f, -1.f, -1.f};
  std::vector<double> ref(Q * Q);
  segsum_tile_f64(a.data(), Q, ref.data(), nullptr, nullptr, nullptr);
  std::vector<float> L(Q * Q);
  for (int k = 0; k < Q * Q; ++k) L[k] = static_cast<float>(ref[k]);
  MaskMetrics clean = mask_metrics(L.data(), ref.data(), Q);
  EXPECT_EQ(clean.entries_gt_1, 0);
  EXPECT_EQ(clean.monotonicity_violations, 0);
  EXPECT_EQ(clean.nonfinite, 0);
  EXPECT_EQ(clean.upper_nonzero, 0);
  EXPECT_EQ(clean.entries, 10);
  EXPECT_LT(clean.max_rel_err, 1e-7);

  std::vector<float> bad = L;
  bad[1 * Q + 0] = 1.5f;                // > 1; also breaks the column (L[1][0] > L[0][0])
                                        // and the row (L[1][0] > L[1][1])
  bad[3 * Q + 1] = 0.9f;                // L[3][1] > L[2][1] = e^-1 and L[3][1] > L[3][2] = e^-1
  bad[2 * Q + 0] = NAN;                 // non-finite
  bad[0 * Q + 3] = 1e-3f;               // above the diagonal
  MaskMetrics m = mask_metrics(bad.data(), ref.data(), Q);
  EXPECT_EQ(m.entries_gt_1, 1);
  EXPECT_EQ(m.nonfinite, 1);
  EXPECT_EQ(m.upper_nonzero, 1);
  EXPECT_EQ(m.monotonicity_violations, 4);
  // worst: L[3][1] = 0.9 against e^-2
  EXPECT_NEAR(m.max_rel_err, (0.9 - std::exp(-2.0)) / std::exp(-2.0), 1e-6);

  MaskMetrics sum = clean;
  sum.merge(m);
  EXPECT_EQ(sum.tiles, 2);
  EXPECT_EQ(sum.entries_gt_1, 1);
  EXPECT_DOUBLE_EQ(sum.max_rel_err, m.max_rel_err);
}

TEST(StabilityMetrics, RelativeErrorIgnoresEntriesBelowTheFloor) {
  const int Q = 2;
  const double ref[4] = {1.0, 0.0, 1e-35, 1.0};
  const float L[4] = {1.f, 0.f, 0.f, 1.f};
  MaskMetrics m = mask_metrics(L, ref, Q);
  EXPECT_EQ(m.max_rel_err, 0.0);
  EXPECT_DOUBLE_EQ(m.max_abs_err_below_floor, 1e-35);
}

TEST(StabilityMetrics, VectorAndEndToEnd) {
  const float e[4] = {0.25f, 0.5f, 0.4f, 1.f};
  const double eref[4] = {0.25, 0.5, 0.5, 1.0};
  VectorMetrics v = vector_metrics(e, eref, 4, Order::kNonDecreasing);
  EXPECT_EQ(v.order_violations, 1);
  EXPECT_NEAR(v.max_rel_err, 0.2, 1e-7);
  EXPECT_EQ(vector_metrics(e, eref, 4, Order::kNonIncreasing).order_violations, 2);

  const float y[3] = {1.f, 2.f, INFINITY};
  const double yref[3] = {1.0, 2.0, 2.0};
  const float h[2] = {3.f, 4.f};
  const double href[2] = {3.0, 4.0 + 1e-3};
  E2eMetrics m = e2e_metrics(y, yref, 3, h, href, 2);
  EXPECT_EQ(m.nonfinite, 1);
  EXPECT_EQ(m.y_rel_err, 0.0);  // non-finite entries are counted, not folded into the norm
  EXPECT_NEAR(m.state_rel_err, 1e-3 / 5.0, 1e-6);
}

TEST(StabilityMetrics, GeneratorsAreDeterministicAndNonPositive) {
  for (int k = 0; k < kNumDecayKinds; ++k) {
    const DecayKind kind = static_cast<DecayKind>(k);
    const std::vector<float> a = make_decays(kind, 5000, 42);
    const std::vector<float> b = make_decays(kind, 5000, 42);
    ASSERT_EQ(a.size(), 5000u);
    EXPECT_EQ(a, b) << decay_kind_name(kind);
    int zeros = 0;
    float lo = 0.f;
    for (float x : a) {
      ASSERT_LE(x, 0.f) << decay_kind_name(kind);
      ASSERT_TRUE(std::isfinite(x));
      zeros += (x == 0.f);
      lo = std::min(lo, x);
    }
    EXPECT_GE(lo, -1000.001f) << decay_kind_name(kind);
    if (kind == DecayKind::kZerosAfterLarge || kind == DecayKind::kZerosTinyAfterLarge ||
        kind == DecayKind::kMixture) {
      EXPECT_GT(zeros, 100) << decay_kind_name(kind);
    }
    if (kind == DecayKind::kLogUniform) {
      EXPECT_LT(lo, -500.f);
    }
  }
  EXPECT_NE(make_decays(DecayKind::kLogUniform, 100, 1), make_decays(DecayKind::kLogUniform, 100, 2));
}

// ---- the emulated fast_exp -----------------------------------------------------------
TEST(FastExpEmulation, FlushesBelowFltMinAndIsExactAtZero) {
  EXPECT_EQ(fast_exp_f32(0.0f), 1.0f);
  EXPECT_EQ(fast_exp_f32(-0.0f), 1.0f);
  // e^-87 = 1.6e-38 >= FLT_MIN: normal; e^-87.5 = 9.9e-39 and e^-100 would be
  // denormal: .ftz gives exactly +0.
  EXPECT_GE(fast_exp_f32(-87.0f), FLT_MIN);
  EXPECT_EQ(fast_exp_f32(-87.5f), 0.0f);
  EXPECT_FALSE(std::signbit(fast_exp_f32(-100.0f)));
  EXPECT_EQ(fast_exp_f32(-100.0f), 0.0f);
  EXPECT_EQ(fast_exp_f32(-1000.0f), 0.0f);
  EXPECT_EQ(fast_exp_f32(-INFINITY), 0.0f);
  EXPECT_TRUE(std::isnan(fast_exp_f32(NAN)));
  // Monotone and within the argument rounding of exp.
  float prev = 1.0f;
  for (float x = 0.0f; x > -87.0f; x -= 0.37f) {
    const float y = fast_exp_f32(x);
    EXPECT_LE(y, prev);
    prev = y;
    EXPECT_NEAR(y, std::exp(static_cast<double>(x)), std::exp(static_cast<double>(x)) * (1e-6 + 1.2e-7 * -x));
  }
}

// dt = nullptr is dt = 1 bitwise; with dt, the mask is the decay times dt_j and
// to_end is dt_j * e_j (formed as the kernel forms them: within a rounding of
// the pure decay times dt).
TEST(SegsumEmulation, DtWeightsFollowTheKernel) {
  const Rules rules = device_rules();
  const int Q = rules.Q;
  const std::vector<float> a = make_decays(DecayKind::kMixture, Q, 9);
  SplitMix64 g(5);
  std::vector<float> dt(Q), ones(Q, 1.0f);
  for (auto& d : dt) d = static_cast<float>(g.uniform(0.0, 2.0));
  for (int vi = 0; vi < kNumVariants; ++vi) {
    const Variant v = static_cast<Variant>(vi);
    SCOPED_TRACE(variant_name(v));
    std::vector<float> L(Q * Q), L1(Q * Q), Ld(Q * Q), e(Q), e1(Q), ed(Q), p(Q), pd(Q);
    segsum_tile_f32(v, rules, a.data(), L.data(), e.data(), p.data(), nullptr);
    segsum_tile_f32(v, rules, a.data(), L1.data(), e1.data(), nullptr, nullptr, ones.data());
    segsum_tile_f32(v, rules, a.data(), Ld.data(), ed.data(), pd.data(), nullptr, dt.data());
    EXPECT_EQ(L, L1);
    EXPECT_EQ(e, e1);
    EXPECT_EQ(p, pd);  // the read-out does not depend on dt
    for (int i = 0; i < Q; ++i) {
      EXPECT_EQ(ed[i], dt[i] * e[i]);
      for (int j = 0; j < Q; ++j) {
        const float want = L[i * Q + j] * dt[j];
        EXPECT_NEAR(Ld[i * Q + j], want, 2.4e-7f * want) << i << "," << j;
      }
    }
  }
}

TEST(SegsumEmulation, ExpFactorCounts) {
  const Rules r = device_rules();
  EXPECT_EQ(mask_exp_factors(Variant::kDiff, r, 63, 0), 1);
  EXPECT_EQ(mask_exp_factors(Variant::kDirect, r, 63, 0), 1);
  EXPECT_EQ(mask_exp_factors(Variant::kHierarchical, r, 7, 0), 1);    // diagonal block
  EXPECT_EQ(mask_exp_factors(Variant::kHierarchical, r, 8, 7), 2);    // u, v
  EXPECT_EQ(mask_exp_factors(Variant::kHierarchical, r, 63, 0), 8);   // u, v, E_1 .. E_6
  EXPECT_EQ(mask_exp_factors(Variant::kHierarchical, r, 0, 1), 0);    // above the diagonal
  EXPECT_EQ(e_exp_factors(Variant::kHierarchical, r, 0), 8);          // v, E_1 .. E_7
  EXPECT_EQ(e_exp_factors(Variant::kHierarchical, r, 63), 1);
  EXPECT_EQ(e_exp_factors(Variant::kDiff, r, 0), 1);
}

// ---- the emulation is right where nothing is adversarial ----------------------------
TEST(SegsumEmulation, AllVariantsMatchFloat64OnBenignDecays) {
  for (const Rules& rules : {device_rules(), device_rules(128, 8), device_rules(64, 16)}) {
    const int Q = rules.Q;
    SplitMix64 g(3);
    std::vector<float> a(Q);
    for (auto& x : a) x = static_cast<float>(-g.uniform(0.0, 0.2));
    std::vector<double> Lref(Q * Q), eref(Q), pref(Q);
    double tref;
    segsum_tile_f64(a.data(), Q, Lref.data(), eref.data(), pref.data(), &tref);
    for (int vi = 0; vi < kNumVariants; ++vi) {
      std::vector<float> L(Q * Q), e(Q), p(Q);
      float total;
      segsum_tile_f32(static_cast<Variant>(vi), rules, a.data(), L.data(), e.data(), p.data(),
                      &total);
      const MaskMetrics m = mask_metrics(L.data(), Lref.data(), Q);
      SCOPED_TRACE(std::string(variant_name(static_cast<Variant>(vi))) + " " + describe_rules(rules));
      EXPECT_LT(m.max_rel_err, 1e-5);
      EXPECT_EQ(m.upper_nonzero, 0);
      EXPECT_LT(vector_metrics(e.data(), eref.data(), Q, Order::kNone).max_rel_err, 1e-5);
      EXPECT_LT(vector_metrics(p.data(), pref.data(), Q, Order::kNone).max_rel_err, 1e-5);
      EXPECT_NEAR(total, tref, 1e-5 * tref);
      for (int i = 0; i < Q; ++i) EXPECT_EQ(L[i * Q + i], 1.0f);  // exp of an empty sum
    }
  }
}

// Packed sequences on the Hopper kernel: a token that starts a sequence gets a = -inf
// (ssd_fwd_sm90.cuh). The hierarchical rules must carry it to exact zeros across the
// boundary, with nothing non-finite, and agree with float64 elsewhere; the diff rules
// would subtract -inf from -inf (NaN), which is why that kernel has no diff variant.
TEST(SegsumEmulation, MinusInfinityResetsHierarchicalExactlyWithoutNaN) {
  const Rules rules = device_rules();
  const int Q = rules.Q;
  // Resets on a block's first token (8), inside blocks (13, 14: a one-token sequence), on
  // a block's last token (23), the tile's first and last tokens (0, 63).
  const std::vector<int> starts = {0, 8, 13, 14, 23, 40, 63};
  auto reset_between = [&](int j, int i) {  // some start in (j, i]: L_ij must be 0
    for (int s : starts)
      if (s > j && s <= i) return true;
    return false;
  };
  SplitMix64 g(11);
  std::vector<float> a(Q), dt(Q);
  for (int k = 0; k < Q; ++k) {
    a[k] = static_cast<float>(-g.uniform(0.0, 0.5));
    dt[k] = static_cast<float>(g.uniform(0.01, 1.0));
  }
  for (int s : starts) a[s] = -INFINITY;
  std::vector<double> Lref(Q * Q), eref(Q), pref(Q);
  double tref;
  segsum_tile_f64(a.data(), Q, Lref.data(), eref.data(), pref.data(), &tref);
  std::vector<float> L(Q * Q), e(Q), p(Q);
  float total = -1.f;
  segsum_tile_f32(Variant::kHierarchical, rules, a.data(), L.data(), e.data(), p.data(), &total);
  EXPECT_EQ(total, 0.0f);  // the state does not survive the tile
  for (int i = 0; i < Q; ++i) {
    ASSERT_TRUE(std::isfinite(e[i]) && std::isfinite(p[i])) << "token " << i;
    EXPECT_EQ(p[i], 0.0f) << "read-out of the incoming state at token " << i;  // a_0 = -inf
    for (int j = 0; j <= i; ++j) {
      const float v = L[i * Q + j];
      ASSERT_TRUE(std::isfinite(v)) << "L(" << i << ", " << j << ")";
      if (reset_between(j, i)) {
        EXPECT_EQ(v, 0.0f) << "L(" << i << ", " << j << ") crosses a reset";
      } else {
        EXPECT_NEAR(v, Lref[i * Q + j], 1e-5 * Lref[i * Q + j] + 1e-30) << "L(" << i << ", " << j << ")";
        EXPECT_GT(v, 0.0f);
      }
    }
  }
  for (int j = 0; j < Q; ++j) {
    if (reset_between(j, Q - 1)) {
      EXPECT_EQ(e[j], 0.0f) << "weight of token " << j;
    } else {
      EXPECT_NEAR(e[j], eref[j], 1e-5 * eref[j]) << "weight of token " << j;
    }
  }
  // With the kernel's dt weights too (mask = L_ij dt_j): still finite, zero across resets.
  segsum_tile_f32(Variant::kHierarchical, rules, a.data(), L.data(), e.data(), p.data(), &total, dt.data());
  for (int i = 0; i < Q; ++i)
    for (int j = 0; j <= i; ++j) {
      ASSERT_TRUE(std::isfinite(L[i * Q + j]));
      if (reset_between(j, i)) {
        EXPECT_EQ(L[i * Q + j], 0.0f);
      }
    }
  // The diff rules on the same decays: cs_i - cs_j = -inf - -inf somewhere.
  segsum_tile_f32(Variant::kDiff, rules, a.data(), L.data(), e.data(), p.data(), &total);
  int nan = 0;
  for (int i = 0; i < Q; ++i)
    for (int j = 0; j <= i; ++j) nan += std::isnan(L[i * Q + j]);
  EXPECT_GT(nan, 0) << "the diff rules were expected to produce NaN from -inf decays";
}

// The Hopper state pass's weights (a warp's tree of suffix sums, not the hierarchical
// rules): on every decay kind of the adversarial suite, each weight within [0, dt], the
// total in [0, 1], nothing non-finite, and no further from float64 than the direct sums'
// weights (bound: twice theirs, or the rounding floor).
TEST(StatePassWeights, WarpTreeIsStableOnEveryDecayKind) {
  const Rules rules = device_rules();
  const int Q = rules.Q;
  ASSERT_EQ(Q, 64) << "one warp, two tokens per lane";
  for (int k = 0; k < kNumDecayKinds; ++k) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const DecayKind kind = static_cast<DecayKind>(k);
      SCOPED_TRACE(std::string(decay_kind_name(kind)) + " seed " + std::to_string(seed));
      const std::vector<float> a = make_decays(kind, Q, seed);
      std::vector<double> Lref(Q * Q), eref(Q), pref(Q);
      double tref;
      segsum_tile_f64(a.data(), Q, Lref.data(), eref.data(), pref.data(), &tref);
      std::vector<float> e(Q), e_direct(Q);
      float total = -1.f, total_direct = -1.f;
      state_pass_weights_f32(a.data(), nullptr, e.data(), &total);
      segsum_tile_f32(Variant::kDirect, rules, a.data(), nullptr, e_direct.data(), nullptr, &total_direct);
      const VectorMetrics m = vector_metrics(e.data(), eref.data(), Q, Order::kNone);
      const VectorMetrics md = vector_metrics(e_direct.data(), eref.data(), Q, Order::kNone);
      EXPECT_EQ(m.nonfinite + m.entries_gt_1, 0);
      EXPECT_LE(m.max_rel_err, bound(md.max_rel_err));
      for (int j = 0; j < Q; ++j) EXPECT_GE(e[j], 0.0f) << "token " << j;
      EXPECT_EQ(e[Q - 1], 1.0f);  // exp of an empty sum
      EXPECT_GE(total, 0.0f);
      EXPECT_LE(total, 1.0f);
      EXPECT_NEAR(total, tref, std::max(1e-5 * tref, 1e-30));
    }
  }
}

// The state pass by pairs of tiles: the first tile's weights times the second's total are the
// pair's 128-token weights, within [0, 1] (and [0, dt]), finite, and no further from float64
// than the direct sums over the 128 tokens (the same bound as above).
TEST(StatePassWeights, PairOfTilesIsStableOnEveryDecayKind) {
  constexpr int Q = 128;
  const Rules rules = device_rules(Q, 8);
  for (int k = 0; k < kNumDecayKinds; ++k) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const DecayKind kind = static_cast<DecayKind>(k);
      SCOPED_TRACE(std::string(decay_kind_name(kind)) + " seed " + std::to_string(seed));
      const std::vector<float> a = make_decays(kind, Q, seed);
      std::vector<float> dt(Q);
      SplitMix64 g(seed);
      for (float& d : dt) d = static_cast<float>(g.uniform(0.01, 1.0));
      std::vector<double> Lref(Q * Q), eref(Q), pref(Q);
      double tref;
      segsum_tile_f64(a.data(), Q, Lref.data(), eref.data(), pref.data(), &tref);
      std::vector<float> e(Q), ed(Q), e_direct(Q);
      float total = -1.f, total_direct = -1.f;
      state_pass_pair_weights_f32(a.data(), nullptr, e.data(), &total);
      state_pass_pair_weights_f32(a.data(), dt.data(), ed.data(), nullptr);
      segsum_tile_f32(Variant::kDirect, rules, a.data(), nullptr, e_direct.data(), nullptr, &total_direct);
      const VectorMetrics m = vector_metrics(e.data(), eref.data(), Q, Order::kNone);
      const VectorMetrics md = vector_metrics(e_direct.data(), eref.data(), Q, Order::kNone);
      EXPECT_EQ(m.nonfinite + m.entries_gt_1, 0);
      EXPECT_LE(m.max_rel_err, bound(md.max_rel_err));
      for (int j = 0; j < Q; ++j) {
        EXPECT_GE(e[j], 0.0f) << "token " << j;
        ASSERT_TRUE(std::isfinite(ed[j])) << "token " << j;
        EXPECT_GE(ed[j], 0.0f) << "token " << j;
        EXPECT_LE(ed[j], dt[j]) << "token " << j;
      }
      EXPECT_EQ(e[Q - 1], 1.0f);
      EXPECT_GE(total, 0.0f);
      EXPECT_LE(total, 1.0f);
      EXPECT_NEAR(total, tref, std::max(2e-5 * tref, 1e-30));
    }
  }
}

// A sequence starting in the pair's second tile (a = -inf) zeroes every weight before it, the
// first tile's included (its total 0 times them), without a NaN; the pair's total is 0.
TEST(StatePassWeights, PairOfTilesResetsExactlyWithoutNaN) {
  constexpr int Q = 128;
  const int last_reset = 90;
  const ResetTokens r = reset_tokens(Q, 17, {5, 64, last_reset});
  const std::vector<float>& dt = r.dt;
  const std::vector<double>& eref = r.eref;
  std::vector<float> e(Q);
  float total = -1.f;
  state_pass_pair_weights_f32(r.a.data(), dt.data(), e.data(), &total);
  EXPECT_EQ(total, 0.0f);
  for (int j = 0; j < Q; ++j) {
    ASSERT_TRUE(std::isfinite(e[j])) << "token " << j;
    if (j < last_reset) {
      EXPECT_EQ(e[j], 0.0f) << "token " << j;
    } else {
      EXPECT_NEAR(e[j], dt[j] * eref[j], 1e-5 * dt[j] * eref[j]) << "token " << j;
    }
  }
}

// Packed sequences: a = -inf where one starts. The warp tree's sums stay -inf (one sign, no
// -inf - -inf): the weights of tokens before the tile's last reset are exactly 0, the others
// as float64's, the total 0, nothing NaN; with dt, each weight within [0, dt].
TEST(StatePassWeights, MinusInfinityResetsExactlyWithoutNaN) {
  const int Q = 64;
  const int last_reset = 41;
  const ResetTokens r = reset_tokens(Q, 13, {0, 8, 13, 14, 23, last_reset});
  const std::vector<float>& a = r.a;
  const std::vector<float>& dt = r.dt;
  const std::vector<double>& eref = r.eref;
  std::vector<float> e(Q), ed(Q);
  float total = -1.f;
  state_pass_weights_f32(a.data(), nullptr, e.data(), &total);
  state_pass_weights_f32(a.data(), dt.data(), ed.data(), nullptr);
  EXPECT_EQ(total, 0.0f);
  for (int j = 0; j < Q; ++j) {
    ASSERT_TRUE(std::isfinite(e[j]) && std::isfinite(ed[j])) << "token " << j;
    if (j < last_reset) {
      EXPECT_EQ(e[j], 0.0f) << "token " << j;
    } else {
      EXPECT_NEAR(e[j], eref[j], 1e-5 * eref[j]) << "token " << j;
    }
    EXPECT_GE(ed[j], 0.0f);
    EXPECT_LE(ed[j], dt[j]);
  }
}

TEST(SegsumEmulation, ZeroDecaysGiveExactOnes) {
  const Rules rules = device_rules();
  const int Q = rules.Q;
  std::vector<float> a(Q, 0.f), L(Q * Q), e(Q), p(Q);
  for (int vi = 0; vi < kNumVariants; ++vi) {
    float total = 0;
    segsum_tile_f32(static_cast<Variant>(vi), rules, a.data(), L.data(), e.data(), p.data(), &total);
    for (int i = 0; i < Q; ++i) {
      for (int j = 0; j < Q; ++j) ASSERT_EQ(L[i * Q + j], j <= i ? 1.0f : 0.0f);
      ASSERT_EQ(e[i], 1.0f);
      ASSERT_EQ(p[i], 1.0f);
    }
    EXPECT_EQ(total, 1.0f);
  }
}

TEST(SegsumEmulation, ChunkedMatchesRecurrenceIncludingPartialTiles) {
  for (const Rules& rules : {device_rules(), device_rules(32, 8), device_rules(128, 16)}) {
    for (int T : {1, 45, 64, 65, 200}) {
      for (bool with_h0 : {false, true}) {
        CaseSpec c;
        c.kind = DecayKind::kLogUniformMid;
        c.seed = 11 + T;
        c.e2e_T = T;
        c.P = 8;
        c.N = 12;
        CaseInputs in = make_case_inputs(c);
        for (auto& d : in.dt) d = std::min(d, 0.5f);  // benign: mild decays
        if (!with_h0) in.h0.clear();
        const SsdInput view = in.view();
        std::vector<double> yref(T * c.P), href(c.P * c.N);
        ssd_recurrence_f64(view, yref.data(), href.data());
        for (int vi = 0; vi < kNumVariants; ++vi) {
          std::vector<float> y(T * c.P), h(c.P * c.N);
          ssd_chunked_f32(static_cast<Variant>(vi), rules, view, y.data(), h.data());
          const E2eMetrics m = e2e_metrics(y.data(), yref.data(), T * c.P, h.data(), href.data(),
                                           c.P * c.N);
          SCOPED_TRACE("T=" + std::to_string(T) + " h0=" + std::to_string(with_h0) + " " +
                       variant_name(static_cast<Variant>(vi)) + " " + describe_rules(rules));
          EXPECT_LT(m.y_rel_err, 2e-6);
          EXPECT_LT(m.state_rel_err, 2e-6);
          EXPECT_EQ(m.nonfinite, 0);
        }
      }
    }
  }
}

// ---- the adversarial cases -------------------------------------------------------
// gtest prints a parameter with PrintTo (found by ADL): the case's name.
}  // namespace
void PrintTo(const CaseSpec& c, std::ostream* os) { *os << c.name; }
namespace {

class AdversarialCase : public ::testing::TestWithParam<CaseSpec> {};

TEST_P(AdversarialCase, HierarchicalIsStable) {
  const CaseSpec& c = GetParam();
  const Rules rules = device_rules();
  const CaseResult r = run_case(c, rules);
  std::printf("rules: %s\n", describe_rules(rules).c_str());
  print_table_header(stdout);
  print_table_rows(stdout, r);
  std::fflush(stdout);

  const VariantResult& h = r[Variant::kHierarchical];
  const VariantResult& d = r[Variant::kDirect];
  EXPECT_GT(h.mask.entries, 0);
  EXPECT_EQ(h.mask.entries_gt_1, 0);
  EXPECT_EQ(h.mask.monotonicity_violations, 0);
  EXPECT_EQ(h.mask.nonfinite, 0);
  EXPECT_EQ(h.mask.upper_nonzero, 0);
  EXPECT_LE(h.mask.max_rel_err, bound(d.mask.max_rel_err));
  // The per-token factors follow the same rules: e must not decrease towards
  // the tile end, p must not increase, neither may exceed 1.
  EXPECT_EQ(h.e.entries_gt_1 + h.e.order_violations + h.e.nonfinite, 0);
  EXPECT_EQ(h.p.entries_gt_1 + h.p.order_violations + h.p.nonfinite, 0);
  EXPECT_LE(h.e.max_rel_err, bound(d.e.max_rel_err));
  ASSERT_TRUE(h.has_e2e);
  EXPECT_EQ(h.e2e.nonfinite, 0);
  EXPECT_LE(h.e2e.y_rel_err, bound(d.e2e.y_rel_err));
  EXPECT_LE(h.e2e.state_rel_err, bound(d.e2e.state_rel_err));

  // Direct sums are monotone for the same reasons (every sum has one sign).
  EXPECT_EQ(d.mask.entries_gt_1 + d.mask.monotonicity_violations + d.mask.nonfinite, 0);
  // Nothing overflows: the diff variant selects 0 above the diagonal.
  EXPECT_EQ(r[Variant::kDiff].mask.nonfinite, 0);
  EXPECT_EQ(r[Variant::kDiff].e2e.nonfinite, 0);
}

INSTANTIATE_TEST_SUITE_P(Cases, AdversarialCase, ::testing::ValuesIn(adversarial_cases()),
                         [](const ::testing::TestParamInfo<CaseSpec>& info) {
                           std::string n = info.param.name;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// The diff variant must keep failing visibly on this suite: its Hillis-Steele
// cumsum goes up by an ulp inside runs of zeros (entries > 1, non-monotone
// rows), and its prefix subtraction cancels (errors far above direct's).
TEST(DiffVariant, FailuresAreExposed) {
  const Rules rules = device_rules();
  int64_t cases_with_gt1_or_mono = 0;
  double worst_ratio = 0;
  std::printf("diff variant, mask alone (rules: %s)\n", describe_rules(rules).c_str());
  std::printf("%-24s %10s %10s %8s %8s %6s\n", "case", "max_rel", "direct", ">1", "mono", "nonf");
  for (const CaseSpec& c : adversarial_cases()) {
    CaseResult r;
    r.spec = c;
    run_mask_figures(rules, make_decays(c.kind, c.mask_tokens, c.seed), r);
    const MaskMetrics& m = r[Variant::kDiff].mask;
    const MaskMetrics& d = r[Variant::kDirect].mask;
    std::printf("%-24s %10.3e %10.3e %8lld %8lld %6lld\n", c.name.c_str(), m.max_rel_err,
                d.max_rel_err, static_cast<long long>(m.entries_gt_1),
                static_cast<long long>(m.monotonicity_violations),
                static_cast<long long>(m.nonfinite));
    if (m.entries_gt_1 > 0 || m.monotonicity_violations > 0) ++cases_with_gt1_or_mono;
    if (d.max_rel_err > 0) worst_ratio = std::max(worst_ratio, m.max_rel_err / d.max_rel_err);
  }
  std::fflush(stdout);
  EXPECT_GE(cases_with_gt1_or_mono, 1) << "the suite no longer exposes diff's entries > 1 / "
                                          "non-monotone rows";
  EXPECT_GE(worst_ratio, 10.0) << "the suite no longer exposes diff's cancellation error";
}

// The guarantees do not depend on the tile shape: other tiles Q (segsum.cuh is
// a template on kQ, blocks of 8) and other block sizes, on the cases with zeros
// (where a wrong rule shows first), mask alone.
TEST(HierarchicalOtherTileShapes, StableForEveryShape) {
  const int shapes[][2] = {{32, 8}, {128, 8}, {256, 8}, {64, 16}, {128, 32}};
  for (const auto& s : shapes) {
    const Rules rules = device_rules(s[0], s[1]);
    for (DecayKind kind : {DecayKind::kZerosAfterLarge, DecayKind::kZerosTinyAfterLarge,
                           DecayKind::kMixture, DecayKind::kTinyOnly}) {
      CaseResult r;
      run_mask_figures(rules, make_decays(kind, 8192, 5), r);
      const VariantResult& h = r[Variant::kHierarchical];
      const VariantResult& d = r[Variant::kDirect];
      SCOPED_TRACE(describe_rules(rules) + " " + decay_kind_name(kind));
      EXPECT_EQ(h.mask.entries_gt_1, 0);
      EXPECT_EQ(h.mask.monotonicity_violations, 0);
      EXPECT_EQ(h.mask.nonfinite, 0);
      EXPECT_EQ(h.e.order_violations + h.e.entries_gt_1, 0);
      EXPECT_LE(h.mask.max_rel_err, bound(d.mask.max_rel_err));
    }
  }
}

}  // namespace
}  // namespace stability
}  // namespace flashssd
