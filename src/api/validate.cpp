// Argument validation of ssd_forward: every bad input throws flashssd::Error
// whose message starts with "flashssd: <argument>: " and says what was expected
// and what came. Nothing here writes to any tensor. The rules are documented in
// docs/API.md; keep the two in step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "api/problem.h"
#include "reference/convert.h"

namespace flashssd {

namespace {

// ---- messages -------------------------------------------------------------------------

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  throw Error("flashssd: " + name + ": " + message);
}

std::string tuple_str(const int64_t* v, int n) {
  std::ostringstream s;
  s << "(";
  for (int i = 0; i < n; ++i) s << (i ? ", " : "") << v[i];
  s << (n == 1 ? ",)" : ")");
  return s.str();
}

std::string tuple_str(std::initializer_list<int64_t> v) {
  return tuple_str(v.begin(), int(v.size()));
}

std::string shape_str(const TensorView& v) { return tuple_str(v.shape, v.ndim); }

bool valid_dtype(DType t) { return int(t) >= int(DType::kFloat32) && int(t) <= int(DType::kInt64); }

std::string dtype_str(DType t) {
  return valid_dtype(t) ? dtype_name(t) : "an invalid dtype value " + std::to_string(int(t));
}

// ---- one tensor's own checks ---------------------------------------------------------------

struct Arg {
  const char* name;
  const TensorView* view;
  bool output;
};

// Rank, sizes, strides and pointer of one given tensor, before any shape is read.
void check_basic(const Arg& a, std::initializer_list<int> ranks, const char* shape_doc) {
  const TensorView& v = *a.view;
  if (std::find(ranks.begin(), ranks.end(), v.ndim) == ranks.end()) {
    fail(a.name, std::string("expected shape ") + shape_doc + ", got a tensor of rank " + std::to_string(v.ndim) +
                     (v.ndim >= 1 && v.ndim <= kMaxRank ? " with shape " + shape_str(v) : ""));
  }
  if (!valid_dtype(v.dtype)) fail(a.name, "expected a DType enumerator, got " + dtype_str(v.dtype));
  for (int k = 0; k < v.ndim; ++k) {
    if (v.shape[k] < 0) fail(a.name, "expected non-negative sizes, got shape " + shape_str(v));
    if (v.stride[k] < 0) {
      fail(a.name, "expected non-negative strides, got strides " + tuple_str(v.stride, v.ndim));
    }
  }
  // The byte extent must be representable: the overlap and range checks use it.
  int64_t last = 0;
  for (int k = 0; k < v.ndim; ++k) {
    int64_t term = 0;
    if (v.shape[k] == 0) return;  // empty: no element, nothing addressed
    if (__builtin_mul_overflow(v.shape[k] - 1, v.stride[k], &term) || __builtin_add_overflow(last, term, &last)) {
      fail(a.name, "shape " + shape_str(v) + " with strides " + tuple_str(v.stride, v.ndim) +
                       " addresses more than 2^63 elements");
    }
  }
  if (__builtin_mul_overflow(last + 1, int64_t(dtype_size(v.dtype)), &last)) {
    fail(a.name, "shape " + shape_str(v) + " addresses more than 2^63 bytes");
  }
  if (v.data == nullptr) fail(a.name, "expected a data pointer for shape " + shape_str(v) + ", got nullptr");
  if (reinterpret_cast<uintptr_t>(v.data) % dtype_size(v.dtype) != 0) {
    fail(a.name, std::string("expected a data pointer aligned to its element size (") +
                     std::to_string(dtype_size(v.dtype)) + " bytes for " + dtype_name(v.dtype) + "), got " +
                     std::to_string(reinterpret_cast<uintptr_t>(v.data) % dtype_size(v.dtype)) + " bytes off");
  }
}

void check_dtype(const Arg& a, std::initializer_list<DType> allowed) {
  const DType t = a.view->dtype;
  if (std::find(allowed.begin(), allowed.end(), t) != allowed.end()) return;
  std::string list;
  for (DType d : allowed) list += std::string(list.empty() ? "" : " or ") + dtype_name(d);
  fail(a.name, "expected dtype " + list + ", got " + dtype_str(t));
}

void check_shape(const Arg& a, std::initializer_list<int64_t> want, const char* shape_doc) {
  const TensorView& v = *a.view;
  bool same = int(want.size()) == v.ndim;
  int k = 0;
  for (int64_t s : want) same = same && v.shape[k++] == s;
  if (!same) {
    fail(a.name, std::string("expected shape ") + shape_doc + " = " + tuple_str(want) + ", got " + shape_str(v));
  }
}

bool empty(const TensorView& v) { return !v.defined() || v.numel() == 0; }

// [first byte, one past the last byte] addressed by a non-empty view.
struct ByteRange {
  uintptr_t begin, end;
};

ByteRange byte_range(const TensorView& v) {
  int64_t last = 0;
  for (int k = 0; k < v.ndim; ++k) last += (v.shape[k] - 1) * v.stride[k];
  const uintptr_t begin = reinterpret_cast<uintptr_t>(v.data);
  return {begin, begin + uintptr_t((last + 1) * dtype_size(v.dtype))};
}

// An output must not write one address twice: with its dims of size > 1
// sorted by stride, each stride must step past everything the smaller ones span.
void check_no_self_overlap(const Arg& a) {
  const TensorView& v = *a.view;
  if (empty(v)) return;
  std::vector<int> dims;
  for (int k = 0; k < v.ndim; ++k) {
    if (v.shape[k] > 1) dims.push_back(k);
  }
  std::sort(dims.begin(), dims.end(), [&](int i, int j) { return v.stride[i] < v.stride[j]; });
  int64_t span = 0;  // the largest offset reached by the dims seen so far
  for (int k : dims) {
    if (v.stride[k] <= span) {
      fail(a.name, "expected an output layout that writes each element to its own address, got shape " +
                       shape_str(v) + " with strides " + tuple_str(v.stride, v.ndim) +
                       " (dimension " + std::to_string(k) + " overlaps itself)");
    }
    span += (v.shape[k] - 1) * v.stride[k];
  }
}

// ---- where the data lives ------------------------------------------------------------------------

struct Location {
  bool device = false;
  int ordinal = -1;
};

// Without a driver or a device every pointer is host memory; the probe's error
// is cleared so that it does not surface in the caller's next CUDA call.
bool cuda_usable() {
  static const bool usable = [] {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return count > 0;
  }();
  return usable;
}

Location locate(const void* p) {
  if (!cuda_usable()) return {};
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  // Managed memory runs on the device; pinned (cudaMemoryTypeHost) and
  // unregistered memory count as host memory.
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) return {true, attr.device};
  return {};
}

std::string location_str(const Location& l) {
  return l.device ? "device memory (CUDA device " + std::to_string(l.ordinal) + ")" : "host memory";
}

// ---- the GPU path's alignment rule ------------------------------------------------------------------

// Innermost stride 1, data pointer 16-byte aligned, every other stride a
// multiple of `unit` elements (dims of size 1 are ignored: their stride is never used).
void check_device_alignment(const Arg& a, int64_t unit, const char* why) {
  const TensorView& v = *a.view;
  if (empty(v)) return;
  const int last = v.ndim - 1;
  if (v.shape[last] > 1 && v.stride[last] != 1) {
    fail(a.name, std::string("expected innermost stride 1 on the GPU path (") + why + "), got strides " +
                     tuple_str(v.stride, v.ndim));
  }
  if (reinterpret_cast<uintptr_t>(v.data) % 16 != 0) {
    fail(a.name, std::string("expected a 16-byte aligned data pointer on the GPU path (") + why + "), got address " +
                     std::to_string(reinterpret_cast<uintptr_t>(v.data)) + " (" +
                     std::to_string(reinterpret_cast<uintptr_t>(v.data) % 16) + " mod 16)");
  }
  for (int k = 0; k < last; ++k) {
    if (v.shape[k] > 1 && v.stride[k] % unit != 0) {
      fail(a.name, "expected every stride but the innermost to be a multiple of " + std::to_string(unit) +
                       " elements (16 bytes of " + dtype_name(v.dtype) + ") on the GPU path (" + why +
                       "), got strides " + tuple_str(v.stride, v.ndim));
    }
  }
}

// ---- contents of the index tensors (host only) ------------------------------------------------------

void check_seq_idx_values(const TensorView& v, int64_t b, int64_t T) {
  for (int64_t bi = 0; bi < b; ++bi) {
    int64_t prev = 0;
    for (int64_t t = 0; t < T; ++t) {
      const int64_t cur = convert::load_int(v.data, v.dtype, bi * v.stride[0] + t * v.stride[1]);
      if (t > 0 && cur < prev) {
        fail("seq_idx", "expected non-decreasing values along T, got seq_idx[" + std::to_string(bi) + ", " +
                            std::to_string(t) + "] = " + std::to_string(cur) + " after seq_idx[" +
                            std::to_string(bi) + ", " + std::to_string(t - 1) + "] = " + std::to_string(prev));
      }
      prev = cur;
    }
  }
}

void check_cu_seqlens_values(const TensorView& v, int64_t T) {
  const int64_t n = v.shape[0];
  auto at = [&](int64_t k) { return convert::load_int(v.data, v.dtype, k * v.stride[0]); };
  if (at(0) != 0) fail("cu_seqlens", "expected cu_seqlens[0] == 0, got " + std::to_string(at(0)));
  for (int64_t k = 1; k < n; ++k) {
    if (at(k) < at(k - 1)) {
      fail("cu_seqlens", "expected non-decreasing offsets, got cu_seqlens[" + std::to_string(k) + "] = " +
                             std::to_string(at(k)) + " after cu_seqlens[" + std::to_string(k - 1) +
                             "] = " + std::to_string(at(k - 1)));
    }
  }
  if (at(n - 1) != T) {
    fail("cu_seqlens", "expected the last offset cu_seqlens[" + std::to_string(n - 1) + "] to equal T = " +
                           std::to_string(T) + " (x.shape[1]), got " + std::to_string(at(n - 1)));
  }
}

// Why the GPU kernels do not serve a non-empty problem's dims, or "" where they do: P and N
// multiples of 8 (their 16-byte vector loads of bf16 / fp16 rows), N <= 256, and sizes within
// their 32-bit tile and row indices. (An empty problem runs no kernel.)
std::string gpu_dims_unserved(const Problem& pr) {
  if (pr.batch == 0 || pr.seqlen == 0) return "";
  if (pr.dstate % 8 != 0 || pr.dstate > 256)
    return "flashssd: GPU path needs the state dim N to be a multiple of 8 and <= 256, got N=" +
           std::to_string(pr.dstate);
  if (pr.headdim % 8 != 0)
    return "flashssd: GPU path needs the head dim P to be a multiple of 8, got P=" + std::to_string(pr.headdim);
  if (pr.seqlen > (int64_t(1) << 30) || pr.batch * pr.heads > (int64_t(1) << 30))
    return "flashssd: sequence length or batch*heads above 2^30 on the GPU";
  if (pr.headdim > (int64_t(1) << 20) || pr.num_seqs > (int64_t(1) << 30))
    return "flashssd: head dim above 2^20 or more than 2^30 cu_seqlens sequences on the GPU";
  return "";
}

// Where validate_impl takes the data to live: asked of the CUDA runtime, or assumed (descriptions
// without data: their index tensors' contents are never read).
enum class Where { kLocate, kAssumeDevice, kAssumeHost };

Problem validate_impl(const SsdParams& p, Where assumed) {
  const Arg x{"x", &p.x, false}, dt{"dt", &p.dt, false}, A{"A", &p.A, false}, B{"B", &p.B, false},
      C{"C", &p.C, false}, D{"D", &p.D, false}, z{"z", &p.z, false}, dt_bias{"dt_bias", &p.dt_bias, false},
      initial{"initial_states", &p.initial_states, false}, seq_idx{"seq_idx", &p.seq_idx, false},
      cu{"cu_seqlens", &p.cu_seqlens, false}, y{"y", &p.y, true}, final_st{"final_states", &p.final_states, true},
      varlen{"varlen_states", &p.varlen_states, true};
  const Arg all[] = {x, dt, A, B, C, D, z, dt_bias, initial, seq_idx, cu, y, final_st, varlen};

  // 1. Required tensors, ranks, sizes, strides, pointers.
  const std::pair<const Arg*, const char*> required[] = {{&x, "(b, T, H, P)"}, {&dt, "(b, T, H)"}, {&A, "(H)"},
                                                          {&B, "(b, T, G, N)"}, {&C, "(b, T, G, N)"},
                                                          {&y, "(b, T, H, P)"}};
  for (const auto& r : required) {
    if (r.first->view->ndim == 0) {
      fail(r.first->name, std::string("required tensor: expected shape ") + r.second + ", got none (ndim == 0)");
    }
  }
  check_basic(x, {4}, "(b, T, H, P)");
  check_basic(dt, {3}, "(b, T, H)");
  check_basic(A, {1}, "(H)");
  check_basic(B, {4}, "(b, T, G, N)");
  check_basic(C, {4}, "(b, T, G, N)");
  check_basic(y, {4}, "(b, T, H, P)");
  if (D.view->defined()) check_basic(D, {1, 2}, "(H) or (H, P)");
  if (z.view->defined()) check_basic(z, {4}, "(b, T, H, P)");
  if (dt_bias.view->defined()) check_basic(dt_bias, {1}, "(H)");
  if (initial.view->defined()) check_basic(initial, {4}, "(b, H, P, N)");
  if (seq_idx.view->defined()) check_basic(seq_idx, {2}, "(b, T)");
  if (cu.view->defined()) check_basic(cu, {1}, "(num_seqs + 1)");
  if (final_st.view->defined()) check_basic(final_st, {4}, "(b, H, P, N)");
  if (varlen.view->defined()) check_basic(varlen, {4}, "(num_seqs, H, P, N)");
  for (const Arg& a : all) {
    if (a.view->ndim < 0) fail(a.name, "expected ndim >= 0, got " + std::to_string(a.view->ndim));
  }

  // 2. Dtypes: x, B, C, z, y share one floating dtype; states and per-head
  // parameters are fp32; index tensors are integers.
  const auto io_types = {DType::kBFloat16, DType::kFloat16, DType::kFloat32};
  check_dtype(x, io_types);
  const DType io = p.x.dtype;
  check_dtype(dt, io_types);
  check_dtype(A, {DType::kFloat32});
  for (const Arg& a : {B, C, z, y}) {
    if (a.view->defined() && a.view->dtype != io) {
      fail(a.name, std::string("expected the dtype of x (") + dtype_name(io) + "), got " + dtype_str(a.view->dtype));
    }
  }
  for (const Arg& a : {D, dt_bias, initial, final_st, varlen}) {
    if (a.view->defined()) check_dtype(a, {DType::kFloat32});
  }
  if (seq_idx.view->defined()) check_dtype(seq_idx, {DType::kInt32});
  if (cu.view->defined()) check_dtype(cu, {DType::kInt32, DType::kInt64});

  // 3. Dims: x gives b, T, H, P; B gives G, N; everything else must agree.
  Problem pr;
  pr.batch = p.x.shape[0];
  pr.seqlen = p.x.shape[1];
  pr.heads = p.x.shape[2];
  pr.headdim = p.x.shape[3];
  pr.groups = p.B.shape[2];
  pr.dstate = p.B.shape[3];
  const int64_t b = pr.batch, T = pr.seqlen, H = pr.heads, P = pr.headdim, G = pr.groups, N = pr.dstate;
  if (H < 1) fail("x", "expected H = x.shape[2] >= 1, got shape " + shape_str(p.x));
  if (P < 1) fail("x", "expected P = x.shape[3] >= 1, got shape " + shape_str(p.x));
  check_shape(B, {b, T, G, N}, "(b, T, G, N) with b, T from x");
  if (G < 1) fail("B", "expected G = B.shape[2] >= 1, got shape " + shape_str(p.B));
  if (N < 1) fail("B", "expected N = B.shape[3] >= 1, got shape " + shape_str(p.B));
  if (H % G != 0) {
    fail("B", "expected the number of groups G = B.shape[2] to divide H = " + std::to_string(H) + ", got G = " +
                  std::to_string(G));
  }
  check_shape(C, {b, T, G, N}, "(b, T, G, N) like B");
  check_shape(dt, {b, T, H}, "(b, T, H) from x");
  check_shape(A, {H}, "(H) from x");
  check_shape(y, {b, T, H, P}, "(b, T, H, P) like x");
  if (z.view->defined()) check_shape(z, {b, T, H, P}, "(b, T, H, P) like x");
  if (D.view->defined()) {
    pr.D_per_channel = p.D.ndim == 2;
    if (pr.D_per_channel) {
      check_shape(D, {H, P}, "(H, P) from x");
    } else {
      check_shape(D, {H}, "(H) from x");
    }
  }
  if (dt_bias.view->defined()) check_shape(dt_bias, {H}, "(H) from x");
  if (initial.view->defined()) check_shape(initial, {b, H, P, N}, "(b, H, P, N) from x and B");
  if (final_st.view->defined()) check_shape(final_st, {b, H, P, N}, "(b, H, P, N) from x and B");
  if (seq_idx.view->defined()) check_shape(seq_idx, {b, T}, "(b, T) from x");
  if (cu.view->defined()) {
    if (p.cu_seqlens.shape[0] < 2) {
      fail("cu_seqlens", "expected shape (num_seqs + 1) with num_seqs >= 1, got " + shape_str(p.cu_seqlens));
    }
    if (b != 1) fail("cu_seqlens", "expected batch b = x.shape[0] == 1 with cu_seqlens, got b = " + std::to_string(b));
    pr.num_seqs = p.cu_seqlens.shape[0] - 1;
  }
  if (varlen.view->defined()) {
    if (!cu.view->defined()) fail("varlen_states", "expected cu_seqlens to be given with varlen_states, got none");
    check_shape(varlen, {pr.num_seqs, H, P, N}, "(num_seqs, H, P, N) from cu_seqlens, x and B");
  }

  // 4. Options.
  if (std::isnan(p.dt_limit_lo) || std::isnan(p.dt_limit_hi) || p.dt_limit_lo > p.dt_limit_hi) {
    fail("dt_limit", "expected dt_limit_lo <= dt_limit_hi (no NaN), got (" + std::to_string(p.dt_limit_lo) + ", " +
                         std::to_string(p.dt_limit_hi) + ")");
  }
  if (p.chunk_size < 0) {
    fail("chunk_size", "expected chunk_size >= 0 (0 = library default), got " + std::to_string(p.chunk_size));
  }
  if (int(p.segsum) < 0 || int(p.segsum) > int(SegsumVariant::kDirect)) {
    fail("segsum", "expected a SegsumVariant enumerator, got " + std::to_string(int(p.segsum)));
  }

  // 5. Where the data lives: one place for every non-empty tensor.
  const Arg* first = nullptr;
  Location where;
  for (const Arg& a : all) {
    if (empty(*a.view)) continue;
    const Location l = assumed == Where::kLocate ? locate(a.view->data) : Location{assumed == Where::kAssumeDevice, 0};
    if (!first) {
      first = &a;
      where = l;
    } else if (l.device != where.device || l.ordinal != where.ordinal) {
      fail(a.name, "expected " + location_str(where) + " like " + first->name + " (host and device pointers " +
                       "cannot be mixed), got " + location_str(l));
    }
  }
  pr.on_device = where.device;
  pr.device = where.ordinal;

  // 6. The GPU path's alignment rule (docs/API.md). Where the kernels do not serve P or N, a
  // contiguous activation breaks it too: the caller hears of the dims (NotSupported, after the
  // argument checks below), not of strides that no layout of those dims would fix.
  const std::string unserved = pr.on_device ? gpu_dims_unserved(pr) : "";
  if (pr.on_device) {
    const int64_t io_unit = 16 / dtype_size(io);
    if (unserved.empty())
      for (const Arg& a : {x, z, B, C, y}) check_device_alignment(a, io_unit, "vectorised loads of activations");
    for (const Arg& a : {initial, final_st, varlen}) check_device_alignment(a, 4, "vectorised state loads");
  }

  // 7. Outputs write each address once, and overlap no input and no other output.
  for (const Arg& o : {y, final_st, varlen}) check_no_self_overlap(o);
  for (const Arg& o : {y, final_st, varlen}) {
    if (empty(*o.view)) continue;
    const ByteRange r = byte_range(*o.view);
    for (const Arg& a : all) {
      if (a.view == o.view || empty(*a.view)) continue;
      const ByteRange s = byte_range(*a.view);
      if (r.begin < s.end && s.begin < r.end) {
        fail(o.name, std::string("expected an output whose memory overlaps no other argument, got overlap with ") +
                         (a.output ? "output " : "input ") + a.name);
      }
    }
  }

  // 8. Contents of the index tensors. Checked where they can be read without a
  // device synchronisation, i.e. on the host; on the device they are the
  // caller's contract (docs/API.md).
  if (!pr.on_device && assumed == Where::kLocate) {
    if (!empty(p.seq_idx)) check_seq_idx_values(p.seq_idx, b, T);
    if (cu.view->defined()) check_cu_seqlens_values(p.cu_seqlens, T);
  }

  // 9. Every argument is valid: a device problem whose dims the kernels do not serve is refused.
  if (!unserved.empty()) throw NotSupported(unserved);
  return pr;
}

}  // namespace

Problem validate(const SsdParams& params) { return validate_impl(params, Where::kLocate); }

Problem validate_as_device(const SsdParams& params) { return validate_impl(params, Where::kAssumeDevice); }

Problem validate_as_host(const SsdParams& params) { return validate_impl(params, Where::kAssumeHost); }

}  // namespace flashssd
