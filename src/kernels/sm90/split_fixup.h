// The split-sequence schemes' decay windows (DESIGN.md section 3: boundary states pass between
// splits without a second HBM read of x). Both rest on one fact: a token's or a state's weight
// exp(log-decay) is 0 in fp32 below about e^-104 (2^-150), so what lies more than 110 nats of
// decay from a split boundary is dropped there. (The weight is 0; a product h e^-110 computed by
// a chain of multiplies, as the whole-split state pass does, can stay nonzero for |h| above
// ~1e3, so the two differ by that much, far below fp32's rounding of what the window holds. A
// NaN or Inf before a window no longer reaches past the boundary either.)
//   - The windowed state pass (the default since session 57; state_window_kernel below): each
//     split's end state from its last tiles only, those within the window of its end.
//   - The fix-up (below; FLASHSSD_SPLIT_SCHEME=fixup, or "auto" with FLASHSSD_STATE_WINDOW=0,
//     where it is chosen per call on the device against the whole-split state pass:
//     fixup_chosen): the splits from zero states, their incoming states added to y over the
//     window of each split's start.
//
// The fix-up: the main pass runs every split from a zero state (split 0 from the initial state)
// and writes each split's local final state; then, on the caller's stream:
//   1. tile_log_decay:   (before the state pass) each 64-token tile's summed log-decay
//                        sum(dt A) (-inf where a packed sequence starts), splits 1 .. S - 1;
//   2. split_log_prefix: (before the state pass) per split 1 .. S - 1, each tile's log-decay
//                        from the split's start to the tile's start, the split's total decay
//                        (for the boundary scan), the count of window tiles (the choice) and
//                        the window's chunks (the fix-up's work list);
//   3. the boundary scan (split_scan.cu, its second launch): each split's incoming state
//                        h_in, and the final state;
//   4. split_fixup:      y_t += silu(z_t) exp(cs_t) C_t h_in^T for the tokens t of splits
//                        1 .. S - 1 whose decay from the split's start cs_t (log) has not
//                        underflowed: y is linear in the incoming state, and the term is
//                        exactly 0 in fp32 beyond that window (exp(cs) < 2^-149).
// What it costs instead of the state pass's read of x (all splits but the last): a
// read-modify-write of y (and a read of z) over each split's window, whose length depends on
// the decays (a head whose decay is slow keeps its whole split).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/common/kernel_params.h"

namespace flashssd::sm90 {

// Tiles of the fix-up's token axis (the main pass's compute tile).
constexpr int kFixupTile = 64;

// Whether the call takes the fix-up (decided on the device, once the window tiles are counted):
// every kernel of both schemes is queued, and those of the scheme not taken return at once.
__host__ __device__ inline bool fixup_chosen(const unsigned long long* window_tiles, int64_t budget) {
#ifdef __CUDA_ARCH__
  return window_tiles != nullptr && static_cast<long long>(*window_tiles) < budget;
#else
  (void)window_tiles, (void)budget;
  return false;
#endif
}

// The scheme of calls with more than one split (FLASHSSD_SPLIT_SCHEME, read per call):
// "state" the state pass only (windowed unless FLASHSSD_STATE_WINDOW=0; none of the fix-up's
// kernels), "fixup" the fix-up always, "auto" (the default) the windowed state pass (below) or,
// with it turned off, the cheaper by the windows' size.
enum class SplitScheme { kStatePass, kFixup, kAuto };
SplitScheme split_scheme();

// The scheme a call takes: FLASHSSD_SPLIT_SCHEME's, except that
//   - every setting takes the state pass where dt may be negative (dt_nonnegative false: no
//     softplus and dt_limit_lo < 0): a window is the prefix of its split where the log-decay
//     from the split's start is >= -110, which holds only while the log-decay never rises;
//   - "auto" takes the state pass (windowed where state_window_wanted, below) unless
//     FLASHSSD_STATE_WINDOW=0: on an H200
//     (session 57, API A/B against the fix-up's choice, 5 rounds; call 7) R4 128k -2.2%, its z
//     row -4.5%, with decays 10x slower -1.9%, 512k -6.2%; call 6: R4 128k A x 0.25 -11%;
//   - with the window off, "auto" takes the state pass outright where that pass is short: below
//     kFixupMinStateSteps tiles per SM (state_steps: its waves times a run's tiles), the
//     choice's own kernels (tile_log_decay, split_log_prefix: ~20-40 us) cost more than the
//     fix-up can save. Session 48 (H100): the state pass takes ~0.85-0.9 us per step (R1 32k
//     128 steps 114 us, R4 128k 384 steps 321 us), and at R1 32k the fix-up lost 2.9% with the
//     benchmark's decays. (Defined in split_scheme.cpp with kFixupCostRatio: a change to
//     either rebuilds one host file, not every kernel.)
extern const int64_t kFixupMinStateSteps;
SplitScheme plan_split_scheme(bool dt_nonnegative, int64_t state_steps);
// The state pass's length in tiles per SM: its waves of state_ctas x state_runs CTAs (one an
// SM) times a run's tiles.
int64_t state_pass_steps(int64_t state_ctas, int state_runs, int split_tiles, int sms);

// The budget of window tiles under which the fix-up is taken: the state pass reads
// state_tiles tile-heads (all splits but the last); a fix-up tile-head costs about
// kFixupCostRatio of them (split_scheme.cpp: sessions 48-52).
int64_t fixup_budget(SplitScheme scheme, int64_t state_tiles);

// Workspace of the kernels below: the per-tile log-decays (b, H, tiles) and the window count.
size_t split_decays_workspace_bytes(const SsdKernelParams& p);

// Before the state pass: tile_log_decay and split_log_prefix (kernels 1-2 above), which also
// count the window tiles into p.window_tiles. p.split_decay gets each split's total decay.
void launch_split_decays(const SsdKernelParams& p, const uint8_t* reset_flags, float* tile_log, cudaStream_t stream,
                         bool after_previous);

// The state pass over each split's decay window (the state scheme, where dt >= 0): a split's
// end state takes only the tokens whose log-decay to the split's end is >= -110 (split_fixup.cu's
// kWindowFloor: beyond it their weight exp(log-decay) is 0 in fp32, as in the fix-up's windows;
// the state carried in from before the window is dropped with them; see the top of this file). Before the state pass,
// tile_log_decay and state_window_kernel give each (b, h, split) its window's first tile; each
// state-pass item (a run of a split for a head set) is clipped to the window of its heads (the
// longer), runs wholly before it compute nothing, and the launch is one CTA per item, the runs
// nearest the split's end first, so that the SMs' block scheduler deals out the uneven runs
// (a persistent grid's static stride piles one slow pair's runs on few CTAs). The boundary
// scan reads what a run did from its decay slot: kDeadRun (no state: the chain restarts at
// zero after it) or kRestartRun (clipped: the chain restarts at its state), else its decay.
// It is taken where the whole-split state pass would run at least kWindowMinStateSteps tiles
// per SM (state_steps, as plan_split_scheme's): below, the window kernels (~11 us) cost more
// than the window saves. Session 57 (H100, API, window against whole splits; call 10): 16
// steps +6.3% (8 heads, 32k tokens), 64 steps +3.3% / +1.1% (16 heads at 64k, 64 heads at 16k),
// 128 steps -7.8% (R1 32k), 192 steps -15.4% (R3's heads at 64k). FLASHSSD_STATE_WINDOW=0 turns
// it off (the whole split, as before), =1 on whatever the length.
constexpr float kDeadRun = -1.f, kRestartRun = -2.f;
constexpr int64_t kWindowMinStateSteps = 128;
bool state_window_wanted(int64_t state_steps);
// Runs per split of the windowed state pass: runs of ~kWindowRunTiles tiles (a divisor of the
// split's tiles), so that a long window is shared by several CTAs. Shorter runs share a window
// more finely but each adds a partial state for the boundary scan (P N floats written and read)
// and a CTA's start. Session 57 (H200, API, R1 32k; calls 4 and 7 against main's whole-split
// state pass): runs of 32 tiles -6.5% with the benchmark's decays, +2.0% / +7.6% with decays
// 4x / 10x slower; of 64 tiles -7.3% / +3.7% / +3.9% (call 7: -7.4% / 10x slower +4.1%); of 16
// -5.6% / +7.7% / +14.5%; call 6, runs of 128 tiles against runs of 32: +8.7% / -0.8% / -5.5%.
constexpr int kWindowRunTiles = 64;
int window_state_runs(int split_tiles);
// Workspace of the kernels below: the tiles' log-decays (b, H, tiles) and the windows' first
// tiles (b, H, num_splits - 1).
size_t state_window_workspace_bytes(const SsdKernelParams& p);
// Queues tile_log_decay over splits 0 .. S - 2 and state_window_kernel; returns the windows'
// first tiles (in the workspace).
const int* launch_state_windows(const SsdKernelParams& p, const uint8_t* reset_flags, void* workspace,
                                cudaStream_t stream, bool after_previous);

// After the main pass: the boundary scan's second launch (the final states; with the fix-up
// chosen the incoming states) and the fix-up (kernels 3-4). CudaElement: __nv_bfloat16 or __half.
template <class CudaElement>
void launch_split_fixup(const SsdKernelParams& p, const uint8_t* reset_flags, const float* tile_log, int sms,
                        cudaStream_t stream);

}  // namespace flashssd::sm90
