// flashssd._C: the nanobind extension behind the Python package.
//
// Tensors come in through DLPack (nb::ndarray), so any framework that speaks
// DLPack works (torch, numpy, cupy, jax) and nothing here depends on torch. The
// module is deliberately thin: it turns each array into a flashssd::TensorView
// and calls the C++ API, which validates everything and decides host vs device
// from the pointers. Errors keep the C++ message:
//   flashssd::Error        -> flashssd.Error, a ValueError
//   flashssd::NotSupported -> flashssd.NotSupported, a NotImplementedError
//   other std::exception   -> RuntimeError (nanobind's default)
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "api/problem.h"  // validate_as_device (meta validation); internal to this repository
#include "flashssd/flashssd.h"

namespace nb = nanobind;

namespace {

using Array = nb::ndarray<nb::ro>;  // any dtype, device, shape, layout; read-only is enough for inputs
using OutArray = nb::ndarray<>;

std::string shape_str(const int64_t* shape, size_t n) {
  std::ostringstream s;
  s << "(";
  for (size_t i = 0; i < n; ++i) s << (i ? ", " : "") << shape[i];
  s << (n == 1 ? ",)" : ")");
  return s.str();
}

std::string dlpack_dtype_str(nb::dlpack::dtype t) {
  std::string base;
  switch (nb::dlpack::dtype_code(t.code)) {
    case nb::dlpack::dtype_code::Int: base = "int"; break;
    case nb::dlpack::dtype_code::UInt: base = "uint"; break;
    case nb::dlpack::dtype_code::Float: base = "float"; break;
    case nb::dlpack::dtype_code::Bfloat: base = "bfloat"; break;
    case nb::dlpack::dtype_code::Complex: base = "complex"; break;
    case nb::dlpack::dtype_code::Bool: return "bool";
    default: base = "dlpack-code" + std::to_string(int(t.code)) + "-"; break;
  }
  std::string s = base + std::to_string(int(t.bits));
  if (t.lanes != 1) s += "x" + std::to_string(int(t.lanes));
  return s;
}

[[noreturn]] void fail(const char* name, const std::string& message) {
  throw flashssd::Error(std::string("flashssd: ") + name + ": " + message);
}

flashssd::DType to_dtype(const char* name, nb::dlpack::dtype t) {
  using C = nb::dlpack::dtype_code;
  if (t.lanes == 1) {
    if (t.code == uint8_t(C::Float) && t.bits == 32) return flashssd::DType::kFloat32;
    if (t.code == uint8_t(C::Bfloat) && t.bits == 16) return flashssd::DType::kBFloat16;
    if (t.code == uint8_t(C::Float) && t.bits == 16) return flashssd::DType::kFloat16;
    if (t.code == uint8_t(C::Int) && t.bits == 32) return flashssd::DType::kInt32;
    if (t.code == uint8_t(C::Int) && t.bits == 64) return flashssd::DType::kInt64;
  }
  fail(name, "got dtype " + dlpack_dtype_str(t) +
                 ", which flashssd does not take (its tensors are float32, bfloat16, float16, int32 or int64)");
}

// Rank and dtype of one array checked here (TensorView holds ranks 1..4); every
// other rule is the C++ validator's.
template <typename Arr>
flashssd::TensorView to_view(const char* name, const Arr& a) {
  const size_t ndim = a.ndim();
  if (ndim == 0) fail(name, "expected a tensor of rank >= 1, got a 0-d tensor (a scalar)");
  if (ndim > size_t(flashssd::kMaxRank)) {
    std::vector<int64_t> shape(ndim);
    for (size_t k = 0; k < ndim; ++k) shape[k] = int64_t(a.shape(k));
    fail(name, "expected a tensor of rank at most " + std::to_string(flashssd::kMaxRank) + ", got rank " +
                   std::to_string(ndim) + " with shape " + shape_str(shape.data(), ndim));
  }
  // The library tells host from device memory by asking the CUDA runtime (validate.cpp): memory
  // of any other kind of device would pass for host memory, and the host path would read it.
  const int32_t device = a.device_type();
  if (device != nb::device::cpu::value && device != nb::device::cuda::value &&
      device != nb::device::cuda_host::value && device != nb::device::cuda_managed::value) {
    fail(name, "expected memory of the CPU or a CUDA device (DLPack device types 1, 2, 3 and 13), got DLPack device type " +
                   std::to_string(device));
  }
  flashssd::TensorView v;
  v.data = const_cast<void*>(static_cast<const void*>(a.data()));
  v.dtype = to_dtype(name, a.dtype());
  v.ndim = int(ndim);
  for (size_t k = 0; k < ndim; ++k) {
    v.shape[k] = int64_t(a.shape(k));
    v.stride[k] = a.stride(k);
  }
  return v;
}

template <typename Arr>
flashssd::TensorView opt_view(const char* name, const std::optional<Arr>& a) {
  return a ? to_view(name, *a) : flashssd::TensorView{};
}

flashssd::SegsumVariant to_segsum(int segsum) {
  // The validator names an out-of-range enumerator itself.
  return static_cast<flashssd::SegsumVariant>(segsum);
}

flashssd::SsdParams make_params(const Array& x, const Array& dt, const Array& A, const Array& B, const Array& C,
                                const std::optional<Array>& D, const std::optional<Array>& z,
                                const std::optional<Array>& dt_bias, const std::optional<Array>& initial_states,
                                const std::optional<Array>& seq_idx, const std::optional<Array>& cu_seqlens,
                                const OutArray& y, const std::optional<OutArray>& final_states,
                                const std::optional<OutArray>& varlen_states, bool dt_softplus, double dt_limit_lo,
                                double dt_limit_hi, int64_t chunk_size, int segsum, uintptr_t stream) {
  flashssd::SsdParams p;
  p.x = to_view("x", x);
  p.dt = to_view("dt", dt);
  p.A = to_view("A", A);
  p.B = to_view("B", B);
  p.C = to_view("C", C);
  p.D = opt_view("D", D);
  p.z = opt_view("z", z);
  p.dt_bias = opt_view("dt_bias", dt_bias);
  p.initial_states = opt_view("initial_states", initial_states);
  p.seq_idx = opt_view("seq_idx", seq_idx);
  p.cu_seqlens = opt_view("cu_seqlens", cu_seqlens);
  p.y = to_view("y", y);
  p.final_states = opt_view("final_states", final_states);
  p.varlen_states = opt_view("varlen_states", varlen_states);
  p.dt_softplus = dt_softplus;
  p.dt_limit_lo = float(dt_limit_lo);
  p.dt_limit_hi = float(dt_limit_hi);
  p.chunk_size = chunk_size;
  p.segsum = to_segsum(segsum);
  p.stream = reinterpret_cast<cudaStream_t>(stream);
  return p;
}

// Runs the forward, or with describe_only returns the path it would take (flashssd::ssd_forward_path).
std::optional<std::string> ssd_forward(const Array& x, const Array& dt, const Array& A, const Array& B,
                                       const Array& C, const std::optional<Array>& D, const std::optional<Array>& z,
                                       const std::optional<Array>& dt_bias,
                                       const std::optional<Array>& initial_states,
                                       const std::optional<Array>& seq_idx, const std::optional<Array>& cu_seqlens,
                                       const OutArray& y, const std::optional<OutArray>& final_states,
                                       const std::optional<OutArray>& varlen_states, bool dt_softplus,
                                       double dt_limit_lo, double dt_limit_hi, int64_t chunk_size, int segsum,
                                       uintptr_t stream, bool describe_only) {
  const flashssd::SsdParams p = make_params(x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens, y,
                                            final_states, varlen_states, dt_softplus, dt_limit_lo, dt_limit_hi,
                                            chunk_size, segsum, stream);
  if (describe_only) return flashssd::ssd_forward_path(p);
  // The host reference can take a while: let other Python threads run.
  nb::gil_scoped_release release;
  flashssd::ssd_forward(p);
  return std::nullopt;
}

// ---- validation without data (torch fake tensors) --------------------------------------

// (dtype, shape, strides) of a tensor that has no data, e.g. a torch FakeTensor.
using Meta = std::tuple<int, std::vector<int64_t>, std::vector<int64_t>>;

// Views over distinct, 256-byte aligned, non-overlapping synthetic addresses:
// the validator checks shapes, dtypes, options and layouts, and never reads them.
struct MetaViews {
  uintptr_t next = uintptr_t(1) << 40;

  flashssd::TensorView view(const char* name, const std::optional<Meta>& m) {
    if (!m) return {};
    const auto& [dtype, shape, stride] = *m;
    if (shape.size() != stride.size()) fail(name, "meta description with different shape and stride ranks");
    if (shape.empty()) fail(name, "expected a tensor of rank >= 1, got a 0-d tensor (a scalar)");
    if (shape.size() > size_t(flashssd::kMaxRank)) {
      fail(name, "expected a tensor of rank at most " + std::to_string(flashssd::kMaxRank) + ", got rank " +
                     std::to_string(shape.size()) + " with shape " + shape_str(shape.data(), shape.size()));
    }
    if (dtype < int(flashssd::DType::kFloat32) || dtype > int(flashssd::DType::kInt64)) {
      fail(name, "got an unsupported dtype (its tensors are float32, bfloat16, float16, int32 or int64)");
    }
    flashssd::TensorView v;
    v.dtype = flashssd::DType(dtype);
    v.ndim = int(shape.size());
    uint64_t extent = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      v.shape[k] = shape[k];
      v.stride[k] = stride[k];
      if (shape[k] > 0 && stride[k] > 0) extent += uint64_t(shape[k] - 1) * uint64_t(stride[k]);
    }
    v.data = reinterpret_cast<void*>(next);
    const uint64_t bytes = extent * uint64_t(flashssd::dtype_size(v.dtype));
    next += uintptr_t((bytes + 511) / 256 * 256);
    return v;
  }
};

// Runs the C++ validator on descriptions of the tensors, as if they lived on a CUDA
// device (the GPU path's layout rules and served dims included) or on the host
// (on_device false: the float64 reference's rules); index contents are never read.
void validate_meta(const Meta& x, const Meta& dt, const Meta& A, const Meta& B, const Meta& C,
                   const std::optional<Meta>& D, const std::optional<Meta>& z, const std::optional<Meta>& dt_bias,
                   const std::optional<Meta>& initial_states, const std::optional<Meta>& seq_idx,
                   const std::optional<Meta>& cu_seqlens, const Meta& y, const std::optional<Meta>& final_states,
                   const std::optional<Meta>& varlen_states, bool dt_softplus, double dt_limit_lo,
                   double dt_limit_hi, int64_t chunk_size, int segsum, bool on_device) {
  MetaViews m;
  flashssd::SsdParams p;
  p.x = m.view("x", x);
  p.dt = m.view("dt", dt);
  p.A = m.view("A", A);
  p.B = m.view("B", B);
  p.C = m.view("C", C);
  p.D = m.view("D", D);
  p.z = m.view("z", z);
  p.dt_bias = m.view("dt_bias", dt_bias);
  p.initial_states = m.view("initial_states", initial_states);
  p.seq_idx = m.view("seq_idx", seq_idx);
  p.cu_seqlens = m.view("cu_seqlens", cu_seqlens);
  p.y = m.view("y", y);
  p.final_states = m.view("final_states", final_states);
  p.varlen_states = m.view("varlen_states", varlen_states);
  p.dt_softplus = dt_softplus;
  p.dt_limit_lo = float(dt_limit_lo);
  p.dt_limit_hi = float(dt_limit_hi);
  p.chunk_size = chunk_size;
  p.segsum = to_segsum(segsum);
  (void)(on_device ? flashssd::validate_as_device(p) : flashssd::validate_as_host(p));
}

}  // namespace

NB_MODULE(_C, m) {
  m.doc() = "FlashSSD C++ bindings (DLPack tensors in, results written to caller-provided outputs).";

  nb::exception<flashssd::Error>(m, "Error", PyExc_ValueError);
  nb::exception<flashssd::NotSupported>(m, "NotSupported", PyExc_NotImplementedError);

  nb::enum_<flashssd::DType>(m, "DType")
      .value("float32", flashssd::DType::kFloat32)
      .value("bfloat16", flashssd::DType::kBFloat16)
      .value("float16", flashssd::DType::kFloat16)
      .value("int32", flashssd::DType::kInt32)
      .value("int64", flashssd::DType::kInt64);

  nb::enum_<flashssd::SegsumVariant>(m, "SegsumVariant")
      .value("hierarchical", flashssd::SegsumVariant::kHierarchical)
      .value("diff", flashssd::SegsumVariant::kDiff)
      .value("direct", flashssd::SegsumVariant::kDirect);

  m.def("version", &flashssd::version, "Version string of the linked libflashssd.");

  m.def("ssd_forward", &ssd_forward, nb::arg("x"), nb::arg("dt"), nb::arg("A"), nb::arg("B"), nb::arg("C"),
        nb::arg("D").none() = nb::none(), nb::arg("z").none() = nb::none(),
        nb::arg("dt_bias").none() = nb::none(), nb::arg("initial_states").none() = nb::none(),
        nb::arg("seq_idx").none() = nb::none(), nb::arg("cu_seqlens").none() = nb::none(), nb::kw_only(),
        nb::arg("y"), nb::arg("final_states").none() = nb::none(), nb::arg("varlen_states").none() = nb::none(),
        nb::arg("dt_softplus") = false, nb::arg("dt_limit_lo") = 0.0,
        nb::arg("dt_limit_hi") = std::numeric_limits<double>::infinity(), nb::arg("chunk_size") = 0,
        nb::arg("segsum") = 0, nb::arg("stream") = 0, nb::arg("describe_only") = false,
        R"doc(Low-level SSD forward over DLPack arrays; writes y (and the optional states) in place.

Shapes and dtypes follow flashssd.h: x (b, T, H, P); dt (b, T, H); A (H) fp32;
B, C (b, T, G, N) like x; D (H) or (H, P) fp32; z like x; dt_bias (H) fp32;
initial_states (b, H, P, N) fp32; seq_idx (b, T) int32; cu_seqlens (S + 1)
int32/int64. Outputs: y like x, final_states (b, H, P, N) fp32,
varlen_states (S, H, P, N) fp32. Host arrays run the float64 CPU reference
(synchronously); CUDA arrays run the GPU path asynchronously on `stream` (a
cudaStream_t as an int, 0 = the legacy default stream), with no host
synchronisation. Raises flashssd.Error (a ValueError) on bad input,
flashssd.NotSupported (a NotImplementedError) for a valid request the build
cannot serve. With describe_only=True nothing runs: it returns the path the
call would take (flashssd::ssd_forward_path, e.g. "sm90: Hopper kernel (TMA +
WGMMA), bfloat16, N=128") and raises what the call would raise before a
launch; otherwise it returns None.)doc");

  m.def("validate_meta", &validate_meta, nb::arg("x"), nb::arg("dt"), nb::arg("A"), nb::arg("B"), nb::arg("C"),
        nb::arg("D").none(), nb::arg("z").none(), nb::arg("dt_bias").none(), nb::arg("initial_states").none(),
        nb::arg("seq_idx").none(), nb::arg("cu_seqlens").none(), nb::arg("y"), nb::arg("final_states").none(),
        nb::arg("varlen_states").none(), nb::arg("dt_softplus"), nb::arg("dt_limit_lo"), nb::arg("dt_limit_hi"),
        nb::arg("chunk_size"), nb::arg("segsum"), nb::arg("on_device") = true,
        R"doc(Validates tensor descriptions (dtype enum value, shape, strides) without data.

Used by the torch fake implementation: the same checks and messages as
ssd_forward on the GPU path (on_device, the default) or on the host path
(index-tensor contents are not read).)doc");
}
