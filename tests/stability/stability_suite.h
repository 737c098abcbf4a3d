// The adversarial cases of the stability suite and a runner that evaluates the
// three emulated variants on one case: mask alone (tile by tile against the
// float64 mask) and end to end (chunked float32 SSD against the float64
// recurrence). Shared by test_segsum_stability and segsum_report; the GPU test
// can take the same case list and inputs (make_case_inputs) for the device.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "segsum_emulation.h"
#include "stability_metrics.h"

namespace flashssd {
namespace stability {

struct CaseSpec {
  std::string name;
  DecayKind kind = DecayKind::kLogUniform;
  uint64_t seed = 1;
  int64_t mask_tokens = 0;  // tokens for the mask-alone figures (rounded up to whole tiles, padded with 0)
  int e2e_T = 0;            // tokens end to end (0: no end-to-end run)
  int P = 16, N = 16;       // end-to-end head dim and state dim
  float A = -1.5f;          // dt = |a| / |A|, so a = dt * A reproduces the decays up to rounding
};

// The fixed list: one case per DecayKind (mask 32768 tokens, end to end 4125
// tokens = 64 full tiles of 64 + a partial one), the mixture end to end over
// 65536 tokens (the long case, once), and a sequence shorter than one tile.
std::vector<CaseSpec> adversarial_cases();

// Inputs of the end-to-end run of a case (deterministic from the seed).
struct CaseInputs {
  std::vector<float> x, dt, B, C, h0;
  SsdInput view() const;  // pointers into this object
  int T = 0, P = 0, N = 0;
  float A = -1.f;
};
CaseInputs make_case_inputs(const CaseSpec& c);

struct VariantResult {
  MaskMetrics mask;
  VectorMetrics e;  // decay to tile end (must not decrease along the tile)
  VectorMetrics p;  // read-out decay (must not increase along the tile)
  E2eMetrics e2e;
  bool has_e2e = false;
};
struct CaseResult {
  CaseSpec spec;
  VariantResult v[kNumVariants];  // indexed by static_cast<int>(Variant)
  const VariantResult& operator[](Variant x) const { return v[static_cast<int>(x)]; }
};

// Mask-alone figures of all three variants on a log-decay sequence.
void run_mask_figures(const Rules& rules, const std::vector<float>& a, CaseResult& out);
CaseResult run_case(const CaseSpec& c, const Rules& rules, bool with_e2e = true);

std::string describe_rules(const Rules& r);
void print_table_header(std::FILE* f);
void print_table_rows(std::FILE* f, const CaseResult& r);
// {"diff": {...}, "direct": {...}, "hierarchical": {...}}: worst over cases
// (max of each figure; counts are per case, the largest case count).
std::string results_json(const std::vector<CaseResult>& results);

}  // namespace stability
}  // namespace flashssd
