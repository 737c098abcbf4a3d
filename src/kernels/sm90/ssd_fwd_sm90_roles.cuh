// One instantiation of the Hopper forward kernel (ssd_fwd_sm90.cuh): the types its two roles
// share, and the roles, each in a header of its own:
//   producer   warpgroup 0 (producer_sm90.cuh): the TMA loads of a tile's operands and the
//              tokens' decay factors, into a ring of kStages pipeline stages;
//   consumer   warpgroups 1 .. kHeadsPerCta (consumer_sm90.cuh), one head slice each: the
//              tile's GEMMs, the mask and the state update (the mainloop), then y's epilogue.
// Both walk the work items of WorkScheduler (tile_scheduler_sm90.cuh) in the same order.
#pragma once

#include <cutlass/arch/barrier.h>

#include "kernels/common/operands_sm80.cuh"
#include "kernels/sm90/ssd_fwd_sm90_traits.cuh"
#include "kernels/sm90/tile_scheduler_sm90.cuh"

namespace flashssd::sm90 {

// kGateZ: y *= silu(z) (a template parameter: as a runtime branch the compiler predicates
// the whole gate into the z-less kernel). kStatePass: the split-sequence state pass (local
// final state and decay of every split but the last; no C, no y).
template <class K, bool kGateZ, bool kStatePass>
struct SsdFwdRoles {
  using Element = typename K::Element;
  using ElementPair = sm80::HalfPacking<typename K::CudaElement>;  // two Elements in a 32-bit register
  using Barrier = cutlass::arch::ClusterTransactionBarrier;
  using NamedBarrier = cutlass::arch::NamedBarrier;
  static constexpr int kQ = K::kQ, kHeads = K::kHeadsPerCta, kWG = K::kWarpgroupThreads;
  using SharedStorage = typename K::template SharedStorageT<kStatePass, kGateZ>;
  static constexpr int kStages = SharedStorage::kNumStages;
  using Params = typename K::Params;
  using Scheduler = WorkScheduler<K, kStatePass>;
  // P = 128 (an item's two slots one head's slices, WorkScheduler::one_head): the producer
  // prepares the head's decay once, over the whole warpgroup (prepare_tile_decay's one-head
  // form), into slot 0's record, which both consumers read. Only in the N = 64 z kernel: probe,
  // session 28 call 1, R3 z's shape 0.5509 -> 0.5440 ms (-1.3%), at 128 x 512 -1.3%, P = 64
  // -0.5%; through the API R3 z 0.5519 -> 0.5448. Elsewhere the run-time choice of form cost
  // more than it saved: R3's shape -0.2%, at 128 x 512 +0.6%, P = 128 at N = 128 +1.5%, the P =
  // 64 kernels +0.4..0.5%. With three stages, the turns and the balanced rows (session 29 call
  // 5): without it R3 z's shape +4.1%; in the ungated N = 64 kernel too R3's shape +7.7%.
  static constexpr bool kOneHeadDecay = !kStatePass && kGateZ && K::kN == 64;

  // Warpgroup 0; wtid its thread.
  __device__ static void producer(const Params& p, SharedStorage& smem, const Scheduler& scheduler, int wtid);
  // Warpgroup `warpgroup` (1 .. kHeads); wtid its thread.
  __device__ static void consumer(const Params& p, SharedStorage& smem, const Scheduler& scheduler, int warpgroup, int wtid);
};

}  // namespace flashssd::sm90
