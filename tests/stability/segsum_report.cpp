// segsum_report: runs every adversarial case of the stability suite on the
// float32 CPU emulation of the three decay-mask variants (the rules of
// src/kernels/common/segsum.cuh) and prints ONE JSON object on stdout,
//   {"diff": {...}, "direct": {...}, "hierarchical": {...}}
// each with max_rel_err, norm_rel_err, entries_gt_1, monotonicity_violations,
// nonfinite (mask alone, worst over cases) and e2e_y_rel_err,
// e2e_state_rel_err, e2e_nonfinite (end to end, worst over cases).
// The device figures come from segsum_gpu_report (tests/gpu), which falls back
// to these when there is no GPU.
//
// Options:
//   --Q=64 --q=8   tile and block size (the kernels are built with 64 and 8)
//   --table        per-case table on stderr
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "stability_suite.h"

using namespace flashssd::stability;

namespace {
bool starts(const char* arg, const char* prefix, const char** value) {
  const size_t n = std::strlen(prefix);
  if (std::strncmp(arg, prefix, n) != 0) return false;
  *value = arg + n;
  return true;
}
int usage(const char* bad) {
  std::fprintf(stderr,
               "segsum_report: bad option '%s'\n"
               "usage: segsum_report [--Q=64] [--q=8] [--table]\n",
               bad);
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  Rules rules = device_rules();
  bool table = false;
  for (int i = 1; i < argc; ++i) {
    const char* v;
    if (!std::strcmp(argv[i], "--table")) table = true;
    else if (starts(argv[i], "--Q=", &v)) rules.Q = std::atoi(v);
    else if (starts(argv[i], "--q=", &v)) rules.q = std::atoi(v);
    else return usage(argv[i]);
  }
  const char* ok = check_rules(rules);
  if (std::strcmp(ok, "ok") != 0) {
    std::fprintf(stderr, "segsum_report: %s\n", ok);
    return 2;
  }

  std::vector<CaseResult> results;
  if (table) {
    std::fprintf(stderr, "rules: %s\n", describe_rules(rules).c_str());
    print_table_header(stderr);
  }
  for (const CaseSpec& c : adversarial_cases()) {
    results.push_back(run_case(c, rules));
    if (table) print_table_rows(stderr, results.back());
  }
  std::printf("%s\n", results_json(results).c_str());
  return 0;
}
