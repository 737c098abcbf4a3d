// ssd_forward on host pointers runs the float64 reference: every dtype in,
// outputs written in their dtypes (rounded once), every output element written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "flashssd/flashssd.h"
#include "reference/reference.h"

namespace flashssd {
namespace {

using ref::HostTensorOptions;
using ref::Inputs;
using ref::Outputs;
using ref::RandomSpec;

// Output rounding only (the host path computes in float64): unit roundoff of
// the output dtype, with a little headroom.
double tolerance(DType t) {
  switch (t) {
    case DType::kBFloat16: return 4e-3;
    case DType::kFloat16: return 5e-4;
    default: return 1e-6;
  }
}

bool all_finite(const std::vector<double>& v) {
  for (double e : v) {
    if (!std::isfinite(e)) return false;
  }
  return true;
}

RandomSpec everything() {
  RandomSpec s;
  s.batch = 2;
  s.seqlen = 37;
  s.heads = 4;
  s.headdim = 8;
  s.groups = 2;
  s.dstate = 16;
  s.D = true;
  s.z = true;
  s.dt_bias = true;
  s.dt_softplus = true;
  s.initial_states = true;
  s.packed_seqs = 3;
  return s;
}

// Runs ssd_forward on host tensors of the given dtypes and compares with the
// reference computed on the inputs as stored (rounded).
void run_and_compare(Inputs in, const HostTensorOptions& opt, const std::string& what) {
  ref::round_inputs(in, opt.io, opt.dt);
  ref::HostTensors ht = ref::make_host_tensors(in, opt);
  // The poisoned outputs really start as NaN.
  ASSERT_FALSE(all_finite(ref::read_view(ht.params.y))) << what;
  ssd_forward(ht.params);
  const Outputs got = ref::read_outputs(ht.params);
  const Outputs want = ref::recurrence_forward(in);
  ASSERT_TRUE(all_finite(got.y)) << what << ": some y not written";
  EXPECT_LE(ref::rel_error(got.y, want.y), tolerance(opt.io)) << what;
  EXPECT_LE(ref::max_rel_error(got.y, want.y), 4 * tolerance(opt.io)) << what;
  if (opt.final_states) {
    ASSERT_TRUE(all_finite(got.final_states)) << what << ": some final_states not written";
    EXPECT_LE(ref::rel_error(got.final_states, want.final_states), 1e-6) << what;
  }
  if (opt.varlen_states && !in.cu_seqlens.empty()) {
    ASSERT_TRUE(all_finite(got.varlen_states)) << what << ": some varlen_states not written";
    EXPECT_LE(ref::rel_error(got.varlen_states, want.varlen_states), 1e-6) << what;
  }
}

class HostForward : public ::testing::TestWithParam<DType> {};

TEST_P(HostForward, AllOptionsMatchReference) {
  for (DType dt_type : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
    HostTensorOptions opt;
    opt.io = GetParam();
    opt.dt = dt_type;
    run_and_compare(ref::make_random(everything()), opt, std::string("dt ") + dtype_name(dt_type));
  }
}

TEST_P(HostForward, StridedViews) {
  HostTensorOptions opt;
  opt.io = GetParam();
  opt.pad = 3;  // every row of x, z, B, C, y padded: non-contiguous views
  RandomSpec s = everything();
  s.D_per_channel = true;
  run_and_compare(ref::make_random(s), opt, "padded");
}

TEST_P(HostForward, VarlenStates) {
  RandomSpec s = everything();
  s.batch = 1;
  s.packed_seqs = 0;
  s.seqlen = 45;
  s.varlen_seqs = 5;
  s.varlen_allow_empty = true;
  for (DType cu : {DType::kInt32, DType::kInt64}) {
    HostTensorOptions opt;
    opt.io = GetParam();
    opt.cu_seqlens = cu;
    run_and_compare(ref::make_random(s), opt, std::string("cu_seqlens ") + dtype_name(cu));
  }
}

TEST_P(HostForward, NoOptionalTensors) {
  RandomSpec s;
  s.groups = 1;
  HostTensorOptions opt;
  opt.io = GetParam();
  opt.final_states = false;
  run_and_compare(ref::make_random(s), opt, "minimal");
}

INSTANTIATE_TEST_SUITE_P(Dtypes, HostForward,
                         ::testing::Values(DType::kFloat32, DType::kBFloat16, DType::kFloat16),
                         [](const ::testing::TestParamInfo<DType>& p) { return std::string(dtype_name(p.param)); });

TEST(HostForward, ChunkSizeAndSegsumDoNotChangeTheResult) {
  const Inputs in = ref::make_random(everything());
  ref::HostTensors a = ref::make_host_tensors(in);
  ref::HostTensors b = ref::make_host_tensors(in);
  b.params.chunk_size = 7;
  b.params.segsum = SegsumVariant::kDiff;
  ssd_forward(a.params);
  ssd_forward(b.params);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.final_states, b.final_states);
}

// FLASHSSD_HOST_THREADS sets the host path's threads (the same bits for any count); a value
// that is not an integer from 1 to 4096 throws flashssd::Error naming it, before any output.
TEST(HostForward, HostThreadsKnob) {
  RandomSpec s = everything();
  s.batch = 1;
  s.seqlen = 2100;
  s.headdim = 20;
  s.dstate = 32;  // 1 x 2100 x 4 x 20 x 32 = 5.4M multiply-adds: above the one-thread size
  const Inputs in = ref::make_random(s);
  ref::HostTensors want = ref::make_host_tensors(in);
  ssd_forward(want.params);
  for (const char* threads : {"1", "3"}) {
    ::setenv("FLASHSSD_HOST_THREADS", threads, 1);
    ref::HostTensors got = ref::make_host_tensors(in);
    ssd_forward(got.params);
    EXPECT_EQ(got.y, want.y) << threads << " threads";
    EXPECT_EQ(got.final_states, want.final_states) << threads << " threads";
  }
  for (const char* bad : {"0", "two", "5000"}) {
    ::setenv("FLASHSSD_HOST_THREADS", bad, 1);
    ref::HostTensors got = ref::make_host_tensors(in);
    try {
      ssd_forward(got.params);
      ADD_FAILURE() << "FLASHSSD_HOST_THREADS=" << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("FLASHSSD_HOST_THREADS"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(all_finite(ref::read_view(got.params.y))) << "output written before the knob's error";
  }
  ::unsetenv("FLASHSSD_HOST_THREADS");
}

// T == 0: nothing to write in y, final_states = initial_states (or zeros).
TEST(HostForward, ZeroTokens) {
  RandomSpec s = everything();
  s.seqlen = 0;
  s.packed_seqs = 0;
  for (bool initial : {true, false}) {
    s.initial_states = initial;
    Inputs in = ref::make_random(s);
    ref::round_inputs(in, DType::kFloat32, DType::kFloat32);  // states are stored in fp32
    ref::HostTensors ht = ref::make_host_tensors(in);
    ssd_forward(ht.params);
    const Outputs got = ref::read_outputs(ht.params);
    EXPECT_TRUE(got.y.empty());
    EXPECT_EQ(got.final_states, initial ? in.initial_states : std::vector<double>(got.final_states.size(), 0.0));
  }
}

// T == 0 with cu_seqlens: every sequence is empty; sequence 0 keeps initial_states.
TEST(HostForward, ZeroTokensVarlen) {
  RandomSpec s = everything();
  s.batch = 1;
  s.seqlen = 0;
  s.packed_seqs = 0;
  Inputs in = ref::make_random(s);
  ref::round_inputs(in, DType::kFloat32, DType::kFloat32);
  in.cu_seqlens = {0, 0, 0};
  ref::HostTensors ht = ref::make_host_tensors(in);
  ssd_forward(ht.params);
  const Outputs got = ref::read_outputs(ht.params);
  const size_t S = in.initial_states.size();
  EXPECT_EQ(std::vector<double>(got.varlen_states.begin(), got.varlen_states.begin() + S), in.initial_states);
  EXPECT_EQ(std::vector<double>(got.varlen_states.begin() + S, got.varlen_states.end()), std::vector<double>(S, 0.0));
}

// b == 0: valid, nothing to do; null data pointers are fine for empty tensors.
TEST(HostForward, ZeroBatch) {
  RandomSpec s = everything();
  s.batch = 0;
  const Inputs in = ref::make_random(s);
  ref::HostTensors ht = ref::make_host_tensors(in);
  ht.params.x.data = nullptr;
  ht.params.y.data = nullptr;
  EXPECT_NO_THROW(ssd_forward(ht.params));
}

TEST(HostForward, MakeViewIsContiguous) {
  float buf[2 * 3 * 4];
  const TensorView v = make_view(buf, DType::kFloat32, {2, 3, 4});
  EXPECT_EQ(v.ndim, 3);
  EXPECT_EQ(v.stride[0], 12);
  EXPECT_EQ(v.stride[1], 4);
  EXPECT_EQ(v.stride[2], 1);
  EXPECT_EQ(v.numel(), 24);
  EXPECT_STREQ(dtype_name(DType::kBFloat16), "bfloat16");
  EXPECT_EQ(dtype_size(DType::kInt64), 8);
  EXPECT_STREQ(segsum_variant_name(SegsumVariant::kHierarchical), "hierarchical");
  EXPECT_STRNE(version(), "");
}

}  // namespace
}  // namespace flashssd
