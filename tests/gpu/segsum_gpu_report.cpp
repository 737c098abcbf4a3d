// segsum_gpu_report: the decay-mask stability suite on the device (issue 4).
// Runs every adversarial case of the stability suite on the device (mask alone
// through the segsum.cuh probe, end to end through ssd_forward in bf16), times
// the mask-only microbenchmark, and prints ONE JSON object on stdout:
//   {"diff": {...}, "direct": {...}, "hierarchical": {...}}
// each with
//   max_rel_err, entries_gt_1, monotonicity_violations, nonfinite
//       mask alone against float64, worst over the adversarial cases
//   mask_ms             mask-only microbenchmark (prepare_tile_decay +
//                       apply_decay_mask, --tiles tiles of 64 tokens, median)
//   e2e_y_rel_err, e2e_state_rel_err, e2e_nonfinite
//       ssd_forward (bf16, H=2 P=64 N=128) against the float64 recurrence,
//       worst over the cases
//   emulation_max_eps   worst |device - CPU emulation| of a mask entry, in
//                       FLT_EPSILON relative (device runs only)
//   source              "device", or "cpu-emulation" when there is no GPU:
//                       then the figures are the CPU emulation's (tests/stability,
//                       end to end in float32 at P = N = 16), mask_ms is null,
//                       and a line on stderr says so.
// Options: --tiles=65536 (microbenchmark), --iters=20, --table (per-case table
// on stderr).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "segsum_device_suite.h"

using namespace flashssd::stability;

namespace {

struct Summary {
  double max_rel_err = 0;
  long long entries_gt_1 = 0, monotonicity_violations = 0, nonfinite = 0;
  double mask_ms = NAN;
  double e2e_y = 0, e2e_state = 0;
  long long e2e_nonfinite = 0;
  double emulation_max_eps = NAN;

  void add_mask(const MaskMetrics& m) {
    max_rel_err = std::max(max_rel_err, m.max_rel_err);
    entries_gt_1 = std::max(entries_gt_1, static_cast<long long>(m.entries_gt_1));
    monotonicity_violations = std::max(monotonicity_violations, static_cast<long long>(m.monotonicity_violations));
    nonfinite = std::max(nonfinite, static_cast<long long>(m.nonfinite));
  }
  void add_e2e(const E2eMetrics& m) {
    e2e_y = std::max(e2e_y, m.y_rel_err);
    e2e_state = std::max(e2e_state, m.state_rel_err);
    e2e_nonfinite = std::max(e2e_nonfinite, static_cast<long long>(m.nonfinite));
  }
};

std::string num(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4e", x);
  return buf;
}

std::string to_json(const Summary s[kNumVariants], const char* source) {
  std::ostringstream o;
  o << "{";
  for (int vi = 0; vi < kNumVariants; ++vi) {
    const Summary& x = s[vi];
    o << (vi ? ", " : "") << "\"" << variant_name(static_cast<Variant>(vi)) << "\": {"
      << "\"max_rel_err\": " << num(x.max_rel_err) << ", \"entries_gt_1\": " << x.entries_gt_1
      << ", \"monotonicity_violations\": " << x.monotonicity_violations << ", \"nonfinite\": " << x.nonfinite
      << ", \"mask_ms\": " << num(x.mask_ms) << ", \"e2e_y_rel_err\": " << num(x.e2e_y)
      << ", \"e2e_state_rel_err\": " << num(x.e2e_state) << ", \"e2e_nonfinite\": " << x.e2e_nonfinite;
    if (std::isfinite(x.emulation_max_eps)) o << ", \"emulation_max_eps\": " << num(x.emulation_max_eps);
    o << ", \"source\": \"" << source << "\"}";
  }
  o << "}";
  return o.str();
}

bool starts(const char* arg, const char* prefix, const char** value) {
  const size_t n = std::strlen(prefix);
  if (std::strncmp(arg, prefix, n) != 0) return false;
  *value = arg + n;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  long long tiles = 65536;
  int iters = 20;
  bool table = false;
  for (int i = 1; i < argc; ++i) {
    const char* v;
    if (!std::strcmp(argv[i], "--table")) table = true;
    else if (starts(argv[i], "--tiles=", &v)) tiles = std::atoll(v);
    else if (starts(argv[i], "--iters=", &v)) iters = std::atoi(v);
    else {
      std::fprintf(stderr, "usage: segsum_gpu_report [--tiles=65536] [--iters=20] [--table]\n");
      return 2;
    }
  }

  Summary s[kNumVariants];
  if (!cuda_device_available()) {
    std::fprintf(stderr,
                 "segsum_gpu_report: no CUDA device: printing the CPU emulation's figures "
                 "(source: cpu-emulation; end to end in float32 at P = N = 16; mask_ms null)\n");
    const Rules rules = device_rules();
    if (table) print_table_header(stderr);
    for (const CaseSpec& c : adversarial_cases()) {
      const CaseResult r = run_case(c, rules);
      if (table) print_table_rows(stderr, r);
      for (int vi = 0; vi < kNumVariants; ++vi) {
        s[vi].add_mask(r.v[vi].mask);
        if (r.v[vi].has_e2e) s[vi].add_e2e(r.v[vi].e2e);
      }
    }
    std::printf("%s\n", to_json(s, "cpu-emulation").c_str());
    return 0;
  }

  try {
    if (table)
      std::fprintf(stderr, "device %s\n%-24s %-13s %10s %6s %6s %5s %9s | %10s %10s %5s\n",
                   cuda_device_name().c_str(), "case", "variant", "max_rel", ">1", "mono", "nonf", "emu_eps",
                   "y_rel", "state_rel", "nonf");
    for (const CaseSpec& c : adversarial_cases()) {
      DeviceMaskResult m[kNumVariants];
      E2eMetrics e[kNumVariants];
      run_device_mask_case(c, m);
      run_device_e2e_case(c, e);
      for (int vi = 0; vi < kNumVariants; ++vi) {
        s[vi].add_mask(m[vi].mask);
        s[vi].add_e2e(e[vi]);
        const double eps = m[vi].mask_vs_emulation.max_eps;
        s[vi].emulation_max_eps = std::isfinite(s[vi].emulation_max_eps) ? std::max(s[vi].emulation_max_eps, eps) : eps;
        if (table)
          std::fprintf(stderr, "%-24s %-13s %10.3e %6lld %6lld %5lld %9.2f | %10.3e %10.3e %5lld\n", c.name.c_str(),
                       variant_name(static_cast<Variant>(vi)), m[vi].mask.max_rel_err,
                       static_cast<long long>(m[vi].mask.entries_gt_1),
                       static_cast<long long>(m[vi].mask.monotonicity_violations),
                       static_cast<long long>(m[vi].mask.nonfinite), eps, e[vi].y_rel_err, e[vi].state_rel_err,
                       static_cast<long long>(e[vi].nonfinite));
      }
    }
    for (int vi = 0; vi < kNumVariants; ++vi) s[vi].mask_ms = device_mask_ms(static_cast<Variant>(vi), tiles, iters);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "segsum_gpu_report: %s\n", ex.what());
    return 1;
  }
  std::printf("%s\n", to_json(s, "device").c_str());
  return 0;
}
