// Host-side pieces shared by the launchers of the sm80 and sm90 forwards: CUDA error
// checks, the split-sequence plan (DESIGN.md section 3) and the stream-ordered workspaces.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/common/env_knobs.h"
#include "kernels/common/kernel_params.h"

namespace flashssd {

inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("flashssd: ") + what + ": " + cudaGetErrorString(e));
}

struct SplitPlan {
  int num_splits = 1;
  int split_len = 0;
};

// The state pass's cost relative to a main-pass wave of the same length, and the factor
// for a state pass with at most one CTA per SM, per kernel (measured on an H200):
//   sm80: R1 at 32k tokens runs 2.55 ms with 2 splits, 2.21 ms with 4, 3.98 ms with 103
//         splits of 320 tokens;
//   sm90: one CTA per SM in both passes; R1 32k, R4 128k and 512k swept over 1..24 splits
//         (bench/results/logs/2026-11-29-s4-sm90-steps.log).
struct SplitCost {
  double state_weight, underfill;
};
inline constexpr SplitCost kSm80SplitCost{0.5, 1.6}, kSm90SplitCost{0.45, 1.0};

// Choose the number of splits per sequence: the main pass costs ceil(ctas / slots)
// waves of split_len tokens plus a fixed cost per wave (state load/store, pipeline
// fill: ~kWaveOverhead tokens); with > 1 split the state pass (x, B, dt only) adds
// cost.state_weight of that per wave, times cost.underfill when it has at most one CTA per SM.
inline SplitPlan plan_splits(int64_t ctas_per_split, int seqlen, int tile, int slots, SplitCost cost) {
  SplitPlan best{1, seqlen};
  double best_cost = 1e30;
  const int max_splits = std::max(1, std::min(256, (seqlen + 4 * tile - 1) / (4 * tile)));
  for (int s = 1; s <= max_splits; ++s) {
    const int len = ((seqlen + s - 1) / s + tile - 1) / tile * tile;
    if ((seqlen + len - 1) / len != s) continue;
    constexpr double kWaveOverhead = 512;
    double total = std::ceil(double(ctas_per_split) * s / slots) * (len + kWaveOverhead);
    if (s > 1) {
      const double state_ctas = double(ctas_per_split) * (s - 1);
      const double under_filled = state_ctas * 2 <= slots ? cost.underfill : 1.0;
      total += cost.state_weight * std::ceil(state_ctas / slots) * (len + kWaveOverhead) * under_filled;
    }
    if (total < best_cost * 0.999) {
      best_cost = total;
      best = {s, len};
    }
  }
  return best;
}

// Runs per split of the sm90 state pass: its (num_splits - 1) x ctas_per_split CTAs leave
// SMs idle when they are fewer than the SMs or fill a last wave only partly (R1 at 32k
// tokens: 64 on 132; R4: 96), so each split's state is computed in `runs` pieces that the
// boundary scan chains. A run costs its tiles plus kRunOverheadTiles (pipeline fill, state
// store, scan), in waves of `sms` CTAs; runs divide the split's tiles and keep >= kMinRunTiles
// each, and more than one run is taken only when that is >= 10% cheaper. Measured (session
// 10, flashssd_bench): R1 32k 0.823 / 0.739 / 0.809 ms with 1 / 2 / 4 runs, R4 128k 1.685 /
// 1.714 / 1.604, R4 512k 6.55 / 6.62 / 6.35.
inline int state_runs_per_split(int64_t state_ctas, int tiles_per_split, int sms) {
  constexpr int kMinRunTiles = 8, kRunOverheadTiles = 8;
  auto cost = [&](int runs) {
    const int64_t waves = (state_ctas * runs + sms - 1) / std::max(1, sms);
    return double(waves) * (double(tiles_per_split) / runs + kRunOverheadTiles);
  };
  int best = 1;
  for (int runs = 2; runs <= tiles_per_split / kMinRunTiles; ++runs)
    if (tiles_per_split % runs == 0 && cost(runs) < cost(best)) best = runs;
  return cost(best) <= 0.9 * cost(1) ? best : 1;
}

// The grid of a persistent kernel whose CTAs stride over `items` of equal cost: the fewest CTAs
// (at most `slots`) that leave each CTA ceil(items / slots) items at most, so that every CTA
// runs the same number of items and none of the last wave's SMs runs only part of it. The
// makespan in items is unchanged; the CTAs that would have had one item fewer no longer pull
// on DRAM and L2 beside the others. The sm90 main pass at R1's shapes, 132 -> 128 CTAs: 512
// tokens with z -1.1%, 1k with z -1.6%, 8k -0.2% alone (bench/results/logs/2026-12-05-s43-call1/);
// through the API R1 z at 512-4k tokens -0.7..-1.4%, the ungated 512 row +0.4% (-call2/).
inline int64_t balanced_grid(int64_t items, int slots) {
  if (items <= 0 || slots <= 0) return 0;
  const int64_t per_cta = (items + slots - 1) / slots;
  return (items + per_cta - 1) / per_cta;
}

// A global stride for a TMA descriptor, which wants every stride a multiple of 16 bytes, also
// along dimensions of extent 1 (whose stride is never used): those get 8 elements.
inline int64_t tma_stride(int64_t stride, int extent) { return extent > 1 ? stride : int64_t(8); }

// The largest values the two split knobs below take.
constexpr int kMaxForcedSplits = 256, kMaxForcedStateRuns = 1 << 16;

// FLASHSSD_STATE_RUNS=r (benchmark tuning knob, env_knobs.h) overrides the runs per split: the
// largest divisor of the split's tiles up to r.
inline int forced_state_runs(int runs, int tiles_per_split) {
  if (const int forced = env_count("FLASHSSD_STATE_RUNS", kMaxForcedStateRuns)) {
    runs = std::min(std::max(1, tiles_per_split), forced);
    while (runs > 1 && tiles_per_split % runs != 0) --runs;
  }
  return runs;
}

// FLASHSSD_NUM_SPLITS=s (benchmark tuning knob, env_knobs.h; 1 to 256) overrides the plan.
inline SplitPlan forced_splits(SplitPlan plan, int seqlen, int tile) {
  if (const int s = env_count("FLASHSSD_NUM_SPLITS", kMaxForcedSplits)) {
    plan.split_len = ((seqlen + s - 1) / s + tile - 1) / tile * tile;
    plan.num_splits = (seqlen + plan.split_len - 1) / plan.split_len;
  }
  return plan;
}

// The library's own stream-ordered memory pool for its per-call workspaces (split states,
// reset flags, chunk scores), one per device, created on first use (also inside a graph
// capture) and kept for the process.
// It keeps up to kWorkspaceKeepBytes between calls: the device's default pool (release
// threshold 0) hands its memory back at every synchronisation, and the next call's
// allocation then maps it again on the host's path (flashssd_bench, one call per
// synchronisation: ~20 us for the 8 MB of R1's chunk scores, inferred from timings with and
// without this pool, session 11).
constexpr uint64_t kWorkspaceKeepBytes = uint64_t(256) << 20;
// This thread's stream-capture mode set to relaxed for the object's life (restored after).
struct RelaxedCaptureMode {
  cudaStreamCaptureMode previous = cudaStreamCaptureModeRelaxed;
  RelaxedCaptureMode() { check_cuda(cudaThreadExchangeStreamCaptureMode(&previous), "cudaThreadExchangeStreamCaptureMode"); }
  ~RelaxedCaptureMode() { cudaThreadExchangeStreamCaptureMode(&previous); }
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;
};
inline cudaMemPool_t workspace_pool() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  static std::mutex mutex;
  static std::vector<cudaMemPool_t> pools;  // by device
  std::lock_guard<std::mutex> lock(mutex);
  if (int(pools.size()) <= device) pools.resize(device + 1, nullptr);
  if (!pools[device]) {
    // The first call may come inside a CUDA graph capture, whose default (global) mode forbids
    // this thread calls that are not stream work: the pool's creation runs in relaxed mode.
    RelaxedCaptureMode relaxed;
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    check_cuda(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate(workspace)");
    uint64_t keep = kWorkspaceKeepBytes;
    const cudaError_t set = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    if (set != cudaSuccess) cudaMemPoolDestroy(pool);  // (not kept half-made; the next call tries again)
    check_cuda(set, "cudaMemPoolSetAttribute(workspace)");
    pools[device] = pool;
  }
  return pools[device];
}

// A per-call workspace from that pool, stream-ordered (capturable in CUDA graphs: an
// allocation node), freed on every exit path.
struct Workspace {
  void* ptr = nullptr;
  cudaStream_t stream = nullptr;
  explicit Workspace(cudaStream_t s) : stream(s) {}
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  void allocate(size_t bytes, const char* what) {
    check_cuda(cudaMallocFromPoolAsync(&ptr, bytes, workspace_pool(), stream), what);
  }
  ~Workspace() {
    if (ptr) cudaFreeAsync(ptr, stream);
  }
};

// A second stream for work that runs beside the caller's stream within one call, forked from it
// and joined back by events (a fork and join that CUDA graph captures take as such): one per host
// thread and device, so that two threads' calls, or captures, never share it. Non-blocking:
// only the events order it. Its two events are made once with it and reused by every fork: a
// wait takes the event's latest record when it is queued, so a later record cannot move it.
struct SideStream {
  cudaStream_t stream = nullptr;
  cudaEvent_t forked = nullptr, joined = nullptr;
};
inline SideStream side_stream() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  struct ByDevice {
    std::vector<SideStream> sides;
    ~ByDevice() {
      for (const SideStream& s : sides) {
        if (s.forked) cudaEventDestroy(s.forked);
        if (s.joined) cudaEventDestroy(s.joined);
        if (s.stream) cudaStreamDestroy(s.stream);
      }
    }
  };
  thread_local ByDevice by_device;
  if (int(by_device.sides.size()) <= device) by_device.sides.resize(device + 1);
  SideStream& side = by_device.sides[device];
  if (!side.joined) {  // (made in order; a failure leaves the rest to the next call)
    RelaxedCaptureMode relaxed;  // (the first call may come inside a capture: see workspace_pool)
    if (!side.stream)
      check_cuda(cudaStreamCreateWithFlags(&side.stream, cudaStreamNonBlocking), "cudaStreamCreate(side)");
    if (!side.forked)
      check_cuda(cudaEventCreateWithFlags(&side.forked, cudaEventDisableTiming), "cudaEventCreate(fork)");
    check_cuda(cudaEventCreateWithFlags(&side.joined, cudaEventDisableTiming), "cudaEventCreate(join)");
  }
  return side;
}

// Work queued on side() between the fork (it follows the caller's work so far) and the join (the
// caller's stream waits for it). The join also runs on every exit path, so that a capture never
// holds an unjoined fork. Declare it after the workspaces that the side's work uses: it joins
// before they are freed. The side stream is shared by the thread's calls on every stream: a call
// forked from stream B waits for the side work that an earlier call on stream A queued there
// (~16 us of chunk scores), not for A's other work.
class StreamFork {
 public:
  // Whether the side stream may take work forked from `main` now. A stream that a capture has
  // taken in by a fork stays in that capture until it ends: it then serves only calls captured
  // into the same graph (otherwise the caller keeps the work on its own stream).
  static bool possible(cudaStream_t main) {
    cudaStreamCaptureStatus main_status = cudaStreamCaptureStatusNone, side_status = cudaStreamCaptureStatusNone;
    unsigned long long main_id = 0, side_id = 0;
    check_cuda(cudaStreamGetCaptureInfo(main, &main_status, &main_id), "cudaStreamGetCaptureInfo");
    check_cuda(cudaStreamGetCaptureInfo(side_stream().stream, &side_status, &side_id), "cudaStreamGetCaptureInfo(side)");
    if (side_status == cudaStreamCaptureStatusNone) return true;
    return side_status == cudaStreamCaptureStatusActive && main_status == cudaStreamCaptureStatusActive && main_id == side_id;
  }
  explicit StreamFork(cudaStream_t main) : main_(main), side_(side_stream()) {
    check_cuda(cudaEventRecord(side_.forked, main_), "cudaEventRecord(fork)");
    check_cuda(cudaStreamWaitEvent(side_.stream, side_.forked, 0), "cudaStreamWaitEvent(fork)");
    join_pending_ = true;  // (set only once the fork is made: a failed fork has nothing to join)
  }
  StreamFork(const StreamFork&) = delete;
  StreamFork& operator=(const StreamFork&) = delete;
  cudaStream_t side() const { return side_.stream; }
  void join() {
    if (!join_pending_) return;
    check_cuda(cudaEventRecord(side_.joined, side_.stream), "cudaEventRecord(join)");
    check_cuda(cudaStreamWaitEvent(main_, side_.joined, 0), "cudaStreamWaitEvent(join)");
    join_pending_ = false;
  }
  ~StreamFork() {  // (a join not made, or failed: made here, best effort, without throwing)
    if (join_pending_) {
      cudaEventRecord(side_.joined, side_.stream);
      cudaStreamWaitEvent(main_, side_.joined, 0);
    }
  }

 private:
  cudaStream_t main_;
  SideStream side_;  // (a copy of the handles: the thread's table may grow under a fork)
  bool join_pending_ = false;
};

// Allocates the split states and decays of params' plan (num_splits > 1, state_runs runs of
// the state pass per split) on the stream.
inline void allocate_split_workspace(SsdKernelParams& params, Workspace& workspace) {
  const int64_t bh = int64_t(params.batch) * params.heads, plane = int64_t(params.headdim) * params.dstate;
  const int64_t slots = bh * params.num_splits, run_slots = bh * (params.num_splits - 1) * (params.state_runs - 1);
  const size_t bytes = ((slots + run_slots) * plane + slots + run_slots) * sizeof(float);
  workspace.allocate(bytes, "workspace allocation (split states)");
  params.split_states = static_cast<float*>(workspace.ptr);
  params.run_states = params.split_states + slots * plane;
  params.split_decay = params.run_states + run_slots * plane;
  params.run_decay = params.split_decay + slots;
}

}  // namespace flashssd
