// The two float64 forms of the reference agree, and both mean what
// DESIGN.md section 1 says (checked against closed forms and against running
// packed sequences one by one).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "reference/reference.h"

namespace flashssd {
namespace {

using ref::Inputs;
using ref::Outputs;
using ref::RandomSpec;

constexpr double kAgree = 1e-12;

void expect_agree(const Outputs& a, const Outputs& b, double tol, const std::string& what) {
  EXPECT_LE(ref::rel_error(a.y, b.y), tol) << what << ": y";
  EXPECT_LE(ref::rel_error(a.final_states, b.final_states), tol) << what << ": final_states";
  EXPECT_LE(ref::rel_error(a.varlen_states, b.varlen_states), tol) << what << ": varlen_states";
  ASSERT_EQ(a.varlen_states.size(), b.varlen_states.size()) << what;
}

struct Case {
  std::string name;
  RandomSpec spec;
};

RandomSpec all_options(RandomSpec s) {
  s.D = true;
  s.z = true;
  s.dt_bias = true;
  s.dt_softplus = true;
  s.initial_states = true;
  return s;
}

std::vector<Case> agreement_cases() {
  std::vector<Case> cases;
  RandomSpec base;
  base.batch = 2;
  base.seqlen = 100;  // not a multiple of 7 or 64
  base.heads = 4;
  base.headdim = 8;
  base.groups = 2;
  base.dstate = 16;

  cases.push_back({"plain", base});
  cases.push_back({"all_options", all_options(base)});
  {
    RandomSpec s = all_options(base);
    s.D_per_channel = true;
    s.dt_limit_lo = 0.05;
    s.dt_limit_hi = 0.9;
    cases.push_back({"D_per_channel_dt_limit", s});
  }
  {
    RandomSpec s = all_options(base);
    s.seqlen = 1;
    cases.push_back({"T_1", s});
  }
  {
    RandomSpec s = all_options(base);
    s.groups = 1;
    cases.push_back({"G_1", s});
  }
  {
    RandomSpec s = all_options(base);
    s.groups = s.heads;
    cases.push_back({"G_eq_H", s});
  }
  {
    RandomSpec s = all_options(base);
    s.packed_seqs = 5;
    cases.push_back({"seq_idx_packed", s});
  }
  {
    RandomSpec s = all_options(base);
    s.batch = 1;
    s.seqlen = 130;
    s.varlen_seqs = 6;
    cases.push_back({"cu_seqlens_varlen", s});
  }
  {
    RandomSpec s = all_options(base);
    s.batch = 1;
    s.seqlen = 70;
    s.varlen_seqs = 8;
    s.varlen_allow_empty = true;
    s.seed = 7;
    cases.push_back({"cu_seqlens_with_empty_sequences", s});
  }
  {
    RandomSpec s = all_options(base);
    s.batch = 1;
    s.seqlen = 90;
    s.varlen_seqs = 4;
    s.packed_seqs = 6;
    cases.push_back({"cu_seqlens_and_seq_idx", s});
  }
  {
    RandomSpec s = all_options(base);
    s.large_dt_fraction = 0.3;
    cases.push_back({"dt_above_20_softplus", s});
  }
  {
    RandomSpec s = base;
    s.dt_bias = true;
    s.large_dt_fraction = 0.2;  // no softplus: large dt used as is
    s.initial_states = true;
    cases.push_back({"dt_large_no_softplus", s});
  }
  {
    RandomSpec s = all_options(base);
    s.heads = 6;
    s.groups = 3;
    s.headdim = 5;
    s.dstate = 3;
    s.seqlen = 33;
    cases.push_back({"odd_dims", s});
  }
  return cases;
}

class Agreement : public ::testing::TestWithParam<Case> {};

TEST_P(Agreement, RecurrenceAndChunkedAgree) {
  const Inputs in = ref::make_random(GetParam().spec);
  const Outputs truth = ref::recurrence_forward(in);
  for (int64_t chunk : {1, 7, 64, 256}) {
    const Outputs chunked = ref::chunked_forward(in, chunk);
    expect_agree(chunked, truth, kAgree, GetParam().name + " chunk " + std::to_string(chunk));
  }
  // Not vacuous: outputs are non-trivial.
  double norm = 0.0;
  for (double v : truth.y) norm += v * v;
  EXPECT_GT(norm, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Reference, Agreement, ::testing::ValuesIn(agreement_cases()),
                         [](const ::testing::TestParamInfo<Case>& p) { return p.param.name; });

TEST(Reference, EffectiveDt) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(ref::effective_dt(25.0, 0.0, true, 0.0, inf), 25.0);   // identity above 20
  EXPECT_DOUBLE_EQ(ref::effective_dt(20.0, 0.0, true, 0.0, inf), std::log1p(std::exp(20.0)));
  EXPECT_DOUBLE_EQ(ref::effective_dt(1.0, 0.5, true, 0.0, inf), std::log1p(std::exp(1.5)));
  EXPECT_DOUBLE_EQ(ref::effective_dt(-0.3, 0.1, false, 0.0, inf), 0.0);  // default lower limit 0
  EXPECT_DOUBLE_EQ(ref::effective_dt(3.0, 0.0, true, 0.0, 2.0), 2.0);     // limit after softplus
  EXPECT_DOUBLE_EQ(ref::effective_dt(-10.0, 0.0, true, 0.5, 2.0), 0.5);
}

// One token from a zero state: y = dt' (B . C) x + D x, gated; h = dt' x B^T.
TEST(Reference, SingleTokenClosedForm) {
  RandomSpec s = all_options(RandomSpec{});
  s.batch = 1;
  s.seqlen = 1;
  s.initial_states = false;
  s.D_per_channel = true;
  const Inputs in = ref::make_random(s);
  const Outputs out = ref::recurrence_forward(in);
  const int64_t H = in.heads, P = in.headdim, N = in.dstate, G = in.groups;
  for (int64_t h = 0; h < H; ++h) {
    const int64_t g = h / (H / G);
    const double dtv = ref::effective_dt(in.dt[h], in.dt_bias[h], true, 0.0, INFINITY);
    double bc = 0.0;
    for (int64_t n = 0; n < N; ++n) bc += in.B[g * N + n] * in.C[g * N + n];
    for (int64_t p = 0; p < P; ++p) {
      const double xv = in.x[h * P + p], zv = in.z[h * P + p];
      const double want = (dtv * bc * xv + in.D[h * P + p] * xv) * zv / (1.0 + std::exp(-zv));
      EXPECT_NEAR(out.y[h * P + p], want, 1e-14);
      for (int64_t n = 0; n < N; ++n) {
        EXPECT_NEAR(out.final_states[(h * P + p) * N + n], dtv * xv * in.B[g * N + n], 1e-14);
      }
    }
  }
}

// Copy tokens [t0, t1) of batch row `row` into a standalone problem.
Inputs slice(const Inputs& in, int64_t row, int64_t t0, int64_t t1, bool keep_initial) {
  Inputs out = in;
  out.batch = 1;
  out.seqlen = t1 - t0;
  out.seq_idx.clear();
  out.cu_seqlens.clear();
  const int64_t H = in.heads, P = in.headdim, G = in.groups, N = in.dstate, T = in.seqlen;
  auto take = [&](const std::vector<double>& v, int64_t per_token) {
    if (v.empty()) return std::vector<double>{};
    return std::vector<double>(v.begin() + (row * T + t0) * per_token, v.begin() + (row * T + t1) * per_token);
  };
  out.x = take(in.x, H * P);
  out.z = take(in.z, H * P);
  out.dt = take(in.dt, H);
  out.B = take(in.B, G * N);
  out.C = take(in.C, G * N);
  if (keep_initial && !in.initial_states.empty()) {
    out.initial_states.assign(in.initial_states.begin() + row * H * P * N,
                              in.initial_states.begin() + (row + 1) * H * P * N);
  } else {
    out.initial_states.clear();
  }
  return out;
}

// seq_idx: packed sequences behave exactly like separate calls; initial_states
// apply to each row's first sequence only.
TEST(Reference, SeqIdxEqualsSeparateSequences) {
  RandomSpec s = all_options(RandomSpec{});
  s.batch = 2;
  s.seqlen = 60;
  s.packed_seqs = 4;
  const Inputs in = ref::make_random(s);
  const Outputs packed = ref::recurrence_forward(in);
  const int64_t T = in.seqlen, HP = in.heads * in.headdim, S = in.heads * in.headdim * in.dstate;
  for (int64_t row = 0; row < in.batch; ++row) {
    int64_t t0 = 0;
    int segments = 0;
    for (int64_t t = 1; t <= T; ++t) {
      if (t < T && in.seq_idx[row * T + t] == in.seq_idx[row * T + t - 1]) continue;
      const Outputs one = ref::recurrence_forward(slice(in, row, t0, t, t0 == 0));
      const std::vector<double> got(packed.y.begin() + (row * T + t0) * HP, packed.y.begin() + (row * T + t) * HP);
      EXPECT_LE(ref::rel_error(got, one.y), 1e-14) << "row " << row << " tokens " << t0 << ".." << t;
      if (t == T) {
        const std::vector<double> fin(packed.final_states.begin() + row * S,
                                      packed.final_states.begin() + (row + 1) * S);
        EXPECT_LE(ref::rel_error(fin, one.final_states), 1e-14);
      }
      t0 = t;
      ++segments;
    }
    EXPECT_GE(segments, 2);
  }
}

// cu_seqlens: each sequence runs from a fresh state (sequence 0 from
// initial_states) and varlen_states[k] is its final state; empty sequences
// hold the state they start from.
TEST(Reference, CuSeqlensEqualsSeparateSequences) {
  RandomSpec s = all_options(RandomSpec{});
  s.batch = 1;
  s.seqlen = 50;
  for (bool allow_empty : {false, true}) {
    s.varlen_seqs = 7;
    s.varlen_allow_empty = allow_empty;
    s.seed = allow_empty ? 11 : 3;
    const Inputs in = ref::make_random(s);
    const Outputs packed = ref::recurrence_forward(in);
    const int64_t HP = in.heads * in.headdim, S = in.heads * in.headdim * in.dstate;
    for (int64_t k = 0; k < in.num_seqs(); ++k) {
      const int64_t t0 = in.cu_seqlens[k], t1 = in.cu_seqlens[k + 1];
      const Outputs one = ref::recurrence_forward(slice(in, 0, t0, t1, k == 0));
      const std::vector<double> got(packed.y.begin() + t0 * HP, packed.y.begin() + t1 * HP);
      EXPECT_LE(ref::rel_error(got, one.y), 1e-14) << "sequence " << k;
      const std::vector<double> vs(packed.varlen_states.begin() + k * S, packed.varlen_states.begin() + (k + 1) * S);
      EXPECT_LE(ref::rel_error(vs, one.final_states), 1e-14) << "sequence " << k;
    }
  }
}

TEST(Reference, EmptyFirstSequenceKeepsInitialStates) {
  RandomSpec s = all_options(RandomSpec{});
  s.batch = 1;
  s.seqlen = 20;
  Inputs in = ref::make_random(s);
  in.cu_seqlens = {0, 0, 12, 20};
  const Outputs out = ref::recurrence_forward(in);
  const int64_t S = in.heads * in.headdim * in.dstate;
  const std::vector<double> v0(out.varlen_states.begin(), out.varlen_states.begin() + S);
  EXPECT_EQ(v0, in.initial_states);
  // Sequence 1 starts at token 0 but from zero: initial_states belong to sequence 0.
  Inputs no_init = in;
  no_init.initial_states.clear();
  EXPECT_LE(ref::rel_error(out.y, ref::recurrence_forward(no_init).y), 0.0);
  expect_agree(ref::chunked_forward(in, 8), out, kAgree, "chunked");
}

// Above ~4M multiply-adds the recurrence runs on several threads, split by batch row, head and
// block of 8 state rows (P = 20: a partial last block): every thread count gives the same bits,
// and they agree with the chunked form. Resets, an empty sequence and initial states included.
TEST(Reference, RecurrenceSameBitsForAnyThreadCount) {
  RandomSpec s = all_options(RandomSpec{});
  s.batch = 1;
  s.seqlen = 2100;
  s.heads = 2;
  s.groups = 1;
  s.headdim = 20;
  s.dstate = 64;  // 1 x 2100 x 2 x 20 x 64 = 5.4M multiply-adds
  s.varlen_seqs = 6;
  s.varlen_allow_empty = true;
  const Inputs in = ref::make_random(s);
  const Outputs one = ref::recurrence_forward(in, 1);
  for (int threads : {0, 2, 3, 7}) {
    const Outputs many = ref::recurrence_forward(in, threads);
    EXPECT_EQ(many.y, one.y) << threads << " threads";
    EXPECT_EQ(many.final_states, one.final_states) << threads << " threads";
    EXPECT_EQ(many.varlen_states, one.varlen_states) << threads << " threads";
  }
  expect_agree(ref::chunked_forward(in, 64), one, kAgree, "chunked");
}

TEST(Reference, EmptyProblems) {
  RandomSpec s = all_options(RandomSpec{});
  s.seqlen = 0;
  const Inputs in = ref::make_random(s);
  for (const Outputs& out : {ref::recurrence_forward(in), ref::chunked_forward(in, 4)}) {
    EXPECT_TRUE(out.y.empty());
    EXPECT_EQ(out.final_states, in.initial_states);  // T == 0: the state it starts from
  }
  s.batch = 0;
  s.seqlen = 16;
  const Inputs none = ref::make_random(s);
  EXPECT_TRUE(ref::recurrence_forward(none).final_states.empty());
  EXPECT_TRUE(ref::chunked_forward(none, 4).y.empty());
}

TEST(Reference, RejectsInconsistentInputs) {
  Inputs in = ref::make_random(RandomSpec{});
  in.x.pop_back();
  EXPECT_THROW(ref::recurrence_forward(in), std::invalid_argument);
  EXPECT_THROW(ref::chunked_forward(ref::make_random(RandomSpec{}), 0), std::invalid_argument);
}

}  // namespace
}  // namespace flashssd
