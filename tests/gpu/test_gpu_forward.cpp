// GPU forward against the float64 reference: every option and shape class the
// device path serves, on fresh random inputs, with poisoned outputs, by relative
// norm error of y and of the states. Skips (visibly) without a CUDA device.
//
// Tests whose name contains "Small" are the compute-sanitizer set.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "flashssd/flashssd.h"
#include "gpu_test_util.h"
#include "reference/reference.h"

namespace flashssd {
namespace {

bool have_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return ok;
}

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped"

// Device copies of a HostTensors' buffers, with an SsdParams pointing at them
// (same shapes and strides as the host views).
struct DeviceTensors {
  std::vector<void*> allocations;
  SsdParams params;
  ~DeviceTensors() {
    for (void* p : allocations) cudaFree(p);
  }
  void* upload(const std::vector<unsigned char>& host) {
    void* d = nullptr;
    if (cudaMalloc(&d, std::max<size_t>(host.size(), 16)) != cudaSuccess) return nullptr;
    cudaMemcpy(d, host.data(), host.size(), cudaMemcpyHostToDevice);
    allocations.push_back(d);
    return d;
  }
};

void to_device(const ref::HostTensors& h, DeviceTensors& d) {
  d.params = h.params;
  auto move = [&](TensorView& v, const std::vector<unsigned char>& buf) {
    if (v.defined()) v.data = d.upload(buf);
  };
  SsdParams& p = d.params;
  move(p.x, h.x); move(p.dt, h.dt); move(p.A, h.A); move(p.B, h.B); move(p.C, h.C);
  move(p.D, h.D); move(p.z, h.z); move(p.dt_bias, h.dt_bias);
  move(p.initial_states, h.initial_states); move(p.seq_idx, h.seq_idx);
  move(p.cu_seqlens, h.cu_seqlens);
  move(p.y, h.y); move(p.final_states, h.final_states); move(p.varlen_states, h.varlen_states);
}

// Copies the device outputs back into the host buffers behind `h`.
void download_outputs(const DeviceTensors& d, ref::HostTensors& h) {
  auto back = [](const TensorView& dv, std::vector<unsigned char>& buf) {
    if (dv.defined()) cudaMemcpy(buf.data(), dv.data, buf.size(), cudaMemcpyDeviceToHost);
  };
  back(d.params.y, h.y);
  back(d.params.final_states, h.final_states);
  back(d.params.varlen_states, h.varlen_states);
}

// Re-poisons the device outputs (NaN bit patterns from the host buffers).
void poison_device_outputs(const ref::HostTensors& h, DeviceTensors& d) {
  auto up = [](TensorView& dv, const std::vector<unsigned char>& buf) {
    if (dv.defined()) cudaMemcpy(dv.data, buf.data(), buf.size(), cudaMemcpyHostToDevice);
  };
  up(d.params.y, h.y);
  up(d.params.final_states, h.final_states);
  up(d.params.varlen_states, h.varlen_states);
}

double tolerance(DType io) {
  switch (io) {
    case DType::kBFloat16: return 1e-2;
    case DType::kFloat16: return 5e-3;
    default: return 1e-4;
  }
}

struct CaseResult {
  double y_err = NAN, state_err = NAN, varlen_err = NAN;
  std::string path;  // ssd_forward_path of the call
};

// before_launch: edits the device tensors first (a view moved within its allocation, say);
// edit_inputs: the random inputs, before the reference and the upload see them.
CaseResult run_case(const ref::RandomSpec& spec, const ref::HostTensorOptions& opt,
                    SegsumVariant variant = SegsumVariant::kHierarchical,
                    const std::function<void(DeviceTensors&)>& before_launch = {},
                    const std::function<void(ref::Inputs&)>& edit_inputs = {}) {
  ref::Inputs in = ref::make_random(spec);
  if (edit_inputs) edit_inputs(in);
  ref::round_inputs(in, opt.io, opt.dt);
  const ref::Outputs truth = ref::recurrence_forward(in);

  ref::HostTensors host = ref::make_host_tensors(in, opt);
  DeviceTensors dev;
  to_device(host, dev);
  dev.params.segsum = variant;
  if (before_launch) before_launch(dev);
  CaseResult r;
  r.path = ssd_forward_path(dev.params);
  ssd_forward(dev.params);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  download_outputs(dev, host);
  const ref::Outputs got = ref::read_outputs(host.params);

  r.y_err = ref::rel_error(got.y, truth.y);
  if (opt.final_states) r.state_err = ref::rel_error(got.final_states, truth.final_states);
  if (!truth.varlen_states.empty() && opt.varlen_states)
    r.varlen_err = ref::rel_error(got.varlen_states, truth.varlen_states);
  return r;
}

void expect_close(const CaseResult& r, DType io, const std::string& what) {
  const double tol = tolerance(io);
  EXPECT_LE(r.y_err, tol) << what << ": y rel err " << r.y_err;  // NaN fails: poison unwritten
  EXPECT_LE(r.state_err, tol) << what << ": final state rel err " << r.state_err;
}

std::string describe(const ref::RandomSpec& s, DType io) {
  return std::string(dtype_name(io)) + " b=" + std::to_string(s.batch) + " T=" + std::to_string(s.seqlen) +
         " H=" + std::to_string(s.heads) + " G=" + std::to_string(s.groups) + " P=" + std::to_string(s.headdim) +
         " N=" + std::to_string(s.dstate);
}

ref::RandomSpec all_options(int64_t b, int64_t T, int64_t H, int64_t G, int64_t P, int64_t N, uint64_t seed) {
  ref::RandomSpec s;
  s.batch = b; s.seqlen = T; s.heads = H; s.groups = G; s.headdim = P; s.dstate = N;
  s.D = true; s.z = true; s.dt_bias = true; s.dt_softplus = true; s.initial_states = true;
  s.seed = seed;
  return s;
}

// ---- shape classes -------------------------------------------------------------

struct ShapeCase {
  DType io;
  int P, N;
};

class SmallShapes : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(SmallShapes, AllOptionsMatchReference) {
  REQUIRE_GPU();
  const ShapeCase c = GetParam();
  ref::HostTensorOptions opt;
  opt.io = c.io;
  const auto spec = all_options(2, 100, 4, 2, c.P, c.N, 1000 + c.P * 7 + c.N);
  const CaseResult r = run_case(spec, opt);
  expect_close(r, c.io, describe(spec, c.io));
}

std::vector<ShapeCase> shape_cases() {
  std::vector<ShapeCase> v;
  for (DType io : {DType::kBFloat16, DType::kFloat16, DType::kFloat32})
    for (int P : {32, 64, 128})
      for (int N : {16, 32, 64, 128, 256}) v.push_back({io, P, N});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Gpu, SmallShapes, ::testing::ValuesIn(shape_cases()), [](const auto& info) {
  return std::string(dtype_name(info.param.io)) + "_P" + std::to_string(info.param.P) + "_N" +
         std::to_string(info.param.N);
});

// ---- options ----------------------------------------------------------------------

TEST(GpuForwardSmall, NoOptionsTokenOne) {
  REQUIRE_GPU();
  ref::RandomSpec s;
  s.batch = 3; s.seqlen = 1; s.heads = 2; s.groups = 1; s.headdim = 64; s.dstate = 64; s.seed = 11;
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "T=1");
}

TEST(GpuForwardSmall, GroupsEqualHeadsAndOne) {
  REQUIRE_GPU();
  for (int G : {1, 8}) {
    auto s = all_options(1, 130, 8, G, 64, 128, 20 + G);
    expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, describe(s, DType::kBFloat16));
  }
}

TEST(GpuForwardSmall, DPerChannelAndDtLimitAndDtDtypes) {
  REQUIRE_GPU();
  for (DType dtt : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
    auto s = all_options(2, 77, 4, 2, 64, 64, 30);
    s.D_per_channel = true;
    s.dt_limit_lo = 0.05;
    s.dt_limit_hi = 0.9;
    s.large_dt_fraction = 0.2;
    ref::HostTensorOptions opt;
    opt.io = DType::kFloat16;
    opt.dt = dtt;
    expect_close(run_case(s, opt), DType::kFloat16, std::string("dt dtype ") + dtype_name(dtt));
  }
}

// 16-bit dt at every alignment: its view starts one element into its allocation (2 bytes off
// a 4-byte boundary) and ends at the allocation's end, with an odd number of heads, so that
// tokens and heads alternate between the low and high halves of 4-byte words. A load of
// the aligned word around an element (session 23's cp.async experiment) reads past the
// allocation; compute-sanitizer's memcheck of the small shapes reports it.
TEST(GpuForwardSmall, Dt16BitAtOddElementOffsets) {
  REQUIRE_GPU();
  for (DType dtt : {DType::kBFloat16, DType::kFloat16}) {
    auto s = all_options(2, 203, 3, 1, 64, 128, 50);
    ref::HostTensorOptions opt;
    opt.io = DType::kBFloat16;
    opt.dt = dtt;
    const CaseResult r = run_case(s, opt, SegsumVariant::kHierarchical, [](DeviceTensors& dev) {
      // A copy of dt two bytes into a fresh allocation that ends where the view does.
      std::vector<unsigned char> shifted(2, 0x7f);
      const size_t bytes = dev.params.dt.numel() * 2;
      shifted.resize(2 + bytes);
      ASSERT_EQ(cudaMemcpy(shifted.data() + 2, dev.params.dt.data, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
      auto* base = static_cast<unsigned char*>(dev.upload(shifted));
      ASSERT_NE(base, nullptr);
      dev.params.dt.data = base + 2;
    });
    expect_close(r, DType::kBFloat16, std::string("dt ") + dtype_name(dtt) + " one element into its allocation");
  }
}

TEST(GpuForwardSmall, StridedInputsFromFusedProjection) {
  REQUIRE_GPU();
  auto s = all_options(2, 150, 4, 2, 64, 128, 40);
  ref::HostTensorOptions opt;
  opt.io = DType::kBFloat16;
  opt.pad = 24;  // rows not contiguous across heads/tokens; strides stay multiples of 16 bytes
  expect_close(run_case(s, opt), DType::kBFloat16, "padded strides");
}

TEST(GpuForwardSmall, SeqIdxPackedSequences) {
  REQUIRE_GPU();
  auto s = all_options(2, 300, 4, 2, 64, 128, 50);
  s.packed_seqs = 5;
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "seq_idx");
}

// bf16 with P = 128, N = 64 (the Hopper kernel's head slices on sm_90a): resets inside and
// across the two slices of a head, D per channel offset by the slice.
TEST(GpuForwardSmall, SeqIdxAndDPerChannelHeadDim128) {
  REQUIRE_GPU();
  auto s = all_options(2, 300, 4, 2, 128, 64, 51);
  s.packed_seqs = 5;
  s.D_per_channel = true;
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "seq_idx + D per channel, P=128");
}

TEST(GpuForwardSmall, CuSeqlensVarlenStatesWithEmptySequences) {
  REQUIRE_GPU();
  auto s = all_options(1, 400, 4, 2, 64, 64, 60);
  s.packed_seqs = 0;
  s.varlen_seqs = 7;
  s.varlen_allow_empty = true;
  ref::HostTensorOptions opt;
  opt.io = DType::kBFloat16;
  for (DType cu : {DType::kInt32, DType::kInt64}) {
    opt.cu_seqlens = cu;
    const CaseResult r = run_case(s, opt);
    expect_close(r, DType::kBFloat16, "cu_seqlens");
    EXPECT_LE(r.varlen_err, 1e-2) << "varlen states rel err " << r.varlen_err;
  }
}

TEST(GpuForwardSmall, SeqIdxAndCuSeqlensBothReset) {
  REQUIRE_GPU();
  auto s = all_options(1, 500, 4, 2, 64, 128, 65);
  s.packed_seqs = 4;
  s.varlen_seqs = 6;
  const CaseResult r = run_case(s, {DType::kBFloat16});
  expect_close(r, DType::kBFloat16, "seq_idx + cu_seqlens");
  EXPECT_LE(r.varlen_err, 1e-2) << "varlen states rel err " << r.varlen_err;
}

// T == 0: y is empty; final and per-sequence states come from initial_states (or zeros).
TEST(GpuForwardSmall, EmptySequenceLengthWritesStates) {
  REQUIRE_GPU();
  auto s = all_options(1, 0, 4, 2, 64, 64, 66);
  s.varlen_seqs = 3;
  s.varlen_allow_empty = true;
  const CaseResult r = run_case(s, {DType::kBFloat16});
  EXPECT_LE(r.state_err, 1e-6) << "final states with T == 0";
  EXPECT_LE(r.varlen_err, 1e-6) << "varlen states with T == 0";
}

TEST(GpuForwardSmall, HostAndDevicePointersMixedIsAnError) {
  REQUIRE_GPU();
  auto s = all_options(1, 32, 2, 1, 64, 64, 67);
  ref::Inputs in = ref::make_random(s);
  ref::HostTensors host = ref::make_host_tensors(in, {DType::kBFloat16});
  DeviceTensors dev;
  to_device(host, dev);
  SsdParams mixed = dev.params;
  mixed.dt = host.params.dt;  // dt left on the host
  try {
    ssd_forward(mixed);
    FAIL() << "expected flashssd::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dt"), std::string::npos) << e.what();
  }
}

TEST(GpuForwardSmall, SegsumVariantsAgree) {
  REQUIRE_GPU();
  auto s = all_options(2, 200, 4, 2, 64, 128, 70);
  for (SegsumVariant v : {SegsumVariant::kDiff, SegsumVariant::kDirect, SegsumVariant::kHierarchical})
    expect_close(run_case(s, {DType::kBFloat16}, v), DType::kBFloat16, segsum_variant_name(v));
}

// Sets an environment variable (the launcher's tuning knobs) for one test and restores the
// caller's value when the test ends, also when it ends by an exception
// (scripts/device_session.sh runs the whole suite with FLASHSSD_NUM_SPLITS=3).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* outer = std::getenv(name);
    had_ = outer != nullptr;
    if (had_) saved_ = outer;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) ::setenv(name_, saved_.c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string saved_;
};

// The portable kernel's half head-dim blocks (sm80/ssd_fwd_sm80.h: what GPUs without the shared
// memory for the default block take: sm_86 / sm_89 at N <= 128, the A100 at 16-bit N = 256),
// forced on any GPU (on Hopper, with the Hopper kernel off): every dtype that has one, P with
// a partial last block, every option; then split runs (state pass at the half block too).
TEST(GpuForwardSmall, Sm80HalfHeadBlocksMatchReference) {
  REQUIRE_GPU();
  const ScopedEnv portable("FLASHSSD_DISABLE_SM90", "1"), half("FLASHSSD_SM80_HALF_HEAD_BLOCK", "1");
  for (DType io : {DType::kBFloat16, DType::kFloat16, DType::kFloat32}) {
    for (int N : {128, 256}) {
      if (io == DType::kFloat32 && N == 256) continue;  // (none built: its default block is the smallest)
      for (int P : {64, 40}) {
        ref::HostTensorOptions opt;
        opt.io = io;
        auto s = all_options(2, 300, 4, 2, P, N, 300 + P + N);
        s.packed_seqs = 3;
        const CaseResult r = run_case(s, opt);
        expect_close(r, io, "half head block, " + describe(s, io));
        const int half_block = io == DType::kFloat32 || N == 256 ? 16 : 32;  // (ssd_fwd_sm80.h)
        const std::string block = "head-dim block " + std::to_string(half_block) + " (half)";
        EXPECT_NE(r.path.find(block), std::string::npos) << r.path;
      }
    }
  }
  const ScopedEnv splits("FLASHSSD_NUM_SPLITS", "3");
  for (int N : {128, 256}) {
    auto s = all_options(1, 9000, 2, 1, 64, N, 310 + N);
    s.varlen_seqs = 5;
    const CaseResult r = run_case(s, {DType::kBFloat16});
    expect_close(r, DType::kBFloat16, "half head block, 3 splits, cu_seqlens, N " + std::to_string(N));
    EXPECT_NE(r.path.find("(half)"), std::string::npos) << r.path;
    EXPECT_LE(r.varlen_err, 1e-2);
  }
}

// Long sequences with few heads: the launcher splits the sequence (state pass,
// boundary scan, main pass); resets and varlen boundaries land across splits.
TEST(GpuForwardSplit, LongSequenceSplitsMatchReference) {
  REQUIRE_GPU();
  auto s = all_options(1, 20000, 2, 1, 64, 128, 80);
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "split plain");
  s.packed_seqs = 9;
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "split seq_idx");
  s.packed_seqs = 0;
  s.varlen_seqs = 13;
  const CaseResult r = run_case(s, {DType::kBFloat16});
  expect_close(r, DType::kBFloat16, "split cu_seqlens");
  EXPECT_LE(r.varlen_err, 1e-2);
}

// A forced plan of 5 splits of 63 tiles: on Hopper the state pass computes each split's state
// in 7 runs of 9 tiles (state_runs_per_split), which the boundary scan chains; resets land
// inside runs and on their edges.
TEST(GpuForwardSplit, StatePassRunsMatchReference) {
  REQUIRE_GPU();
  const ScopedEnv splits("FLASHSSD_NUM_SPLITS", "5");
  auto s = all_options(1, 20000, 2, 1, 64, 128, 83);
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "5 splits, state runs");
  s.packed_seqs = 11;
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "5 splits, state runs, seq_idx");
}

// The state scheme's windowed state pass (sm90/split_fixup.h): each split's end state from the
// tiles within 110 nats of decay of its end, its runs clipped to that window (or computing
// nothing before it) and chained by the boundary scan. Five splits of 63 tiles, the state pass
// forced, in 1, 3 and 7 runs and with the window off; the spec's decays (windows of a few
// tiles), slow ones (dt <= 0.05: windows of ~20 tiles to whole splits, heads of one CTA
// apart), resets (seq_idx), P = 128, N = 256 and 3 heads per group (a spare slot), the last
// three in 7 runs; against float64. (Off Hopper: the sm80 path.)
TEST(GpuForwardSplit, StateWindowMatchesReference) {
  REQUIRE_GPU();
  const ScopedEnv scheme("FLASHSSD_SPLIT_SCHEME", "state"), splits("FLASHSSD_NUM_SPLITS", "5");
  for (const char* window : {"1", "0"}) {
    const ScopedEnv window_env("FLASHSSD_STATE_WINDOW", window);
    for (const char* runs : {"1", "3", "7"}) {
      const ScopedEnv runs_env("FLASHSSD_STATE_RUNS", runs);
      const std::string what = std::string("window ") + window + ", runs " + runs;
      auto s = all_options(1, 20000, 4, 2, 64, 128, 200);
      expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, what);
      s.dt_limit_hi = 0.05;
      expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, what + ", slow decays");
      s.packed_seqs = 7;
      expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, what + ", slow decays, seq_idx");
    }
  }
  // P = 128 (a head's two slices in one CTA), N = 256 (one slice per CTA, two CTAs per head) and
  // an odd number of heads per group (a spare slot), with runs before and across the windows.
  // (The window forced: by default these short state passes take whole splits, 5917b60.)
  const ScopedEnv runs_env("FLASHSSD_STATE_RUNS", "7"), window_on("FLASHSSD_STATE_WINDOW", "1");
  for (double dt_hi : {std::numeric_limits<double>::infinity(), 0.05}) {
    for (auto [P, N] : {std::pair{128, 64}, std::pair{64, 256}}) {
      auto s = all_options(1, 20000, 2, 1, P, N, 201);
      s.dt_limit_hi = dt_hi;
      expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16,
                   "window, dt <= " + std::to_string(dt_hi) + ", P " + std::to_string(P) + ", N " + std::to_string(N));
    }
    auto s = all_options(1, 20000, 6, 2, 64, 128, 202);  // 3 heads per group
    s.dt_limit_hi = dt_hi;
    expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "window, dt <= " + std::to_string(dt_hi) + ", 3 heads per group");
  }
}

// State-pass items of 1 .. 6 tiles (two splits, one run each): the Hopper state pass's
// producer loads dt two rounds (four tiles) ahead and walks an item in steps of two rounds,
// then at most one full round and an odd tile; every remainder is taken here, at N = 64 and
// 128.
TEST(GpuForwardSplit, StatePassItemLengthsMatchReference) {
  REQUIRE_GPU();
  const ScopedEnv splits("FLASHSSD_NUM_SPLITS", "2"), runs("FLASHSSD_STATE_RUNS", "1");
  for (int tiles = 1; tiles <= 6; ++tiles) {
    for (int n : {64, 128}) {
      // Split 0 is `tiles` whole tiles; split 1 ends 10 tokens short of as many.
      const auto s = all_options(1, 128 * tiles - 10, 2, 1, 64, n, 90 + tiles);
      expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16,
                   "state pass item of " + std::to_string(tiles) + " tiles, N " + std::to_string(n));
    }
  }
}

// Head dim 128 (R3-like): on Hopper each head's two 64-channel slices carry their own rows of
// the split states between the state pass, the boundary scan and the main pass.
TEST(GpuForwardSplit, HeadDim128SplitsMatchReference) {
  REQUIRE_GPU();
  const auto s = all_options(1, 20000, 2, 1, 128, 64, 82);
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "split P=128");
}

// The same without the gate (on Hopper the ungated N = 64 kernel, whose S is computed from C in
// registers), with and without splits, in both 16-bit types.
TEST(GpuForwardSplit, HeadDim128UngatedMatchesReference) {
  REQUIRE_GPU();
  for (int64_t T : {300, 20000}) {
    auto s = all_options(2, T, 4, 2, 128, 64, 84 + T);
    s.z = false;
    for (DType io : {DType::kBFloat16, DType::kFloat16})
      expect_close(run_case(s, {io}), io, "no gate, P=128, T " + std::to_string(T));
  }
}

// The Hopper split schemes (sm90/split_fixup.h), each forced by FLASHSSD_SPLIT_SCHEME: the state
// pass before the main pass, or the splits from zero states and their incoming states added to
// y over each split's window after it (the default chooses on the device; the other split tests
// run with it). Windows of a few tiles (the spec's decays, ~0.5 nats a token) and of whole
// splits (dt clamped to 0.002: ~0.003 nats a token); resets, varlen boundaries, P = 128, every
// N, fp16, splits of 1 .. 6 tiles. (Off Hopper the variable changes nothing: the sm80 path.)
TEST(GpuForwardSplit, SplitSchemesMatchReference) {
  REQUIRE_GPU();
  for (const char* name : {"fixup", "state"}) {
    const std::string scheme_name(name);
    const ScopedEnv scheme("FLASHSSD_SPLIT_SCHEME", name);
    auto s = all_options(1, 20000, 2, 1, 64, 128, 180);
    expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, scheme_name + " plain");
    s.dt_limit_hi = 0.002;
    expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, scheme_name + " slow decays (whole-split windows)");
    s.dt_limit_hi = std::numeric_limits<double>::infinity();
    s.packed_seqs = 9;
    expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, scheme_name + " seq_idx");
    s.packed_seqs = 0;
    s.varlen_seqs = 13;
    const CaseResult r = run_case(s, {DType::kBFloat16});
    expect_close(r, DType::kBFloat16, scheme_name + " cu_seqlens");
    EXPECT_LE(r.varlen_err, 1e-2);
    for (int n : {64, 256}) {
      auto t = all_options(1, 12000, 2, 1, 64, n, 181 + n);
      t.dt_limit_hi = 0.01;
      expect_close(run_case(t, {DType::kFloat16}), DType::kFloat16, scheme_name + " fp16 N " + std::to_string(n));
    }
    // dt without a softplus and below 0 (dt_limit_lo < 0): the log-decay may rise along a
    // split, so the state pass runs whatever the scheme asked.
    auto rising = all_options(1, 20000, 2, 1, 64, 128, 183);
    rising.dt_softplus = false;
    rising.dt_bias = false;
    rising.dt_limit_lo = -1.0;
    expect_close(run_case(rising, {DType::kBFloat16}), DType::kBFloat16, scheme_name + " negative dt");
    auto wide = all_options(1, 20000, 2, 1, 128, 64, 182);
    wide.dt_limit_hi = 0.005;
    expect_close(run_case(wide, {DType::kBFloat16}), DType::kBFloat16, scheme_name + " P=128");
    const ScopedEnv splits("FLASHSSD_NUM_SPLITS", "2");
    for (int tiles = 1; tiles <= 6; ++tiles) {
      auto u = all_options(1, 128 * tiles - 10, 2, 1, 64, 128, 190 + tiles);
      u.dt_limit_hi = 0.01;
      expect_close(run_case(u, {DType::kBFloat16}), DType::kBFloat16,
                   scheme_name + " splits of " + std::to_string(tiles) + " tiles");
    }
  }
}

// The "auto" scheme with the windowed state pass turned off, where the state pass is long
// enough for the choice on the device
// (>= kFixupMinStateSteps tiles per SM: one CTA per split, 313 tiles): fast decays (short
// windows, under the budget: the fix-up) and slow ones (whole-split windows: the state pass).
TEST(GpuForwardSplit, ChoiceOnTheDeviceMatchesReference) {
  REQUIRE_GPU();
  const ScopedEnv scheme("FLASHSSD_SPLIT_SCHEME", "auto"), window("FLASHSSD_STATE_WINDOW", "0");
  const ScopedEnv splits("FLASHSSD_NUM_SPLITS", "2");
  auto s = all_options(1, 40000, 2, 1, 64, 128, 184);
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "auto, short windows");
  s.dt_limit_hi = 0.002;
  expect_close(run_case(s, {DType::kBFloat16}), DType::kBFloat16, "auto, whole-split windows");
}

TEST(GpuForwardSplit, Float32LongSequenceSplitsMatchReference) {
  REQUIRE_GPU();
  auto s = all_options(1, 20000, 2, 1, 64, 128, 81);
  s.packed_seqs = 9;
  expect_close(run_case(s, {DType::kFloat32}), DType::kFloat32, "fp32 split seq_idx");
}

// fp32 inputs (split-bf16 tensor-core path) through every option class at the fp32
// tolerance: strided views, resets, varlen states, G = H.
TEST(GpuForwardSmall, Float32OptionClasses) {
  REQUIRE_GPU();
  ref::HostTensorOptions opt;
  opt.io = DType::kFloat32;
  opt.pad = 12;  // 48 bytes: strided rows, still 16-byte multiples
  auto s = all_options(2, 300, 8, 8, 64, 128, 95);
  s.packed_seqs = 5;
  s.D_per_channel = true;
  expect_close(run_case(s, opt), DType::kFloat32, "fp32 strided seq_idx G=H");
  auto v = all_options(1, 400, 4, 2, 64, 64, 96);
  v.varlen_seqs = 7;
  v.varlen_allow_empty = true;
  opt.pad = 0;
  const CaseResult r = run_case(v, opt);
  expect_close(r, DType::kFloat32, "fp32 cu_seqlens");
  EXPECT_LE(r.varlen_err, 1e-4) << "fp32 varlen states rel err " << r.varlen_err;
  ref::RandomSpec t1;
  t1.batch = 3; t1.seqlen = 1; t1.heads = 2; t1.groups = 1; t1.headdim = 64; t1.dstate = 256; t1.seed = 97;
  expect_close(run_case(t1, opt), DType::kFloat32, "fp32 T=1 N=256");
}

TEST(GpuForwardSmall, Deterministic) {
  REQUIRE_GPU();
  for (DType io : {DType::kBFloat16, DType::kFloat32}) {
    auto s = all_options(2, 333, 4, 2, 64, 128, 90);
    ref::Inputs in = ref::make_random(s);
    ref::round_inputs(in, io, DType::kFloat32);
    ref::HostTensorOptions opt;
    opt.io = io;
    ref::HostTensors host = ref::make_host_tensors(in, opt);
    DeviceTensors dev;
    to_device(host, dev);
    std::vector<unsigned char> first_y, first_state;
    for (int run = 0; run < 2; ++run) {
      poison_device_outputs(host, dev);
      ssd_forward(dev.params);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      download_outputs(dev, host);
      if (run == 0) {
        first_y = host.y;
        first_state = host.final_states;
      }
    }
    EXPECT_EQ(std::memcmp(first_y.data(), host.y.data(), host.y.size()), 0) << dtype_name(io) << ": y differs";
    EXPECT_EQ(std::memcmp(first_state.data(), host.final_states.data(), host.final_states.size()), 0)
        << dtype_name(io) << ": final state differs";
  }
}

// Offsets past 2^31 elements: the second batch row of x and y lives more than
// 2^31 elements after the first (64-bit offsets in the kernels).
TEST(GpuForwardLarge, OffsetsBeyond32Bits) {
  REQUIRE_GPU();
  auto s = all_options(2, 96, 2, 1, 64, 64, 100);
  ref::Inputs in = ref::make_random(s);
  ref::round_inputs(in, DType::kBFloat16, DType::kFloat32);
  const ref::Outputs truth = ref::recurrence_forward(in);
  ref::HostTensorOptions opt;
  opt.io = DType::kBFloat16;
  ref::HostTensors host = ref::make_host_tensors(in, opt);
  DeviceTensors dev;
  to_device(host, dev);

  const int64_t row = s.seqlen * s.heads * s.headdim;       // elements of one batch row
  const int64_t big_stride = (int64_t(1) << 31) + 4096;     // > 2^31 elements
  const size_t bytes = size_t(big_stride + row) * 2;
  void *big_x = nullptr, *big_y = nullptr;
  if (cudaMalloc(&big_x, bytes) != cudaSuccess || cudaMalloc(&big_y, bytes) != cudaSuccess) {
    cudaFree(big_x);
    GTEST_SKIP() << "not enough device memory for the 2^31-element test";
  }
  dev.allocations.push_back(big_x);
  dev.allocations.push_back(big_y);
  for (int64_t bi = 0; bi < 2; ++bi)
    CUDA_OK(cudaMemcpy(static_cast<char*>(big_x) + bi * big_stride * 2, host.x.data() + bi * row * 2, row * 2,
                       cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(big_y, 0xff, bytes));  // NaN poison
  dev.params.x.data = big_x;
  dev.params.x.stride[0] = big_stride;
  dev.params.y.data = big_y;
  dev.params.y.stride[0] = big_stride;
  ssd_forward(dev.params);
  CUDA_OK(cudaDeviceSynchronize());
  for (int64_t bi = 0; bi < 2; ++bi)
    CUDA_OK(cudaMemcpy(host.y.data() + bi * row * 2, static_cast<char*>(big_y) + bi * big_stride * 2, row * 2,
                       cudaMemcpyDeviceToHost));
  const ref::Outputs got = ref::read_outputs(host.params);
  EXPECT_LE(ref::rel_error(got.y, truth.y), 1e-2);
}

// B and C broadcast over the batch (stride 0, as torch's expand makes them): the Hopper kernel
// builds no tensor map for such a dimension (sm90::unsupported_reason), the portable kernel reads
// it; the result is the reference's on the broadcast values.
TEST(GpuForwardSmall, BroadcastBatchDimensionMatchesReference) {
  REQUIRE_GPU();
  const auto same_rows = [](ref::Inputs& in) {  // batch row 1 of B and C = row 0's
    const int64_t row = in.seqlen * in.groups * in.dstate;
    std::copy(in.B.begin(), in.B.begin() + row, in.B.begin() + row);
    std::copy(in.C.begin(), in.C.begin() + row, in.C.begin() + row);
  };
  const auto broadcast = [](DeviceTensors& d) { d.params.B.stride[0] = d.params.C.stride[0] = 0; };
  const CaseResult r = run_case(all_options(2, 100, 4, 2, 64, 128, 131), {DType::kBFloat16},
                                SegsumVariant::kHierarchical, broadcast, same_rows);
  EXPECT_EQ(r.path.rfind("sm80: ", 0), 0u) << r.path;
  expect_close(r, DType::kBFloat16, "B and C broadcast over the batch");
}

TEST(GpuForwardSmall, UnsupportedOptionsNameThemselves) {
  REQUIRE_GPU();
  auto s = all_options(1, 16, 2, 1, 64, 64, 110);
  ref::Inputs in = ref::make_random(s);
  ref::HostTensorOptions opt;
  opt.io = DType::kFloat16;
  ref::HostTensors host = ref::make_host_tensors(in, opt);
  DeviceTensors dev;
  to_device(host, dev);
  dev.params.segsum = SegsumVariant::kDiff;  // only built for bf16
  try {
    ssd_forward(dev.params);
    FAIL() << "expected NotSupported";
  } catch (const NotSupported& e) {
    EXPECT_NE(std::string(e.what()).find("diff"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ssd_forward_path(dev.params), NotSupported);  // (the same decision, nothing launched)
}

// ssd_forward_path names the kernel the dispatch takes: the Hopper kernel where it serves the
// problem (on Hopper), the portable kernel for the rest and where it is disabled, with its
// head-dim block; the path of an empty problem. The call itself launches nothing: y keeps its
// poison.
TEST(GpuForwardSmall, ForwardPathNamesTheKernel) {
  REQUIRE_GPU();
  const ScopedEnv sm90_on("FLASHSSD_DISABLE_SM90", "0"), default_block("FLASHSSD_SM80_HALF_HEAD_BLOCK", "0");
  auto path_of = [](const ref::RandomSpec& s, DType io, bool* y_untouched = nullptr) {
    ref::Inputs in = ref::make_random(s);
    ref::HostTensorOptions opt;
    opt.io = io;
    ref::HostTensors host = ref::make_host_tensors(in, opt);
    DeviceTensors dev;
    to_device(host, dev);
    std::vector<unsigned char> before(64), after(64);
    if (y_untouched != nullptr)
      EXPECT_EQ(cudaMemcpy(before.data(), dev.params.y.data, 64, cudaMemcpyDeviceToHost), cudaSuccess);
    const std::string path = ssd_forward_path(dev.params);
    if (y_untouched != nullptr) {
      EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(cudaMemcpy(after.data(), dev.params.y.data, 64, cudaMemcpyDeviceToHost), cudaSuccess);
      *y_untouched = before == after;
    }
    return path;
  };
  EXPECT_EQ(path_of(all_options(1, 0, 2, 1, 64, 128, 125), DType::kBFloat16), "device: no tokens, states only (no kernel)");
  bool y_untouched = false;
  const std::string bf16_128 = path_of(all_options(1, 64, 2, 1, 64, 128, 120), DType::kBFloat16, &y_untouched);
  EXPECT_TRUE(y_untouched) << "ssd_forward_path wrote y";
  if (!testing::have_sm90()) {  // (which blocks fit depends on the GPU's shared memory)
    EXPECT_EQ(bf16_128.rfind("sm80: portable kernel (mma.sync), bfloat16, N<=128, head-dim block ", 0), 0u) << bf16_128;
    return;
  }
  EXPECT_EQ(bf16_128, "sm90: Hopper kernel (TMA + WGMMA), bfloat16, N=128");
  EXPECT_EQ(path_of(all_options(1, 64, 2, 1, 64, 96, 121), DType::kFloat32),
            "sm80: portable kernel (mma.sync), float32, N<=128, head-dim block 32, segsum hierarchical");
  EXPECT_EQ(path_of(all_options(1, 64, 2, 1, 40, 64, 122), DType::kFloat16),
            "sm80: portable kernel (mma.sync), float16, N<=64, head-dim block 64, segsum hierarchical");
  {
    const ScopedEnv portable("FLASHSSD_DISABLE_SM90", "1");
    EXPECT_EQ(path_of(all_options(1, 64, 2, 1, 64, 256, 123), DType::kBFloat16),
              "sm80: portable kernel (mma.sync), bfloat16, N<=256, head-dim block 32, segsum hierarchical");
    const ScopedEnv half("FLASHSSD_SM80_HALF_HEAD_BLOCK", "1");
    EXPECT_EQ(path_of(all_options(1, 64, 2, 1, 64, 256, 124), DType::kBFloat16),
              "sm80: portable kernel (mma.sync), bfloat16, N<=256, head-dim block 16 (half), segsum hierarchical");
  }
}

}  // namespace
}  // namespace flashssd
