// The split schemes' host-side rules (split_fixup.h): which scheme a call takes and the budget
// of the choice on the device. Host code only, so that the CPU tests check it
// (tests/cpu/test_dispatch_rules.cpp).
#include <algorithm>
#include <limits>

#include "kernels/common/env_knobs.h"
#include "kernels/sm90/split_fixup.h"

namespace flashssd::sm90 {

namespace {

// A fix-up tile-head (y read and written, z and C read) against a state pass tile-head (x and B
// read): the choice takes the fix-up while window tiles x this < the state pass's tiles.
// Measured on the form merged in 64bd228 (16-byte y / z, contiguous work runs), session 52 on an
// H100 (bench/results/logs/2026-12-06-s52-calls/call1/api_crossover.log, api_min128.log; the
// benchmark's own window counts from 2026-12-06-s52-windows_exact.py): the fix-up's call grows
// ~13.8 ns per window tile-head at R4 128k (least squares over A x 1 / 0.5 / 0.35 / 0.25: W / S
// 0.076 / 0.152 / 0.215 / 0.281) and ~14.1 at R1 32k. Once the choice's decay kernels have run (~26-30 us), it
// breaks even with the state pass near W / S 0.246 at R4 128k and 0.267 at R1 32k: ratios of
// ~4.07 and ~3.75. (Each row's choice in that call matched these counts at the ratio 5, set by
// sessions 48 and 50 on slower forms of the fix-up and on modelled window counts.)
constexpr int64_t kFixupCostRatio = 4;
constexpr int64_t kFixupMinSteps = 256;  // kFixupMinStateSteps (split_fixup.h), here a constant expression

}  // namespace

const int64_t kFixupMinStateSteps = kFixupMinSteps;
static_assert(kWindowMinStateSteps <= kFixupMinSteps, "auto's state pass is windowed wherever the fix-up's choice would run");

SplitScheme split_scheme() {
  switch (env_choice("FLASHSSD_SPLIT_SCHEME", {"auto", "state", "fixup"})) {
    case 1: return SplitScheme::kStatePass;
    case 2: return SplitScheme::kFixup;
    default: return SplitScheme::kAuto;  // (unset, empty or "auto")
  }
}

// FLASHSSD_STATE_WINDOW: 0 off, 1 on, -1 (unset or empty) by the state pass's length.
static int state_window_setting() { return env_choice("FLASHSSD_STATE_WINDOW", {"0", "1"}); }

bool state_window_wanted(int64_t state_steps) {
  const int setting = state_window_setting();
  return setting >= 0 ? setting == 1 : state_steps >= kWindowMinStateSteps;
}

int window_state_runs(int split_tiles) {
  // The divisor of split_tiles whose runs come nearest kWindowRunTiles tiles (by ratio; the
  // runs must divide the split: set_splits).
  int best = 1;
  double best_ratio = 1e30;
  for (int runs = 1; runs <= std::max(1, split_tiles); ++runs) {
    if (split_tiles % runs != 0) continue;
    const double len = double(split_tiles) / runs;
    const double ratio = std::max(len, double(kWindowRunTiles)) / std::min(len, double(kWindowRunTiles));
    if (ratio < best_ratio) best = runs, best_ratio = ratio;
  }
  return best;
}

int64_t state_pass_steps(int64_t state_ctas, int state_runs, int split_tiles, int sms) {
  const int64_t waves = (state_ctas * state_runs + sms - 1) / std::max(1, sms);
  return waves * (split_tiles / std::max(1, state_runs));
}

SplitScheme plan_split_scheme(bool dt_nonnegative, int64_t state_steps) {
  if (!dt_nonnegative) return SplitScheme::kStatePass;
  const SplitScheme scheme = split_scheme();
  if (scheme != SplitScheme::kAuto) return scheme;
  // (The window off: the choice on the device where the state pass is long. Otherwise the
  // state pass, windowed from kWindowMinStateSteps on, which is below kFixupMinStateSteps.)
  return state_window_setting() != 0 || state_steps < kFixupMinStateSteps ? SplitScheme::kStatePass : SplitScheme::kAuto;
}

int64_t fixup_budget(SplitScheme scheme, int64_t state_tiles) {
  if (scheme == SplitScheme::kFixup) return std::numeric_limits<int64_t>::max();
  if (scheme == SplitScheme::kStatePass) return 0;
  return state_tiles / kFixupCostRatio;
}

}  // namespace flashssd::sm90
