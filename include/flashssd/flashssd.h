// FlashSSD public C++ API: the Mamba-2 SSD (state space duality) forward.
//
// Semantics follow mamba_ssm's mamba_chunk_scan_combined exactly (see
// docs/API.md and docs/DESIGN.md section 1). Every tensor is described by a
// TensorView (pointer, dtype, shape, strides in ELEMENTS); optional tensors are
// left default-constructed (ndim == 0, data == nullptr).
//
// Where the data lives decides where the work runs: all pointers on the host ->
// float64 CPU reference (slow, exact); all pointers on a CUDA device -> GPU
// kernels on `stream`. Mixing host and device pointers is an error.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>

// Forward declaration, so that this header needs no CUDA headers.
typedef struct CUstream_st* cudaStream_t;

namespace flashssd {

enum class DType : int { kFloat32 = 0, kBFloat16 = 1, kFloat16 = 2, kInt32 = 3, kInt64 = 4 };

const char* dtype_name(DType t);
int dtype_size(DType t);

constexpr int kMaxRank = 4;

// A non-owning strided view. Strides are in elements (not bytes), like torch.
struct TensorView {
  void* data = nullptr;
  DType dtype = DType::kFloat32;
  int ndim = 0;  // 0: tensor not given (only allowed for optional arguments)
  int64_t shape[kMaxRank] = {0, 0, 0, 0};
  int64_t stride[kMaxRank] = {0, 0, 0, 0};

  bool defined() const { return ndim > 0; }
  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) n *= shape[i];
    return n;
  }
};

// Build a contiguous (row-major) view.
TensorView make_view(void* data, DType dtype, std::initializer_list<int64_t> shape);

// Which algorithm evaluates the in-tile decay mask L_ij = exp(a_{j+1} + ... + a_i)
// (docs/DESIGN.md section 4). The result is the same up to rounding; kHierarchical is
// stable and fast, kDiff is the fast-but-unstable prefix subtraction that the
// Triton kernels use, kDirect is the slow stable materialised sum.
enum class SegsumVariant : int { kHierarchical = 0, kDiff = 1, kDirect = 2 };

const char* segsum_variant_name(SegsumVariant v);

// Arguments of ssd_forward. Shapes (b batch, T tokens, H heads, P head dim,
// G groups, N state dim):
//   x               (b, T, H, P)   bf16 | fp16 | fp32
//   dt              (b, T, H)      fp32 | bf16 | fp16
//   A               (H)            fp32 (negative)
//   B, C            (b, T, G, N)   same dtype as x
//   D        opt.   (H) or (H, P)  fp32
//   z        opt.   (b, T, H, P)   same dtype as x; y *= silu(z)
//   dt_bias  opt.   (H)            fp32
//   initial_states  opt. (b, H, P, N) fp32; applies to the first sequence of each batch row
//   seq_idx  opt.   (b, T)         int32, non-decreasing along T; state resets where it changes
//   cu_seqlens opt. (num_seqs + 1) int32 | int64, b == 1, cu_seqlens[0] == 0,
//                   non-decreasing, cu_seqlens[last] == T; state resets at each sequence start
// Outputs:
//   y               (b, T, H, P)   same dtype as x (required)
//   final_states    opt. (b, H, P, N) fp32: the state after the last token
//   varlen_states   opt. (num_seqs, H, P, N) fp32: the state after each sequence's
//                   last token (requires cu_seqlens)
struct SsdParams {
  TensorView x, dt, A, B, C;
  TensorView D, z, dt_bias, initial_states, seq_idx, cu_seqlens;
  TensorView y, final_states, varlen_states;

  bool dt_softplus = false;
  float dt_limit_lo = 0.0f;
  float dt_limit_hi = std::numeric_limits<float>::infinity();

  // Accepted for compatibility with mamba_ssm. The result is mathematically
  // independent of it; the library picks its own compute tile. Must be >= 0
  // (0 = library default).
  int64_t chunk_size = 0;

  SegsumVariant segsum = SegsumVariant::kHierarchical;

  cudaStream_t stream = nullptr;  // used only on the GPU path
};

// Bad input: the message names the argument, what was expected and what came.
class Error : public std::invalid_argument {
 public:
  explicit Error(const std::string& what) : std::invalid_argument(what) {}
};

// A valid request the library cannot serve yet (e.g. an option not implemented
// on this GPU architecture). The message names the option.
class NotSupported : public std::runtime_error {
 public:
  explicit NotSupported(const std::string& what) : std::runtime_error(what) {}
};

// Validates every argument (throws Error before touching any output; for device
// data whose dims the GPU kernels do not serve, NotSupported), then runs on the
// host (float64 reference) or on the device, asynchronously on params.stream.
// Other requests the GPU path cannot serve throw NotSupported when dispatched;
// GPU launch failures throw std::runtime_error.
void ssd_forward(const SsdParams& params);

// Only the validation step, with its Error and NotSupported (P, N and sizes on the
// device path; not the dispatch's checks of architecture, segsum variant or shared
// memory). Useful for bindings that want to fail before allocating.
void ssd_validate(const SsdParams& params);

// Which path ssd_forward would take for these arguments, without running it: validates them
// and takes the dispatch's decisions (architecture, FLASHSSD_DISABLE_SM90 and
// FLASHSSD_SM80_HALF_HEAD_BLOCK, the GPU's shared memory) as ssd_forward does, throwing what it
// would throw there. The split plan and its knobs, and FLASHSSD_DISABLE_PDL, are left to the
// launch (not read here). E.g.
//   "sm90: Hopper kernel (TMA + WGMMA), bfloat16, N=128"
//   "sm80: portable kernel (mma.sync), float32, N<=128, head-dim block 32, segsum hierarchical"
//   "host: float64 reference"     "device: no tokens, states only (no kernel)"
// For logs and tests; the format may grow (the text before ':' names the path).
std::string ssd_forward_path(const SsdParams& params);

// Library version string, e.g. "0.1.0".
const char* version();

}  // namespace flashssd
