// The float64 CPU reference of the SSD forward (DESIGN.md section 1), in two
// independent forms, plus helpers that tests (CPU and GPU) use as the truth:
// random problems, rounding to a storage dtype, host buffers wired into an
// SsdParams, and error norms.
//
// Semantics (the same rules the library documents in docs/API.md):
//   dt'  = clamp(softplus?(dt + dt_bias), lo, hi)      softplus(v) = v for v > 20
//   a    = dt' * A[h]
//   h_t  = exp(a_t) h_{t-1} + dt'_t x_t B_t^T           (P x N per batch row and head)
//   y_t  = h_t C_t + D x_t ;  y_t *= silu(z_t)
// Head h reads group h / (H / G) of B and C.
// State resets (h_{t-1} := 0 before token t > 0) where seq_idx changes value or
// where a cu_seqlens sequence starts. Before token 0 the state is
// initial_states[b] if given, except with cu_seqlens when sequence 0 is empty
// (initial_states belong to sequence 0 only), and zero otherwise.
// final_states[b] = the state after the row's last token (initial_states, or
// zero, when T == 0). varlen_states[k] = the state after the last token of
// sequence k; for an empty sequence, the state it starts from: initial_states
// for k == 0 when given, zero otherwise.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "flashssd/flashssd.h"

namespace flashssd {
namespace ref {

// All tensors contiguous row-major in double (seq_idx, cu_seqlens as integers).
// Optional tensors are empty vectors when not given.
struct Inputs {
  int64_t batch = 0, seqlen = 0, heads = 0, headdim = 0, groups = 0, dstate = 0;
  std::vector<double> x;               // (b, T, H, P)
  std::vector<double> dt;              // (b, T, H), raw: before bias, softplus and limit
  std::vector<double> A;               // (H)
  std::vector<double> B, C;            // (b, T, G, N)
  std::vector<double> D;               // empty, (H) or (H, P)
  std::vector<double> z;               // empty or (b, T, H, P)
  std::vector<double> dt_bias;         // empty or (H)
  std::vector<double> initial_states;  // empty or (b, H, P, N)
  std::vector<int32_t> seq_idx;        // empty or (b, T), non-decreasing per row
  std::vector<int64_t> cu_seqlens;     // empty or (num_seqs + 1); batch == 1
  bool dt_softplus = false;
  double dt_limit_lo = 0.0;
  double dt_limit_hi = std::numeric_limits<double>::infinity();

  int64_t num_seqs() const { return cu_seqlens.empty() ? 0 : int64_t(cu_seqlens.size()) - 1; }
  // D of shape (H, P) rather than (H) (the same thing when P == 1).
  bool D_per_channel() const { return !D.empty() && int64_t(D.size()) != heads; }
};

struct Outputs {
  std::vector<double> y;              // (b, T, H, P)
  std::vector<double> final_states;   // (b, H, P, N), always computed
  std::vector<double> varlen_states;  // (num_seqs, H, P, N), empty without cu_seqlens
};

// Throws std::invalid_argument when the vectors' sizes do not match the dims
// or cu_seqlens / seq_idx break their rules.
void check(const Inputs& in);

// dt' from a raw dt value (the one place both forms share: it is a pointwise map).
double effective_dt(double raw, double bias, bool softplus, double lo, double hi);

// Form 1: the sequential recurrence, token by token. O(b T H P N). It runs on `threads`
// threads (0: the hardware's count; problems under ~4M multiply-adds on one), split by batch
// row, head and block of 8 state rows; the result is the same bits for any thread count.
Outputs recurrence_forward(const Inputs& in, int threads = 0);

// Form 2: the chunked SSD of DESIGN.md section 2 with chunks of `chunk` >= 1
// tokens: intra-chunk masked (L o C B^T)(dt x), inter-chunk state passing.
// Resets inside a chunk are handled by masking, as a kernel would.
Outputs chunked_forward(const Inputs& in, int64_t chunk);

// ---- random problems ----------------------------------------------------------

struct RandomSpec {
  int64_t batch = 2, seqlen = 64, heads = 4, headdim = 8, groups = 2, dstate = 16;
  bool D = false;
  bool D_per_channel = false;   // D of shape (H, P)
  bool z = false;
  bool dt_bias = false;
  bool dt_softplus = false;
  double dt_limit_lo = 0.0;
  double dt_limit_hi = std::numeric_limits<double>::infinity();
  bool initial_states = false;
  int64_t packed_seqs = 0;      // > 1: seq_idx with this many packed sequences per row
  int64_t varlen_seqs = 0;      // > 0: cu_seqlens with this many sequences (batch must be 1)
  bool varlen_allow_empty = false;  // cu_seqlens may hold empty sequences
  double large_dt_fraction = 0.0;   // fraction of raw dt drawn around 20 (softplus switch)
  uint64_t seed = 1;
};

// x, B, C, z, D, initial_states ~ U(-1, 1); A ~ -U(0.05, 1.5); dt such that dt'
// is mostly in (0, 1.5] (without softplus, some raw dt are negative and clamp).
Inputs make_random(const RandomSpec& spec);

// Rounds every value as storing it would: x, B, C, z to `io`, dt to `dt_dtype`,
// the fp32 tensors (A, D, dt_bias, initial_states) to fp32. Do this before
// computing the truth for a run whose inputs are stored in those dtypes.
void round_inputs(Inputs& in, DType io, DType dt_dtype);

// ---- host tensors wired into SsdParams -----------------------------------------

struct HostTensorOptions {
  DType io = DType::kFloat32;          // x, B, C, z, y
  DType dt = DType::kFloat32;
  DType cu_seqlens = DType::kInt32;
  bool final_states = true;
  bool varlen_states = true;            // only when the inputs have cu_seqlens
  int64_t pad = 0;  // extra elements after each innermost row of x, z, B, C, y (strided views)
};

// Typed host storage of a problem and an SsdParams pointing into it. Outputs
// are filled with NaN (poisoned) so that tests can see what was written.
// Move-only: the views point into the vectors.
struct HostTensors {
  std::vector<unsigned char> x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens;
  std::vector<unsigned char> y, final_states, varlen_states;
  SsdParams params;

  HostTensors() = default;
  HostTensors(const HostTensors&) = delete;
  HostTensors& operator=(const HostTensors&) = delete;
  HostTensors(HostTensors&&) = default;
  HostTensors& operator=(HostTensors&&) = default;
};

HostTensors make_host_tensors(const Inputs& in, const HostTensorOptions& opt = {});

// Gather any (host) view into a contiguous row-major vector of doubles.
std::vector<double> read_view(const TensorView& v);
// Scatter a contiguous row-major vector into a (host) view, rounding to its dtype.
void write_view(const TensorView& v, const std::vector<double>& values);

// y, final_states, varlen_states of params read back as doubles (empty vectors
// for outputs not given).
Outputs read_outputs(const SsdParams& params);

// ---- error measures ---------------------------------------------------------------

// ||got - want||_2 / ||want||_2 (0 when both are zero; NaN anywhere gives NaN).
double rel_error(const std::vector<double>& got, const std::vector<double>& want);
// max |got - want| / max |want|.
double max_rel_error(const std::vector<double>& got, const std::vector<double>& want);

}  // namespace ref
}  // namespace flashssd
