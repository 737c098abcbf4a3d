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
// Measured on the form merged in 64bd228 (16-byte y / z, contiguous work runs), session 52 on an
// H100 (bench/results/logs/2026-12-06-s52-calls/call1/api_crossover.log; W / S from
// 2026-12-05-s48-windows_model.py and the s50 log): at R4 128k the choice, its decay kernels
// already run, gains by the fix-up 34.7 us at A x 0.35 (W / S 0.247: fix-up forced 1.277 ms
// against auto's state pass 1.311) and loses 43.4 us at A x 0.25 (0.321: 1.359 against 1.315);
// the fix-up's ~11 ns per window tile-head puts the even point near W / S 0.28 (a ratio of
// ~3.6). 3.75 (W / S < 0.267) lies between the measured gain and the even point, as the window
// counts are a model's. (Sessions 48 and 50 set 5 and measured ~4.3-4.5 on slower forms.)
constexpr double kFixupCostRatio = 3.75;

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
  return static_cast<int64_t>(static_cast<double>(state_tiles) / kFixupCostRatio);
}

}  // namespace flashssd::sm90
