// The split schemes' host-side rules (split_fixup.h): which scheme a call takes and the budget
// of the choice on the device. Host code only, so that the CPU tests check it
// (tests/cpu/test_dispatch_rules.cpp).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "kernels/sm90/split_fixup.h"

namespace flashssd::sm90 {

namespace {

// A fix-up tile-head (y read and written, z and C read) against a state pass tile-head (x and B
// read): the choice takes the fix-up while window tiles x this < the state pass's tiles.
// Session 48 (H100, bench/results/logs/2026-12-05-s48-calls/fixup4, window counts from
// 2026-12-05-s48-windows_model.py): the fix-up's call grows ~14 ns per window tile-head (R1 32k
// at A x 1 / 0.5 / 0.25), the state pass takes ~3.3-3.5 ns per tile-head; R4 128k breaks
// even near 19k window tiles of its 98k (A x 1: -11.3%, A x 0.25: +14.4%): a ratio of ~5.
// (Measured on the fourth form; the fifth, a tile's loads issued together, is ~15% faster
// (ncu, call 5). Session 50 measured the break-even at W/S ~0.22-0.23 on a form ~5% slower than
// the fifth (a ratio of ~4.3-4.5); the 16-byte y / z form merged after it is ~20% faster still
// (ncu at R4 128k): the ratio is kept at 5 until measured on it.)
constexpr int64_t kFixupCostRatio = 5;

}  // namespace

const int64_t kFixupMinStateSteps = 256;

SplitScheme split_scheme() {
  const char* scheme = std::getenv("FLASHSSD_SPLIT_SCHEME");
  if (scheme && std::strcmp(scheme, "state") == 0) return SplitScheme::kStatePass;
  if (scheme && std::strcmp(scheme, "fixup") == 0) return SplitScheme::kFixup;
  return SplitScheme::kAuto;
}

int64_t state_pass_steps(int64_t state_ctas, int state_runs, int split_tiles, int sms) {
  const int64_t waves = (state_ctas * state_runs + sms - 1) / std::max(1, sms);
  return waves * (split_tiles / std::max(1, state_runs));
}

SplitScheme plan_split_scheme(bool dt_nonnegative, int64_t state_steps) {
  if (!dt_nonnegative) return SplitScheme::kStatePass;
  const SplitScheme scheme = split_scheme();
  return scheme == SplitScheme::kAuto && state_steps < kFixupMinStateSteps ? SplitScheme::kStatePass : scheme;
}

int64_t fixup_budget(SplitScheme scheme, int64_t state_tiles) {
  if (scheme == SplitScheme::kFixup) return std::numeric_limits<int64_t>::max();
  if (scheme == SplitScheme::kStatePass) return 0;
  return state_tiles / kFixupCostRatio;
}

}  // namespace flashssd::sm90
