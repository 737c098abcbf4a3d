// segsum_report: runs every adversarial case of the stability suite on the
// float32 emulation of the three decay-mask variants and prints ONE JSON
// object on stdout,
//   {"diff": {...}, "direct": {...}, "hierarchical": {...}}
// each with max_rel_err, norm_rel_err, entries_gt_1, monotonicity_violations,
// nonfinite (mask alone, worst over cases) and e2e_y_rel_err,
// e2e_state_rel_err, e2e_nonfinite (end to end, worst over cases), ready to be
// merged as the "segsum" section of bench/results/*.json (with fwd_ms added).
//
// Options (the defaults are the rules the suite asserts on):
//   --rules=recommended|segsum_cuh   start from a preset
//   --Q=64 --q=16                    tile and block size
//   --scan=seq|hs  --diff-scan=seq|hs  --offdiag=chain|expsum  --exp=fast|libm
//   --table                          per-case table on stderr
#include <cstdio>
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
               "usage: segsum_report [--rules=recommended|segsum_cuh] [--Q=64] [--q=16]\n"
               "       [--scan=seq|hs] [--diff-scan=seq|hs] [--offdiag=chain|expsum]\n"
               "       [--exp=fast|libm] [--table]\n",
               bad);
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  Rules rules = recommended_rules();
  bool table = false;
  // Presets first, so that single options given anywhere override them.
  for (int i = 1; i < argc; ++i) {
    const char* v;
    if (starts(argv[i], "--rules=", &v)) {
      if (!std::strcmp(v, "recommended")) rules = recommended_rules(rules.Q, rules.q);
      else if (!std::strcmp(v, "segsum_cuh")) rules = segsum_cuh_rules(rules.Q, rules.q);
      else return usage(argv[i]);
    }
  }
  for (int i = 1; i < argc; ++i) {
    const char* v;
    if (starts(argv[i], "--rules=", &v)) continue;
    if (!std::strcmp(argv[i], "--table")) table = true;
    else if (starts(argv[i], "--Q=", &v)) rules.Q = std::atoi(v);
    else if (starts(argv[i], "--q=", &v)) rules.q = std::atoi(v);
    else if (starts(argv[i], "--scan=", &v))
      rules.scan = !std::strcmp(v, "hs") ? Scan::kHillisSteele : Scan::kSequential;
    else if (starts(argv[i], "--diff-scan=", &v))
      rules.diff_scan = !std::strcmp(v, "hs") ? Scan::kHillisSteele : Scan::kSequential;
    else if (starts(argv[i], "--offdiag=", &v))
      rules.offdiag = !std::strcmp(v, "expsum") ? OffDiag::kExpOfSum : OffDiag::kChain;
    else if (starts(argv[i], "--exp=", &v))
      rules.exp = !std::strcmp(v, "libm") ? ExpFn::kLibm : ExpFn::kFastExp2;
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
