// Stability figures of a float32 decay mask (or per-token factors, or an end-
// to-end result) against a float64 reference, and the adversarial log-decay
// generators of the stability suite (issue 4, DESIGN.md section 4).
//
// Plain C++17, no globals, no CUDA headers: the GPU test links the same code
// and feeds it masks copied back from the device.
#pragma once

#include <cstdint>
#include <vector>

namespace flashssd {
namespace stability {

// Relative errors are taken only where the reference is at least this large:
// below it float32 results are denormal-scale or flushed to 0 and a relative
// figure means nothing (exp(-69) ~ 1e-30; FLT_MIN ~ 1.2e-38). Entries under the
// floor are still covered by max_abs_err_below_floor and the norm error.
constexpr double kRelFloor = 1e-30;

// Figures of one or more Q x Q masks (row-major, mask[i*Q + j] = L_ij).
struct MaskMetrics {
  double max_rel_err = 0;              // max |L - Lref| / Lref, i >= j, Lref >= kRelFloor
  double max_abs_err_below_floor = 0;  // max |L - Lref| over entries with Lref < kRelFloor
  double err_sq = 0;                   // sum (L - Lref)^2 over i >= j (finite L)
  double ref_sq = 0;                   // sum Lref^2 over i >= j
  int64_t entries_gt_1 = 0;            // L > 1 (anywhere)
  // L[i+1][j] > L[i][j] (i+1 >= j) or L[i][j-1] > L[i][j] (i >= j >= 1):
  // each offending adjacent pair in the lower triangle counts once.
  int64_t monotonicity_violations = 0;
  int64_t nonfinite = 0;      // L not finite where Lref is finite
  int64_t upper_nonzero = 0;  // L != 0 above the diagonal
  int64_t entries = 0;        // lower-triangle entries examined
  int64_t tiles = 0;

  double norm_rel_err() const;  // sqrt(err_sq / ref_sq): Frobenius, lower triangle
  void merge(const MaskMetrics& o);  // worst / sums: for tiles of one case
};

// Figures of one tile's mask; accumulate_... adds a tile into m.
MaskMetrics mask_metrics(const float* mask, const double* ref, int Q);
void accumulate_mask_metrics(MaskMetrics& m, const float* mask, const double* ref, int Q);

// Per-token factors (e: decay to the tile end, must not decrease with j;
// p: read-out decay, must not increase with i).
enum class Order : int { kNone = 0, kNonDecreasing = 1, kNonIncreasing = 2 };
struct VectorMetrics {
  double max_rel_err = 0;  // over entries with ref >= kRelFloor
  int64_t entries_gt_1 = 0;
  int64_t order_violations = 0;  // adjacent pairs against `order`
  int64_t nonfinite = 0;
  void merge(const VectorMetrics& o);
};
VectorMetrics vector_metrics(const float* f, const double* ref, int n, Order order);
void accumulate_vector_metrics(VectorMetrics& m, const float* f, const double* ref, int n,
                               Order order);

// End to end, one sequence: relative Frobenius errors of y and of the final
// state, and the non-finite count of both (where the reference is finite).
struct E2eMetrics {
  double y_rel_err = 0;
  double state_rel_err = 0;
  int64_t nonfinite = 0;
  void merge(const E2eMetrics& o);  // worst of each
};
E2eMetrics e2e_metrics(const float* y, const double* y_ref, int64_t ny, const float* h,
                       const double* h_ref, int64_t nh);
// ||x - ref||_2 / ||ref||_2 (0 if both are 0; non-finite x entries are skipped
// here and counted by e2e_metrics).
double rel_norm_err(const float* x, const double* ref, int64_t n);

// ---- adversarial log-decays --------------------------------------------------
// All generators return a_t <= 0 (exact +0 allowed), deterministic in `seed`
// on every platform (own generator: splitmix64, no <random> distributions).
enum class DecayKind : int {
  kLogUniform = 0,     // |a| log-uniform in [1e-4, 1e3] per step
  kLogUniformMid,      // |a| log-uniform in [1e-4, 1e1]: more entries above the floor
  kZerosAfterLarge,    // runs of large |a| (10..1e3), then runs of exact zeros (1..60)
  kTinyAfterLarge,     // runs of large |a|, then long runs of tiny |a| (1e-4..1e-2)
  kZerosTinyAfterLarge,  // large runs, then zeros interleaved with tiny values
  kMixture,            // segments of random kind (zero/tiny/mid/large/log-uniform)
  kTinyOnly,           // |a| log-uniform in [1e-4, 1e-2]
  kLargeOnly,          // |a| log-uniform in [1e2, 1e3]: everything off-diagonal underflows
  kAllZeros,           // a = 0: L must be exactly 1 on and below the diagonal
};
constexpr int kNumDecayKinds = 9;
const char* decay_kind_name(DecayKind k);
std::vector<float> make_decays(DecayKind kind, int64_t n, uint64_t seed);

// Deterministic uniform numbers for the end-to-end inputs.
struct SplitMix64 {
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next();
  double uniform();                        // [0, 1)
  double uniform(double lo, double hi);    // [lo, hi)
  int64_t uniform_int(int64_t lo, int64_t hi);  // [lo, hi]
};

}  // namespace stability
}  // namespace flashssd
