#include "stability_suite.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace flashssd {
namespace stability {

std::vector<CaseSpec> adversarial_cases() {
  std::vector<CaseSpec> cs;
  for (int k = 0; k < kNumDecayKinds; ++k) {
    CaseSpec c;
    c.kind = static_cast<DecayKind>(k);
    c.name = decay_kind_name(c.kind);
    c.seed = 1000 + static_cast<uint64_t>(k);
    c.mask_tokens = 32768;
    c.e2e_T = 64 * 64 + 29;  // last tile partial
    if (c.kind == DecayKind::kMixture) c.e2e_T = 65536;  // the long sequence, once
    cs.push_back(c);
  }
  CaseSpec s;  // shorter than one tile: a single partial tile end to end
  s.kind = DecayKind::kLogUniformMid;
  s.name = "short_partial_tile";
  s.seed = 77;
  s.mask_tokens = 64;
  s.e2e_T = 45;
  cs.push_back(s);
  return cs;
}

SsdInput CaseInputs::view() const {
  SsdInput in;
  in.T = T;
  in.P = P;
  in.N = N;
  in.x = x.data();
  in.dt = dt.data();
  in.A = A;
  in.B = B.data();
  in.C = C.data();
  in.h0 = h0.empty() ? nullptr : h0.data();
  return in;
}

CaseInputs make_case_inputs(const CaseSpec& c) {
  CaseInputs in;
  in.T = c.e2e_T;
  in.P = c.P;
  in.N = c.N;
  in.A = c.A;
  // The end-to-end decays are the case's decays with a different seed (the
  // kind is what matters); dt = |a| / |A| (exact zeros stay zero).
  const std::vector<float> a = make_decays(c.kind, c.e2e_T, c.seed + 0x5EED);
  in.dt.resize(a.size());
  for (size_t t = 0; t < a.size(); ++t) in.dt[t] = std::fabs(a[t]) / std::fabs(c.A);
  SplitMix64 g(c.seed * 31 + 7);
  auto fill = [&](std::vector<float>& v, size_t n) {
    v.resize(n);
    for (auto& x : v) x = static_cast<float>(g.uniform(-1.0, 1.0));
  };
  fill(in.x, static_cast<size_t>(c.e2e_T) * c.P);
  fill(in.B, static_cast<size_t>(c.e2e_T) * c.N);
  fill(in.C, static_cast<size_t>(c.e2e_T) * c.N);
  fill(in.h0, static_cast<size_t>(c.P) * c.N);
  return in;
}

void run_mask_figures(const Rules& rules, const std::vector<float>& a_in, CaseResult& out) {
  const int Q = rules.Q;
  std::vector<float> a(a_in);
  a.resize((a.size() + Q - 1) / Q * Q, 0.0f);  // whole tiles, padded as the kernel pads
  std::vector<double> Lref(static_cast<size_t>(Q) * Q), eref(Q), pref(Q);
  std::vector<float> L(static_cast<size_t>(Q) * Q), e(Q), p(Q);
  for (size_t t0 = 0; t0 < a.size(); t0 += Q) {
    const float* at = a.data() + t0;
    segsum_tile_f64(at, Q, Lref.data(), eref.data(), pref.data(), nullptr);
    for (int vi = 0; vi < kNumVariants; ++vi) {
      segsum_tile_f32(static_cast<Variant>(vi), rules, at, L.data(), e.data(), p.data(), nullptr);
      VariantResult& r = out.v[vi];
      accumulate_mask_metrics(r.mask, L.data(), Lref.data(), Q);
      accumulate_vector_metrics(r.e, e.data(), eref.data(), Q, Order::kNonDecreasing);
      accumulate_vector_metrics(r.p, p.data(), pref.data(), Q, Order::kNonIncreasing);
    }
  }
}

CaseResult run_case(const CaseSpec& c, const Rules& rules, bool with_e2e) {
  CaseResult out;
  out.spec = c;
  run_mask_figures(rules, make_decays(c.kind, c.mask_tokens, c.seed), out);
  if (with_e2e && c.e2e_T > 0) {
    const CaseInputs in = make_case_inputs(c);
    const SsdInput view = in.view();
    const size_t ny = static_cast<size_t>(in.T) * in.P, nh = static_cast<size_t>(in.P) * in.N;
    std::vector<double> yref(ny), href(nh);
    ssd_recurrence_f64(view, yref.data(), href.data());
    std::vector<float> y(ny), h(nh);
    for (int vi = 0; vi < kNumVariants; ++vi) {
      ssd_chunked_f32(static_cast<Variant>(vi), rules, view, y.data(), h.data());
      out.v[vi].e2e = e2e_metrics(y.data(), yref.data(), static_cast<int64_t>(ny), h.data(),
                                  href.data(), static_cast<int64_t>(nh));
      out.v[vi].has_e2e = true;
    }
  }
  return out;
}

std::string describe_rules(const Rules& r) {
  std::ostringstream s;
  s << "segsum.cuh rules, Q=" << r.Q << " q=" << r.q
    << " (diff: hillis-steele scan; direct/hierarchical: sequential sums, column chain;"
       " exp: fast_exp ftz)";
  return s.str();
}

void print_table_header(std::FILE* f) {
  std::fprintf(f, "%-24s %-12s %10s %10s %6s %6s %5s | %10s %5s | %10s %10s %5s\n", "case",
               "variant", "max_rel", "norm_rel", ">1", "mono", "nonf", "e_max_rel", "e_ord",
               "y_rel", "state_rel", "nonf");
}

void print_table_rows(std::FILE* f, const CaseResult& r) {
  for (int vi = 0; vi < kNumVariants; ++vi) {
    const VariantResult& v = r.v[vi];
    std::fprintf(f, "%-24s %-12s %10.3e %10.3e %6lld %6lld %5lld | %10.3e %5lld | ",
                 r.spec.name.c_str(), variant_name(static_cast<Variant>(vi)), v.mask.max_rel_err,
                 v.mask.norm_rel_err(), static_cast<long long>(v.mask.entries_gt_1),
                 static_cast<long long>(v.mask.monotonicity_violations),
                 static_cast<long long>(v.mask.nonfinite), v.e.max_rel_err,
                 static_cast<long long>(v.e.order_violations));
    if (v.has_e2e)
      std::fprintf(f, "%10.3e %10.3e %5lld\n", v.e2e.y_rel_err, v.e2e.state_rel_err,
                   static_cast<long long>(v.e2e.nonfinite));
    else
      std::fprintf(f, "%10s %10s %5s\n", "-", "-", "-");
  }
}

std::string results_json(const std::vector<CaseResult>& results) {
  std::ostringstream s;
  s.precision(4);
  s << std::scientific;
  s << "{";
  for (int vi = 0; vi < kNumVariants; ++vi) {
    double max_rel = 0, norm_rel = 0, y_rel = 0, h_rel = 0;
    long long gt1 = 0, mono = 0, nonf = 0, e2e_nonf = 0;
    for (const CaseResult& r : results) {
      const VariantResult& v = r.v[vi];
      max_rel = std::max(max_rel, v.mask.max_rel_err);
      norm_rel = std::max(norm_rel, v.mask.norm_rel_err());
      gt1 = std::max(gt1, static_cast<long long>(v.mask.entries_gt_1));
      mono = std::max(mono, static_cast<long long>(v.mask.monotonicity_violations));
      nonf = std::max(nonf, static_cast<long long>(v.mask.nonfinite));
      if (v.has_e2e) {
        y_rel = std::max(y_rel, v.e2e.y_rel_err);
        h_rel = std::max(h_rel, v.e2e.state_rel_err);
        e2e_nonf = std::max(e2e_nonf, static_cast<long long>(v.e2e.nonfinite));
      }
    }
    s << (vi ? ", " : "") << "\"" << variant_name(static_cast<Variant>(vi)) << "\": {"
      << "\"max_rel_err\": " << max_rel << ", \"norm_rel_err\": " << norm_rel
      << ", \"entries_gt_1\": " << gt1 << ", \"monotonicity_violations\": " << mono
      << ", \"nonfinite\": " << nonf << ", \"e2e_y_rel_err\": " << y_rel
      << ", \"e2e_state_rel_err\": " << h_rel << ", \"e2e_nonfinite\": " << e2e_nonf << "}";
  }
  s << "}";
  return s.str();
}

}  // namespace stability
}  // namespace flashssd
