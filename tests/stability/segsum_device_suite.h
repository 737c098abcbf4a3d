// The stability suite of the decay-mask variants on the device (issue 4): the
// same adversarial cases as the CPU suite (stability_suite.h), measured on the
// real device code.
//   mask alone   the internal probe (src/kernels/sm80/segsum_probe.h) runs
//                segsum.cuh's prepare_tile_decay + apply_decay_mask as the
//                forward kernel does and reads the mask, to_end and readout
//                back; they are measured against float64 (same metrics as the
//                CPU suite) and compared entry by entry with the CPU emulation
//                of the same rules (segsum_emulation.h) on the same tiles.
//   end to end   ssd_forward on the device (bf16 x, B, C; fp32 dt = -a, A = -1,
//                no softplus, dt_limit (0, inf), so that dt * A reproduces the
//                adversarial a bitwise) against the float64 recurrence of
//                src/reference/reference.h on the bf16-rounded inputs.
// Shared by tests/gpu/test_segsum_gpu.cpp and tests/gpu/segsum_gpu_report.cpp.
// Every entry point needs a CUDA device (check cuda_device_available() first)
// and throws std::runtime_error on a CUDA error.
#pragma once

#include <cstdint>
#include <string>

#include "flashssd/flashssd.h"
#include "segsum_emulation.h"
#include "stability_metrics.h"
#include "stability_suite.h"

namespace flashssd {
namespace stability {

bool cuda_device_available();  // a usable CUDA device (clears the error state otherwise)
std::string cuda_device_name();
flashssd::SegsumVariant to_segsum_variant(Variant v);

// Device value d against emulated value c of the same entry, in units of
// FLT_EPSILON relative: |d - c| / (max(|d|, |c|) * 2^-23); 0 when bitwise equal;
// 0 when both are below kFlushZone (around the flush-to-zero threshold of
// fast_exp, where one side may be flushed and the other not: entries that small
// are below every relative-error floor); infinity for one non-finite side.
constexpr double kFlushZone = 0x1.0p-122;
double eps_diff(float d, float c);

// Entry-by-entry agreement of device and emulation. An entry that is a product
// of n exponentials (mask_exp_factors / e_exp_factors) may differ by about
// 2.5 eps per exponential (ex2.approx within 2 ulp, exp2f within 0.5) plus one
// per multiply: the tolerance is kEpsPerExpFactor * n.
constexpr double kEpsPerExpFactor = 4.0;
struct EmulationMatch {
  double max_eps = 0;             // worst eps_diff
  double max_eps_per_factor = 0;  // worst eps_diff / n
  int64_t beyond_tolerance = 0;   // entries with eps_diff > kEpsPerExpFactor * n
  int64_t bitwise_equal = 0;
  int64_t compared = 0;
  void add(float d, float c, int factors);
  void merge(const EmulationMatch& o);
};

struct DeviceMaskResult {
  MaskMetrics mask;   // device mask against float64
  VectorMetrics e;    // device to_end (must not decrease along the tile)
  VectorMetrics p;    // device readout (must not increase along the tile)
  MaskMetrics emulated_mask;  // the CPU emulation's figures on the same tiles
  EmulationMatch mask_vs_emulation, e_vs_emulation, p_vs_emulation;
};

// Mask alone, all three variants, on the case's decays (make_decays(kind,
// mask_tokens, seed), padded with zeros to whole tiles of 64, as run_case does).
void run_device_mask_case(const CaseSpec& c, DeviceMaskResult out[kNumVariants]);

// End to end, all three variants. T = c.e2e_T tokens (or max_T when smaller
// and > 0), batch 1, H heads of head dim P, one group of state dim N, initial
// states; head h's decays are make_decays(c.kind, T, c.seed + 0x5EED + 977 h).
struct DeviceE2eShape {
  int H = 2, P = 64, N = 128;  // diff / direct are built for bf16 with 64 < N <= 128
  int max_T = 0;
};
void run_device_e2e_case(const CaseSpec& c, E2eMetrics out[kNumVariants], const DeviceE2eShape& shape = {});

// Mask-only microbenchmark (segsum_probe_time_ms): `tiles` tiles of the
// log-uniform [1e-4, 1e3] decays, median of `iters` launches, milliseconds.
double device_mask_ms(Variant v, int64_t tiles, int iters = 20);

}  // namespace stability
}  // namespace flashssd
