// Bad inputs: each must throw flashssd::Error whose message starts with
// "flashssd: <argument>: ", before any output (or input) byte changes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "api/problem.h"
#include "flashssd/flashssd.h"
#include "reference/reference.h"

namespace flashssd {
namespace {

using ref::HostTensors;

// A valid problem with every option: b=2, T=16, H=4, P=8, G=2, N=16, bf16.
HostTensors valid(bool varlen = false) {
  ref::RandomSpec s;
  s.batch = varlen ? 1 : 2;
  s.seqlen = 16;
  s.D = s.z = s.dt_bias = s.dt_softplus = s.initial_states = true;
  if (varlen) {
    s.varlen_seqs = 3;
  } else {
    s.packed_seqs = 3;
  }
  ref::HostTensorOptions opt;
  opt.io = DType::kBFloat16;
  return ref::make_host_tensors(ref::make_random(s), opt);
}

std::vector<std::vector<unsigned char>> snapshot(const HostTensors& h) {
  return {h.x, h.dt, h.A, h.B, h.C, h.D, h.z, h.dt_bias, h.initial_states,
          h.seq_idx, h.cu_seqlens, h.y, h.final_states, h.varlen_states};
}

// ssd_forward, ssd_validate and ssd_forward_path all reject with a flashssd::Error naming
// `arg`; nothing is written.
void expect_rejected(const HostTensors& h, const std::string& arg, const std::string& detail = "") {
  const auto before = snapshot(h);
  for (int entry = 0; entry < 3; ++entry) {
    try {
      if (entry == 0) {
        ssd_forward(h.params);
      } else if (entry == 1) {
        ssd_validate(h.params);
      } else {
        (void)ssd_forward_path(h.params);
      }
      ADD_FAILURE() << "no exception; expected one naming " << arg;
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind("flashssd: " + arg + ": ", 0), 0u) << "message does not name " << arg << ": " << msg;
      EXPECT_NE(msg.find("expected"), std::string::npos) << msg;
      if (!detail.empty()) {
        EXPECT_NE(msg.find(detail), std::string::npos) << msg;
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "wrong exception type: " << e.what();
    }
  }
  EXPECT_TRUE(snapshot(h) == before) << "a buffer changed although validation failed";
}

TEST(Validation, ValidProblemsPass) {
  HostTensors a = valid(false), b = valid(true);
  EXPECT_NO_THROW(ssd_validate(a.params));
  EXPECT_NO_THROW(ssd_validate(b.params));
  EXPECT_NO_THROW(validate_as_device(a.params));
  const Problem p = validate(a.params);
  EXPECT_FALSE(p.on_device);
  EXPECT_EQ(p.batch, 2);
  EXPECT_EQ(p.groups, 2);
  EXPECT_EQ(validate(b.params).num_seqs, 3);
}

// Host data takes the float64 reference; asking which path writes nothing.
TEST(Validation, ForwardPathOfHostData) {
  HostTensors a = valid(false), b = valid(true);
  const auto before = snapshot(a);
  EXPECT_EQ(ssd_forward_path(a.params), "host: float64 reference");
  EXPECT_EQ(ssd_forward_path(b.params), "host: float64 reference");
  EXPECT_TRUE(snapshot(a) == before);
}

TEST(Validation, RequiredTensorMissing) {
  HostTensors h = valid();
  h.params.C = TensorView{};
  expect_rejected(h, "C", "required");
}

TEST(Validation, WrongRank) {
  HostTensors h = valid();
  h.params.dt = make_view(h.dt.data(), DType::kFloat32, {2 * 16 * 4});
  expect_rejected(h, "dt", "(b, T, H)");
  HostTensors g = valid();
  g.params.D = make_view(g.D.data(), DType::kFloat32, {1, 4, 1});
  expect_rejected(g, "D", "(H) or (H, P)");
}

TEST(Validation, DimsDisagreeWithX) {
  HostTensors h = valid();
  h.params.dt.shape[2] = 3;  // H from x is 4
  expect_rejected(h, "dt", "got (2, 16, 3)");
  HostTensors g = valid();
  g.params.B.shape[1] = 15;  // T
  expect_rejected(g, "B");
  HostTensors f = valid();
  f.params.z.shape[3] = 4;  // P
  expect_rejected(f, "z");
  HostTensors e = valid();
  e.params.A.shape[0] = 5;
  expect_rejected(e, "A");
}

TEST(Validation, CDisagreesWithB) {
  HostTensors h = valid();
  h.params.C.shape[3] = 8;  // N from B is 16
  expect_rejected(h, "C", "like B");
}

TEST(Validation, StatesShape) {
  HostTensors h = valid();
  h.params.initial_states.shape[3] = 8;
  expect_rejected(h, "initial_states");
  HostTensors g = valid();
  g.params.final_states.shape[0] = 1;
  expect_rejected(g, "final_states");
  HostTensors f = valid();
  f.params.D = make_view(f.D.data(), DType::kFloat32, {4, 7});
  expect_rejected(f, "D", "(H, P)");
}

TEST(Validation, HeadsNotDivisibleByGroups) {
  HostTensors h = valid();
  // G = 3 groups with H = 4 heads (shapes of B and C agree with each other).
  h.params.B = make_view(h.B.data(), DType::kBFloat16, {2, 16, 3, 8});
  h.params.C = make_view(h.C.data(), DType::kBFloat16, {2, 16, 3, 8});
  expect_rejected(h, "B", "divide H = 4");
}

TEST(Validation, UnsupportedDtype) {
  HostTensors h = valid();
  h.params.x.dtype = DType::kInt32;
  expect_rejected(h, "x", "got int32");
  HostTensors g = valid();
  g.params.dt.dtype = DType::kInt64;
  expect_rejected(g, "dt");
  HostTensors f = valid();
  f.params.x.dtype = static_cast<DType>(42);
  expect_rejected(f, "x", "invalid dtype");
}

TEST(Validation, DtypeMix) {
  HostTensors h = valid();
  h.params.y.dtype = DType::kFloat16;  // x is bf16
  expect_rejected(h, "y", "dtype of x (bfloat16)");
  HostTensors g = valid();
  g.params.B.dtype = DType::kFloat32;
  expect_rejected(g, "B");
}

TEST(Validation, Fp32OnlyTensors) {
  HostTensors h = valid();
  h.params.A.dtype = DType::kBFloat16;
  expect_rejected(h, "A", "float32");
  HostTensors g = valid();
  g.params.initial_states.dtype = DType::kFloat16;
  expect_rejected(g, "initial_states", "float32");
  HostTensors f = valid();
  f.params.dt_bias.dtype = DType::kBFloat16;
  expect_rejected(f, "dt_bias");
}

TEST(Validation, IndexDtypes) {
  HostTensors h = valid();
  h.params.seq_idx.dtype = DType::kInt64;
  expect_rejected(h, "seq_idx", "int32");
  HostTensors g = valid(true);
  g.params.cu_seqlens.dtype = DType::kFloat32;
  expect_rejected(g, "cu_seqlens", "int32 or int64");
}

TEST(Validation, NegativeOrZeroDims) {
  HostTensors h = valid();
  h.params.x.shape[0] = -1;
  expect_rejected(h, "x", "non-negative");
  HostTensors g = valid();
  for (TensorView* v : {&g.params.x, &g.params.y, &g.params.z}) v->shape[3] = 0;  // P = 0
  g.params.D = TensorView{};
  g.params.initial_states = g.params.final_states = TensorView{};
  expect_rejected(g, "x", "P = x.shape[3] >= 1");
  HostTensors f = valid();
  f.params.B.shape[3] = f.params.C.shape[3] = 0;  // N = 0
  expect_rejected(f, "B", "N = B.shape[3] >= 1");
}

TEST(Validation, BadStridesAndPointers) {
  HostTensors h = valid();
  h.params.x.stride[1] = -h.params.x.stride[1];
  expect_rejected(h, "x", "non-negative strides");
  HostTensors g = valid();
  g.params.dt.data = nullptr;
  expect_rejected(g, "dt", "nullptr");
}

// Scalar tensors (dt, A, D, dt_bias, seq_idx, cu_seqlens) may have any strides,
// but their elements must be aligned: a misaligned load faults on the GPU.
TEST(Validation, MisalignedElementPointer) {
  HostTensors h = valid();
  h.params.dt.data = static_cast<char*>(h.params.dt.data) + 2;  // fp32 dt, 2 bytes off
  expect_rejected(h, "dt", "aligned to its element size");
  HostTensors g = valid(/*varlen=*/true);
  g.params.cu_seqlens.data = static_cast<char*>(g.params.cu_seqlens.data) + 1;
  expect_rejected(g, "cu_seqlens", "aligned to its element size");
}

TEST(Validation, SeqIdxDecreasing) {
  HostTensors h = valid();
  int32_t* s = reinterpret_cast<int32_t*>(h.seq_idx.data());
  s[16 + 9] = s[16 + 8] - 1;  // row 1, token 9
  expect_rejected(h, "seq_idx", "seq_idx[1, 9]");
}

TEST(Validation, CuSeqlensInconsistent) {
  auto with = [](std::vector<int32_t> values) {
    HostTensors h = valid(true);
    std::memcpy(h.cu_seqlens.data(), values.data(), values.size() * 4);
    return h;
  };
  expect_rejected(with({1, 4, 9, 16}), "cu_seqlens", "cu_seqlens[0] == 0");
  expect_rejected(with({0, 9, 4, 16}), "cu_seqlens", "non-decreasing");
  expect_rejected(with({0, 4, 9, 15}), "cu_seqlens", "T = 16");
}

TEST(Validation, CuSeqlensNeedsBatchOne) {
  HostTensors h = valid(false);
  HostTensors v = valid(true);
  h.params.cu_seqlens = v.params.cu_seqlens;
  expect_rejected(h, "cu_seqlens", "b = 2");
}

TEST(Validation, VarlenStates) {
  HostTensors h = valid(true);
  h.params.cu_seqlens = TensorView{};
  expect_rejected(h, "varlen_states", "cu_seqlens");
  HostTensors g = valid(true);
  g.params.varlen_states.shape[0] = 2;  // 3 sequences
  expect_rejected(g, "varlen_states", "num_seqs");
}

TEST(Validation, DtLimit) {
  HostTensors h = valid();
  h.params.dt_limit_lo = 2.0f;
  h.params.dt_limit_hi = 1.0f;
  expect_rejected(h, "dt_limit", "lo <= dt_limit_hi");
  HostTensors g = valid();
  g.params.dt_limit_hi = std::numeric_limits<float>::quiet_NaN();
  expect_rejected(g, "dt_limit");
}

TEST(Validation, NegativeChunkSize) {
  HostTensors h = valid();
  h.params.chunk_size = -64;
  expect_rejected(h, "chunk_size", "-64");
}

TEST(Validation, InvalidSegsumVariant) {
  HostTensors h = valid();
  h.params.segsum = static_cast<SegsumVariant>(9);
  expect_rejected(h, "segsum");
}

TEST(Validation, OutputAliasesInput) {
  HostTensors h = valid();
  h.params.y.data = h.params.x.data;  // in place is not supported
  expect_rejected(h, "y", "input x");
  HostTensors g = valid();
  g.params.final_states.data = g.params.initial_states.data;
  expect_rejected(g, "final_states", "input initial_states");
  HostTensors f = valid();
  // Partial overlap: y starts one element into z.
  f.params.y.data = f.z.data() + 2;
  expect_rejected(f, "y", "input z");
}

TEST(Validation, OutputsOverlapEachOther) {
  HostTensors h = valid(true);
  h.params.varlen_states.data = h.params.final_states.data;
  expect_rejected(h, "final_states", "output varlen_states");
}

TEST(Validation, OutputOverlapsItself) {
  HostTensors h = valid();
  h.params.y.stride[2] = 0;  // every head writes to the same place
  expect_rejected(h, "y", "overlaps itself");
  HostTensors g = valid();
  g.params.final_states.stride[3] = 2;  // N=16 elements at stride 2 run into the next row (P)
  expect_rejected(g, "final_states", "overlaps itself");
}

// The GPU path's alignment rule, exercised through validate_as_device (the
// host path has no alignment rule).
TEST(Validation, DeviceAlignmentRule) {
  auto as_device_error = [](const HostTensors& h) -> std::string {
    try {
      validate_as_device(h.params);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  {
    HostTensors h = valid();
    h.params.x.data = h.x.data() + 2;  // one bf16 element in: 2 mod 16
    EXPECT_NO_THROW(ssd_validate(h.params)) << "host path has no alignment rule";
    EXPECT_EQ(as_device_error(h).rfind("flashssd: x: expected a 16-byte aligned", 0), 0u) << as_device_error(h);
  }
  {
    HostTensors h = valid();
    h.params.B.stride[3] = 2;  // innermost not contiguous
    h.params.B.stride[2] = 32;
    h.params.B.stride[1] = 64;
    h.params.B.stride[0] = 1024;
    EXPECT_EQ(as_device_error(h).rfind("flashssd: B: expected innermost stride 1", 0), 0u) << as_device_error(h);
  }
  {
    ref::RandomSpec s;
    ref::HostTensorOptions opt;
    opt.io = DType::kBFloat16;
    opt.pad = 3;  // rows of 8 + 3 bf16: strides not multiples of 8 elements
    HostTensors h = ref::make_host_tensors(ref::make_random(s), opt);
    EXPECT_NO_THROW(ssd_validate(h.params));
    EXPECT_EQ(as_device_error(h).rfind("flashssd: x: expected every stride but the innermost", 0), 0u)
        << as_device_error(h);
  }
  {
    HostTensors h = valid();
    h.params.initial_states.data = h.initial_states.data() + 4;  // fp32 element 1: 4 mod 16
    h.params.initial_states.shape[0] = 1;
    h.params.final_states.shape[0] = 1;
    h.params.x.shape[0] = h.params.y.shape[0] = h.params.z.shape[0] = 1;
    h.params.dt.shape[0] = h.params.B.shape[0] = h.params.C.shape[0] = h.params.seq_idx.shape[0] = 1;
    EXPECT_NO_THROW(ssd_validate(h.params));
    EXPECT_EQ(as_device_error(h).rfind("flashssd: initial_states: expected a 16-byte aligned", 0), 0u)
        << as_device_error(h);
  }
  {
    // dt, A, D, dt_bias, seq_idx, cu_seqlens may have any stride.
    HostTensors h = valid();
    h.params.dt.stride[2] = 1;
    h.params.dt.shape[1] = 4;
    h.params.dt.stride[1] = 5;
    h.params.dt.stride[0] = 100;
    for (TensorView* v : {&h.params.x, &h.params.y, &h.params.z, &h.params.B, &h.params.C}) v->shape[1] = 4;
    h.params.seq_idx.shape[1] = 4;
    EXPECT_EQ(as_device_error(h), "");
  }
}

// On the device path, dims the GPU kernels do not serve are refused with NotSupported naming them,
// after every argument check, and before the alignment rule: a contiguous bf16 x of P = 12 also
// breaks that rule, but no layout of P = 12 would be served.
TEST(Validation, DeviceDimsNotServed) {
  auto make = [](int64_t headdim, int64_t dstate) {
    ref::RandomSpec s;
    s.headdim = headdim;
    s.dstate = dstate;
    s.z = s.initial_states = true;
    ref::HostTensorOptions opt;
    opt.io = DType::kBFloat16;
    return ref::make_host_tensors(ref::make_random(s), opt);
  };
  auto device_outcome = [](const HostTensors& h) -> std::string {
    try {
      validate_as_device(h.params);
    } catch (const NotSupported& e) {
      return std::string("NotSupported: ") + e.what();
    } catch (const Error& e) {
      return std::string("Error: ") + e.what();
    }
    return "";
  };
  {
    HostTensors h = make(12, 16);
    EXPECT_NO_THROW(ssd_validate(h.params)) << "the host path serves any P";
    EXPECT_EQ(device_outcome(h).rfind("NotSupported: flashssd: GPU path needs the head dim P", 0), 0u)
        << device_outcome(h);
  }
  {
    HostTensors h = make(8, 20);
    EXPECT_EQ(device_outcome(h).rfind("NotSupported: flashssd: GPU path needs the state dim N", 0), 0u)
        << device_outcome(h);
  }
  {
    HostTensors h = make(8, 264);
    EXPECT_EQ(device_outcome(h).rfind("NotSupported: flashssd: GPU path needs the state dim N", 0), 0u)
        << device_outcome(h);
  }
  {
    HostTensors h = make(12, 16);
    h.params.A.shape[0] = 3;  // a bad argument is named first
    EXPECT_EQ(device_outcome(h).rfind("Error: flashssd: A: expected", 0), 0u) << device_outcome(h);
  }
  {
    HostTensors h = make(12, 16);
    h.params.initial_states.data = h.initial_states.data() + 4;  // the states' rule still holds
    EXPECT_EQ(device_outcome(h).rfind("Error: flashssd: initial_states: expected a 16-byte aligned", 0), 0u)
        << device_outcome(h);
  }
  {
    HostTensors h = make(12, 16);  // no token: no kernel runs, only the states are written
    for (TensorView* v : {&h.params.x, &h.params.y, &h.params.z, &h.params.dt, &h.params.B, &h.params.C})
      v->shape[1] = 0;
    EXPECT_EQ(device_outcome(h), "");
  }
}

}  // namespace
}  // namespace flashssd
