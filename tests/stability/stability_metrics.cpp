#include "stability_metrics.h"

#include <algorithm>
#include <cmath>

namespace flashssd {
namespace stability {

// ---- mask -------------------------------------------------------------------
double MaskMetrics::norm_rel_err() const {
  if (ref_sq == 0) return err_sq == 0 ? 0.0 : INFINITY;
  return std::sqrt(err_sq / ref_sq);
}

void MaskMetrics::merge(const MaskMetrics& o) {
  max_rel_err = std::max(max_rel_err, o.max_rel_err);
  max_abs_err_below_floor = std::max(max_abs_err_below_floor, o.max_abs_err_below_floor);
  err_sq += o.err_sq;
  ref_sq += o.ref_sq;
  entries_gt_1 += o.entries_gt_1;
  monotonicity_violations += o.monotonicity_violations;
  nonfinite += o.nonfinite;
  upper_nonzero += o.upper_nonzero;
  entries += o.entries;
  tiles += o.tiles;
}

void accumulate_mask_metrics(MaskMetrics& m, const float* L, const double* R, int Q) {
  for (int i = 0; i < Q; ++i) {
    for (int j = 0; j < Q; ++j) {
      const float l = L[i * Q + j];
      const double r = R[i * Q + j];
      if (!std::isfinite(l)) {
        if (std::isfinite(r)) ++m.nonfinite;
        continue;
      }
      if (l > 1.0f) ++m.entries_gt_1;
      if (j > i) {
        if (l != 0.0f) ++m.upper_nonzero;
        continue;
      }
      ++m.entries;
      const double err = std::fabs(static_cast<double>(l) - r);
      m.err_sq += err * err;
      m.ref_sq += r * r;
      if (r >= kRelFloor)
        m.max_rel_err = std::max(m.max_rel_err, err / r);
      else
        m.max_abs_err_below_floor = std::max(m.max_abs_err_below_floor, err);
    }
  }
  // Down a column: L[i+1][j] <= L[i][j] for i >= j.
  for (int i = 0; i + 1 < Q; ++i)
    for (int j = 0; j <= i; ++j)
      if (L[(i + 1) * Q + j] > L[i * Q + j]) ++m.monotonicity_violations;
  // Along a row, leftwards: L[i][j-1] <= L[i][j] for i >= j >= 1.
  for (int i = 1; i < Q; ++i)
    for (int j = 1; j <= i; ++j)
      if (L[i * Q + j - 1] > L[i * Q + j]) ++m.monotonicity_violations;
  ++m.tiles;
}

MaskMetrics mask_metrics(const float* mask, const double* ref, int Q) {
  MaskMetrics m;
  accumulate_mask_metrics(m, mask, ref, Q);
  return m;
}

// ---- per-token factors ----------------------------------------------------------
void VectorMetrics::merge(const VectorMetrics& o) {
  max_rel_err = std::max(max_rel_err, o.max_rel_err);
  entries_gt_1 += o.entries_gt_1;
  order_violations += o.order_violations;
  nonfinite += o.nonfinite;
}

void accumulate_vector_metrics(VectorMetrics& m, const float* f, const double* ref, int n,
                               Order order) {
  for (int k = 0; k < n; ++k) {
    if (!std::isfinite(f[k])) {
      if (std::isfinite(ref[k])) ++m.nonfinite;
      continue;
    }
    if (f[k] > 1.0f) ++m.entries_gt_1;
    if (ref[k] >= kRelFloor)
      m.max_rel_err = std::max(m.max_rel_err, std::fabs(f[k] - ref[k]) / ref[k]);
  }
  for (int k = 0; k + 1 < n; ++k) {
    if (order == Order::kNonDecreasing && f[k] > f[k + 1]) ++m.order_violations;
    if (order == Order::kNonIncreasing && f[k + 1] > f[k]) ++m.order_violations;
  }
}

VectorMetrics vector_metrics(const float* f, const double* ref, int n, Order order) {
  VectorMetrics m;
  accumulate_vector_metrics(m, f, ref, n, order);
  return m;
}

// ---- end to end -----------------------------------------------------------------
void E2eMetrics::merge(const E2eMetrics& o) {
  y_rel_err = std::max(y_rel_err, o.y_rel_err);
  state_rel_err = std::max(state_rel_err, o.state_rel_err);
  nonfinite = std::max(nonfinite, o.nonfinite);
}

double rel_norm_err(const float* x, const double* ref, int64_t n) {
  double e2 = 0, r2 = 0;
  for (int64_t k = 0; k < n; ++k) {
    r2 += ref[k] * ref[k];
    if (!std::isfinite(x[k])) continue;
    const double d = static_cast<double>(x[k]) - ref[k];
    e2 += d * d;
  }
  if (r2 == 0) return e2 == 0 ? 0.0 : INFINITY;
  return std::sqrt(e2 / r2);
}

E2eMetrics e2e_metrics(const float* y, const double* y_ref, int64_t ny, const float* h,
                       const double* h_ref, int64_t nh) {
  E2eMetrics m;
  m.y_rel_err = rel_norm_err(y, y_ref, ny);
  m.state_rel_err = rel_norm_err(h, h_ref, nh);
  for (int64_t k = 0; k < ny; ++k)
    if (!std::isfinite(y[k]) && std::isfinite(y_ref[k])) ++m.nonfinite;
  for (int64_t k = 0; k < nh; ++k)
    if (!std::isfinite(h[k]) && std::isfinite(h_ref[k])) ++m.nonfinite;
  return m;
}

// ---- generators -------------------------------------------------------------------
uint64_t SplitMix64::next() {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
double SplitMix64::uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
int64_t SplitMix64::uniform_int(int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
}

const char* decay_kind_name(DecayKind k) {
  switch (k) {
    case DecayKind::kLogUniform: return "loguniform_1e-4_1e3";
    case DecayKind::kLogUniformMid: return "loguniform_1e-4_1e1";
    case DecayKind::kZerosAfterLarge: return "zeros_after_large";
    case DecayKind::kTinyAfterLarge: return "tiny_after_large";
    case DecayKind::kZerosTinyAfterLarge: return "zeros_tiny_after_large";
    case DecayKind::kMixture: return "mixture";
    case DecayKind::kTinyOnly: return "tiny_only";
    case DecayKind::kLargeOnly: return "large_only";
    case DecayKind::kAllZeros: return "all_zeros";
  }
  return "?";
}

namespace {
// -|a| with log10|a| uniform in [lo, hi].
float neg_log_uniform(SplitMix64& g, double lo, double hi) {
  return static_cast<float>(-std::pow(10.0, g.uniform(lo, hi)));
}
}  // namespace

std::vector<float> make_decays(DecayKind kind, int64_t n, uint64_t seed) {
  SplitMix64 g(seed * 0x2545F4914F6CDD1Dull + static_cast<uint64_t>(kind) + 1);
  std::vector<float> a;
  a.reserve(static_cast<size_t>(n) + 256);
  auto push = [&](float v) { a.push_back(v); };
  auto large_run = [&](int64_t lo, int64_t hi) {
    const int64_t len = g.uniform_int(lo, hi);
    for (int64_t k = 0; k < len; ++k) push(neg_log_uniform(g, 1.0, 3.0));
    // Half of the time, keep going with large values up to a multiple of 8
    // (segsum.cuh's block size), so the next run starts exactly at a block start.
    if (g.uniform() < 0.5)
      while (a.size() % 8 != 0) push(neg_log_uniform(g, 1.0, 3.0));
  };
  while (static_cast<int64_t>(a.size()) < n) {
    switch (kind) {
      case DecayKind::kLogUniform: push(neg_log_uniform(g, -4.0, 3.0)); break;
      case DecayKind::kLogUniformMid: push(neg_log_uniform(g, -4.0, 1.0)); break;
      case DecayKind::kTinyOnly: push(neg_log_uniform(g, -4.0, -2.0)); break;
      case DecayKind::kLargeOnly: push(neg_log_uniform(g, 2.0, 3.0)); break;
      case DecayKind::kAllZeros: push(0.0f); break;
      case DecayKind::kZerosAfterLarge: {
        large_run(1, 6);
        const int64_t zeros = g.uniform_int(1, 60);
        for (int64_t k = 0; k < zeros; ++k) push(0.0f);
        // a few moderate steps, so that entries spanning them stay above the floor
        const int64_t mid = g.uniform_int(0, 6);
        for (int64_t k = 0; k < mid; ++k) push(neg_log_uniform(g, -2.0, 0.5));
        break;
      }
      case DecayKind::kTinyAfterLarge: {
        large_run(1, 8);
        const int64_t tiny = g.uniform_int(8, 120);
        for (int64_t k = 0; k < tiny; ++k) push(neg_log_uniform(g, -4.0, -2.0));
        break;
      }
      case DecayKind::kZerosTinyAfterLarge: {
        large_run(1, 8);
        const int64_t len = g.uniform_int(8, 120);
        for (int64_t k = 0; k < len; ++k)
          push(g.uniform() < 0.5 ? 0.0f : neg_log_uniform(g, -4.0, -2.0));
        break;
      }
      case DecayKind::kMixture: {
        const int64_t type = g.uniform_int(0, 4);
        const int64_t len = g.uniform_int(1, 48);
        for (int64_t k = 0; k < len; ++k) {
          switch (type) {
            case 0: push(0.0f); break;
            case 1: push(neg_log_uniform(g, -4.0, -2.0)); break;
            case 2: push(neg_log_uniform(g, -2.0, 0.0)); break;
            case 3: push(neg_log_uniform(g, 0.0, 3.0)); break;
            default: push(neg_log_uniform(g, -4.0, 3.0)); break;
          }
        }
        break;
      }
    }
  }
  a.resize(static_cast<size_t>(n));
  return a;
}

}  // namespace stability
}  // namespace flashssd
