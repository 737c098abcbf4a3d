// The Hopper forward's consumer warpgroups (SsdFwdRoles::consumer), one head slice each: per
// tile of 64 tokens the mainloop (h C^T, the intra-tile term, the state update, all WGMMA,
// the state carried in registers) and the epilogue (readout, D x, the gate, y's TMA store);
// the state pass's consumers only update the state, two tiles at a time. The steps of a tile
// are named lambdas; the schedules at the end of the tile loop order them (exact, factored,
// lean). The header of ssd_fwd_sm90.cuh has the tile's algebra.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/arch/reg_reconfig.h>

#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/segsum.cuh"
#include "kernels/sm90/fragments_sm90.cuh"
#include "kernels/sm90/split_fixup.h"
#include "kernels/sm90/ssd_fwd_sm90_roles.cuh"
#include "kernels/sm90/wgmma.cuh"

namespace flashssd::sm90 {

using namespace cute;

template <class K, bool kGateZ, bool kStatePass>
__device__ __forceinline__ void SsdFwdRoles<K, kGateZ, kStatePass>::consumer(const Params& p, SharedStorage& smem,
                                                                             const Scheduler& scheduler, int warpgroup,
                                                                             int wtid) {
  cutlass::arch::warpgroup_reg_alloc<K::kConsumerRegs>();
  const int head = warpgroup - 1, tid = wtid;
  const int consumer_barrier = K::kConsumerBarrier0 + head;
  auto sync_consumer = [&] { NamedBarrier::sync(kWG, consumer_barrier); };
  // The two consumers take turns issuing their largest WGMMA batch (the state update, and the
  // next S at N = 64, which computes S itself),
  // so that one's completes first and its epilogue overlaps the other's GEMMs instead of both
  // finishing together (FlashAttention-3's ping-pong). Consumer 0 goes first. Measured
  // (session 6 steps log, calls 7 and 14): 0.4-4% faster without the gate, 6% with it at
  // N = 128, but 13% slower with it at N = 64. The N = 64 z kernel takes them since its third
  // stage, together with S's balanced rows (ScoreRows; probe, session 29 call 5, 3
  // rounds: R3 z's shape 0.4888 -> 0.4610 ms (-5.7%), at 128 x 512 -4.9%, P = 64 -7.0%,
  // packed -1.9%; the turns alone +1.4..2.4%, the balanced rows alone -1.0..-2.8%).
  constexpr bool kPingPong = !kStatePass && kHeads == 2;
  // (The consumer index is re-read from threadIdx: a register held for it spills the z kernel.)
  auto wait_turn = [] {
    if constexpr (kPingPong) NamedBarrier::sync(2 * kWG, K::kIssueTurn0 + int(threadIdx.x) / kWG - 1);
  };
  auto pass_turn = [] {
    if constexpr (kPingPong) NamedBarrier::arrive(2 * kWG, K::kIssueTurn0 + 2 - int(threadIdx.x) / kWG);
  };
  if (head == 1) pass_turn();
  auto& mine = smem.consumer[head];
  // One output buffer (K::kOneOutputBuffer), which an exact tile's S' shares.
  constexpr bool kOneBuffer = !kStatePass && K::template kOneOutputBuffer<kGateZ>;
  static_assert(!kOneBuffer || kPingPong, "one output buffer: the turn's barrier orders the previous y's store before the epilogue");
  Element* const scores_tile = kOneBuffer ? mine.y[0] : mine.scores;
  const uint32_t scores_addr = smem_addr(scores_tile), y_addr0 = smem_addr(mine.y[0]);
  constexpr uint32_t kYBufferBytes = sizeof(mine.y[0]);
  Tensor sScores = make_tensor(make_smem_ptr(scores_tile), typename K::LayoutScores{});

  // S's rows over the warps are balanced (ScoreRows): S is read from the chunk scores or, at N =
  // 64, computed from C in registers (MmaScoresRs; the ungated kernel since session 27: R3's
  // shape -1.7%, 512 tokens -2.3%; the z kernel since session 29, with the turns above: with two
  // stages it read +0.8% (session 27) and, with the mask per warp, +3.2% (session 28)). The SS
  // WGMMA's m16n8 rows (K::MmaS) left warp 3 with 15 of the mask's 36 pairs.
  // The mask compiled per warp (mask_scores' kPerWarp), but for N = 256. Probe, session 28 call
  // 2 (mask per warp in every kernel, 3 rounds): R1 8k 0.4473 -> 0.4343 ms (-2.9%), 512 tokens
  // -2.9%, z -1.8%, packed -1.2%, N = 64 -7.3%, R3's shape 0.4126 -> 0.3807 (-7.7%); but the N =
  // 64 z kernel (then with the m16n8 rows) +2.6%, N = 256 +1.2%. Through the API (base =
  // fbc959c's library): R1 8k 0.4680 -> 0.4527 (-3.3%), 512 tokens -3.0%, R1 8k z -1.5%, R3
  // 0.4133 -> 0.3804 (-8.0%).
  constexpr bool kMaskPerWarp = !K::kLeanSchedule;
  typename K::MmaScoresRs mma_s;
  typename K::MmaYState mma_ys;
  typename K::MmaYScoresHalf mma_yx_half;
  typename K::MmaH mma_h;
  auto thr_s = mma_s.get_thread_slice(tid);
  auto thr_ys = mma_ys.get_thread_slice(tid);
  auto thr_yx_half = mma_yx_half.get_thread_slice(tid);
  // S' as the B operands of X^T S'^T's two halves: output tokens (rows) 0 .. kQ/2 - 1, then the rest.
  Tensor tYsScoresLo = thr_yx_half.partition_fragment_B(local_tile(sScores, Shape<typename K::TQHalf, typename K::TQ>{}, make_coord(0, 0)));
  Tensor tYsScoresHi = thr_yx_half.partition_fragment_B(local_tile(sScores, Shape<typename K::TQHalf, typename K::TQ>{}, make_coord(1, 0)));
  auto thr_h = mma_h.get_thread_slice(tid);
  const AccCoord at(tid);
  // The score tile's rows in this warp's registers (the mask's balance, ScoreRows).
  using Rows = ScoreRows<kQ, true>;
  const int lane = tid % 32, lane_row = Rows::row(at.warp, lane);  // ldmatrix / stmatrix row of this lane in S and S'
  // The shared x, z and y tiles are (token, p), the registers (p, token): ldmatrix / stmatrix
  // .trans move pairs 4 j .. 4 j + 3 of the accumulator order per call, from these addresses.
  // One 64-channel slice of x has y's layout (x_offset == y_offset, checked by tests/cpu), so
  // the three tiles share the offsets (registers held across the loop).
  static_assert(K::kP == 64, "x and y tiles share offsets for one 64-channel slice");
  auto transposed_pairs = [&](uint32_t tile, int j) {
    return tile + K::y_offset(MatrixRows::trans_col(lane, j), MatrixRows::trans_row(at.warp, lane));
  };
  Tensor acc_h = partition_fragment_C(mma_h, Shape<typename K::TP, typename K::TN>{});
  Tensor acc_s = partition_fragment_C(mma_s, Shape<typename K::TQ, typename K::TQ>{});
  // The state pass takes its tiles in pairs, h = T_a T_b h + T_b U_a + U_b (T a tile's total
  // decay, U its update (X diag(w))^T B): one decay of the state and one wait for the tensor
  // cores per two tiles, the pair's two updates issued back to back, with T_b folded into
  // tile a's weights. Its A operands ((X diag(w))^T of both tiles) are prepared while the
  // previous pair's updates run (session 10 tried that alone, with the producer computing the
  // weights: no gain, the producer set the pace).
  [[maybe_unused]] Tensor state_operand_a =
      make_tensor<Element>(shape(thr_h.partition_A(make_identity_tensor(Shape<typename K::TP, typename K::TQ>{}))));
  [[maybe_unused]] Tensor state_operand_b = make_tensor<Element>(shape(state_operand_a));
  constexpr int kOperandRegs = decltype(size(recast<uint32_t>(state_operand_a)))::value;
  [[maybe_unused]] uint32_t next_operand[2][kOperandRegs];
  [[maybe_unused]] float next_total = 1.f;  // the next pair's total decay T_a T_b
  // The pair (it_a, it_b) into next_operand (and its total decay): each warp computes each
  // tile's 64 weights from the stage's a and dt (lane l: tokens 2 l, 2 l + 1), tile a's times
  // T_b, then scales its x registers (ldmatrix.trans, as the main pass reads them) by the
  // weights of their tokens, 16 j + 2 q, + 1 (lane 8 j + q's) and 16 j + 8 + 2 q, + 1 (lane
  // 8 j + 4 + q's). Without a second tile (b_real false; it_b = it_a) tile b's weights are 0
  // and T_b = 1. (Generic, so that only the state pass, whose stages hold TileTokens,
  // compiles its body.)
  auto prepare_state_pair = [&](auto it_a, auto it_b, bool b_real) {
    auto weights = [&](int it_of_tile, float2& w) {
      Barrier::wait(&smem.full[it_of_tile % kStages], (it_of_tile / kStages) & 1);
      const auto& tokens = smem.stage[it_of_tile % kStages].decay[head];
      return sm80::tile_weights_warp(*reinterpret_cast<const float2*>(&tokens.a[2 * lane]),
                                     *reinterpret_cast<const float2*>(&tokens.dt[2 * lane]), lane, w);
    };
    float2 w[2];
    const float total_a = weights(it_a, w[0]);
    float total_b = weights(it_b, w[1]);
    total_b = b_real ? total_b : 1.f;
    w[1] = b_real ? w[1] : make_float2(0.f, 0.f);
    w[0].x *= total_b;
    w[0].y *= total_b;
    next_total = total_a * total_b;
    CUTE_UNROLL
    for (int k = 0; k < 2; ++k) {
      const uint32_t x_addr = smem_addr(smem.stage[(k ? it_b : it_a) % kStages].x[head]);
      CUTE_UNROLL
      for (int j = 0; j < kQ / 16; ++j) {
        uint32_t r[4];
        ldmatrix_x4_trans(r, transposed_pairs(x_addr, j));
        float2 wm[2];
        CUTE_UNROLL
        for (int hi = 0; hi < 2; ++hi) {
          const int from = 8 * j + 4 * hi + at.q;
          wm[hi] = make_float2(__shfl_sync(0xffffffffu, w[k].x, from), __shfl_sync(0xffffffffu, w[k].y, from));
        }
        scale_by_token_weights<ElementPair>(j, wm[0], wm[1], [&](int i) { return r[i % 4]; },
                                            [&](int i) -> uint32_t& { return next_operand[k][i]; });
      }
    }
  };
  // ptxas serialises every WGMMA of the kernel (a wait after each instruction; ptxas -v
  // says C7514, C7517 or C7518; cmake/ptxas_guard.sh fails the build on them) unless it can
  // track the in-flight groups statically: no WGMMA and no warpgroup_wait under a runtime
  // branch, and nothing in flight across a loop's back edge (as in FlashAttention-3's
  // mainloop). So every tile retires all its WGMMAs, the first tile of a work item also
  // computes h C^T (from a zero state when there is none), and without the chunk scores the
  // last tile of an item computes a spare S from its own stage.
  //
  // Without the chunk scores (N = 64), S = C B^T of tile it + 1 is computed during tile it
  // (after its own S has been used), so each tile starts with its scores ready. With balanced
  // rows C is the register A operand, read by ldmatrix in those rows (MmaScoresRs; four
  // instructions, where the SS form read the same bytes in the tensor core), and stays
  // allocated until the WGMMA has retired.
  [[maybe_unused]] Tensor tSrC = make_tensor<Element>(
      shape(typename K::MmaScoresRs{}.get_thread_slice(tid).partition_A(make_identity_tensor(Shape<typename K::TQ, typename K::TN>{}))));
  auto issue_scores = [&](int it) {
    const int s = it % kStages;
    Barrier::wait(&smem.full[s], (it / kStages) & 1);  // passes at once for the spare S
    Tensor sB = make_tensor(make_smem_ptr(smem.stage[s].b), typename K::LayoutBC{});
    Tensor tSrC_pairs = recast<uint32_t>(tSrC);
    static_assert(decltype(size(tSrC_pairs))::value == K::kN / 16 * 4, "four pairs of C per thread and k-block");
    const uint32_t c_addr = smem_addr(smem.stage[s].c);
    CUTE_UNROLL
    for (int j = 0; j < K::kN / 16; ++j) {
      uint32_t r[4];
      ldmatrix_x4(r, c_addr + K::bc_offset(lane_row, Rows::col(lane, j)));
      CUTE_UNROLL
      for (int m = 0; m < 4; ++m) tSrC_pairs(4 * j + m) = r[m];
    }
    warpgroup_fence_operand(tSrC);  // register A operand written before the wgmma that reads it
    wgmma_issue(mma_s, tSrC, thr_s.partition_fragment_B(sB), acc_s, true);
  };
  // The TMA store of tile t's y (buffer it & 1), by thread 0 after a barrier of the
  // warpgroup: the next tile's barrier (after S' is written; the item's last y after a
  // barrier of its own), one barrier per tile instead of two (probe, session 7: N = 128
  // 0.577 -> 0.561 ms, N = 64 z 0.605 -> 0.558; the N = 128 z kernel since session 11, when
  // the chunk scores freed the registers its coordinates needed: 0.654 -> 0.628).
  auto store_y = [&](int it_of_tile, int t, int h, int b, int slice) {
    Tensor sY = make_tensor(make_smem_ptr(mine.y[kOneBuffer ? 0 : it_of_tile & 1]), typename K::LayoutY{});
    Tensor mY = p.tma_y.get_tma_tensor(make_shape(p.seqlen, p.slices * K::kP, p.heads, p.batch))(_, _, h, b);
    Tensor gY = local_tile(mY, Shape<typename K::TQ, typename K::TP>{}, make_coord(t, slice));
    auto [gy, sy] = tma_partition(p.tma_y, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sY), group_modes<0, 2>(gY));
    copy(p.tma_y, sy, gy);
    tma_store_arrive();
  };
  // The state to rows of `out`, row_stride floats apart. A thread holds pairs of adjacent columns
  // (AccCoord: i and i + 1), stored as one 8-byte access where out and the stride allow it (the
  // split states always; a caller's tensor may start one float off): the 4-byte stores wrote each
  // 32-byte sector in two halves, and a state-pass run spent ~4.2-4.6 us of its ~26-61 us storing
  // its 64 KB (session 58, call 5's timeline, H100).
  auto store_state = [&](float* out, int64_t row_stride) {
    if (((reinterpret_cast<uintptr_t>(out) | uintptr_t(row_stride) * sizeof(float)) & 7) == 0) {
      CUTE_UNROLL
      for (int i = 0; i < size(acc_h); i += 2)
        *reinterpret_cast<float2*>(out + at.row(i) * row_stride + at.col(i)) = make_float2(acc_h(i), acc_h(i + 1));
    } else {
      CUTE_UNROLL
      for (int i = 0; i < size(acc_h); ++i) out[at.row(i) * row_stride + at.col(i)] = acc_h(i);
    }
  };
  int it = 0;
  for (int item = blockIdx.x; item < scheduler.num_items(); item += gridDim.x) {
    const auto work = scheduler.item(item);
    const int b = work.b, split = work.split, tile_begin = work.tile_begin, tiles = work.tiles;
    // The head slice this consumer computes: channels slice * kP .. + kP - 1 of head h, i.e.
    // rows slice * kP .. of the head's P x N state.
    int h, slice;
    scheduler.head_and_slice(work.head_slice(head), h, slice);
    const int64_t state_rows = int64_t(slice) * K::kP;
    const bool writes = head < work.active;  // a spare consumer (see WorkScheduler) writes nothing
    // The stage's decay record and weights of this slice's head (one for both slots when they
    // are one head's slices: the producer prepares it once).
    const int record = kOneHeadDecay && scheduler.one_head(work) ? 0 : head;
    // D x: this thread's y rows are channels 16 warp + g and + 8 of the slice (AccCoord);
    // D per head has D_sp = 0, so both are the head's D.
    const float* D_rows = p.D ? p.D + h * p.D_sh + (state_rows + 16 * at.warp + at.g) * p.D_sp : nullptr;
    const float D_lo = D_rows ? D_rows[0] : 0.f, D_hi = D_rows ? D_rows[8 * p.D_sp] : 0.f;

    // The state, fp32, from the incoming state: the caller's initial state on a sequence's
    // first split, the boundary scan's result on the others (main pass), zero (state pass;
    // in its varlen mode the initial state for sequence 0).
    const float* h_in = nullptr;
    int64_t h_in_sp = K::kN;
    if (kStatePass && scheduler.varlen() && split == 0 && p.initial_states) {
      h_in = p.initial_states + h * p.init_sh + state_rows * p.init_sp;
      h_in_sp = p.init_sp;
    } else if (!kStatePass && split > 0) {
      h_in = fixup_chosen(p.window_tiles, p.fixup_budget)
                 ? nullptr
                 : p.split_states + (((int64_t(b) * p.heads + h) * p.num_splits + split - 1) * p.slices * K::kP + state_rows) * K::kN;
    } else if (!kStatePass && p.initial_states) {
      h_in = p.initial_states + b * p.init_sb + h * p.init_sh + state_rows * p.init_sp;
      h_in_sp = p.init_sp;
    }
    // A branch, not a select per element: the select was predicated, its loads issued at every
    // item's start with or without an incoming state (session 35).
    if (h_in) {
      CUTE_UNROLL
      for (int i = 0; i < size(acc_h); ++i) acc_h(i) = h_in[at.row(i) * h_in_sp + at.col(i)];
    } else {
      CUTE_UNROLL
      for (int i = 0; i < size(acc_h); ++i) acc_h(i) = 0.f;
    }
    if constexpr (!kStatePass && !K::kChunkScores) {
      issue_scores(it);  // the first tile's S
    }
    // (Nothing else is in flight here; without this wait ptxas does not know it and waits in
    // every tile before converting the state, C7517.)
    warpgroup_fence_operand(acc_h);
    warpgroup_wait<0>();
    if constexpr (!kStatePass && !K::kChunkScores) warpgroup_fence_operand(tSrC);
    float split_decay = 1.f;  // product of the tiles' total decays (state pass)
    if constexpr (kStatePass) {
      if (tiles > 0) prepare_state_pair(it, tiles > 1 ? it + 1 : it, tiles > 1);
    }

    // (The state pass steps by pairs of tiles; `it` is corrected after the loop for an odd last.)
    constexpr int kTileStep = kStatePass ? 2 : 1;
    for (int i_tile = 0; i_tile < tiles; i_tile += kTileStep, it += kTileStep) {
      const int t = tile_begin + i_tile, s = it % kStages;
      auto& stage = smem.stage[s];
      if constexpr (kStatePass) {
        // h = T_a T_b h + (X diag(w))^T B over both tiles' B, read as (n, token), from the
        // operands prepared before; the next pair's are prepared while they run.
        const bool b_real = i_tile + 1 < tiles;
        const int s_b = b_real ? (it + 1) % kStages : s;
        const float total = next_total;
        Tensor operand_a = recast<uint32_t>(state_operand_a), operand_b = recast<uint32_t>(state_operand_b);
        CUTE_UNROLL
        for (int i = 0; i < kOperandRegs; ++i) {
          operand_a(i) = next_operand[0][i];
          operand_b(i) = next_operand[1][i];
        }
        split_decay *= total;
        CUTE_UNROLL
        for (int i = 0; i < size(acc_h); ++i) acc_h(i) *= total;
        Tensor sBt_a = make_tensor(make_smem_ptr(stage.b), typename K::LayoutBt{});
        Tensor sBt_b = make_tensor(make_smem_ptr(smem.stage[s_b].b), typename K::LayoutBt{});
        warpgroup_fence_operand(state_operand_a);  // register A operands written before the wgmmas that read them
        warpgroup_fence_operand(state_operand_b);
        wgmma_issue(mma_h, state_operand_a, thr_h.partition_fragment_B(sBt_a), acc_h, false);
        wgmma_issue(mma_h, state_operand_b, thr_h.partition_fragment_B(sBt_b), acc_h, false);
        // (At the item's end spares from this stage, whose waits pass at once: under a run-time
        // branch ptxas let the preparation overwrite the in-flight operands' registers.)
        const int next_a = i_tile + 2 < tiles ? it + 2 : it;
        prepare_state_pair(next_a, i_tile + 3 < tiles ? it + 3 : next_a, i_tile + 3 < tiles);
        warpgroup_wait<0>();
        warpgroup_fence_operand(state_operand_a);
        warpgroup_fence_operand(state_operand_b);
        warpgroup_fence_operand(acc_h);
        Barrier::arrive(&smem.empty[s]);
        Barrier::arrive(b_real ? &smem.empty[s_b] : &smem.spare_arrivals);  // one arrival per stage
      } else {
        // The stage is filled (the main pass waited for it during the previous tile, or for
        // its S at the item's start).
        if (K::kChunkScores && i_tile == 0) Barrier::wait(&smem.full[s], (it / kStages) & 1);
        const auto& decay = stage.decay[record];
        // x is read once, by ldmatrix.trans as X^T (p, token) in the accumulator order, and never
        // written: these registers are the A operand of X^T S'^T, the x of D x, and, scaled by
        // the tokens' weights, the state update's A operand (X diag(w))^T.
        constexpr int kGroups = K::kQ / 16;  // four pairs of a thread's (p, token) registers per group
        const uint32_t x_addr = smem_addr(stage.x[head]);
        Tensor tYrX = make_tensor<Element>(shape(thr_yx_half.partition_A(make_identity_tensor(Shape<typename K::TP, typename K::TQ>{}))));
        Tensor tHrX = make_tensor<Element>(shape(thr_h.partition_A(make_identity_tensor(Shape<typename K::TP, typename K::TQ>{}))));
        // The same registers as pairs (register k: elements 2 k, 2 k + 1; the tensors are
        // compact), as ldmatrix returns and pack / unpack take them: split into 16-bit elements
        // and rejoined for the WGMMA, ptxas kept a shift and a permute per register (sm_90a,
        // CUDA 13.0).
        Tensor tYrX_pairs = recast<uint32_t>(tYrX);
        Tensor tHrX_pairs = recast<uint32_t>(tHrX);
        static_assert(decltype(size(tYrX_pairs))::value == kGroups * 4 && decltype(size(tHrX_pairs))::value == kGroups * 4,
                      "four pairs of x per thread and group");
        auto load_x_transposed = [&] {
          CUTE_UNROLL
          for (int j = 0; j < kGroups; ++j) {
            uint32_t r[4];
            ldmatrix_x4_trans(r, transposed_pairs(x_addr, j));
            CUTE_UNROLL
            for (int m = 0; m < 4; ++m) tYrX_pairs(4 * j + m) = r[m];
          }
        };
        auto scale_state_operand = [&] {
          CUTE_UNROLL
          for (int j = 0; j < kGroups; ++j) {
            // Tokens 16 j + 2 q, + 1 (matrices 0, 1) and 16 j + 8 + 2 q, + 1 (matrices 2, 3).
            const float2 w_lo = *reinterpret_cast<const float2*>(&stage.w[record][16 * j + 2 * at.q]);
            const float2 w_hi = *reinterpret_cast<const float2*>(&stage.w[record][16 * j + 8 + 2 * at.q]);
            scale_by_token_weights<ElementPair>(j, w_lo, w_hi, [&](int k) { return tYrX_pairs(k); },
                                                [&](int k) -> uint32_t& { return tHrX_pairs(k); });
          }
        };
        // h = exp(total) h + (X diag(w))^T B on the stage's own B tile, read as (n, token): the
        // decay first (once h C^T has read the state), then the GEMM. With the state folded
        // (K::kFoldFloor) the producer's factor is 1 except where it refolds: a branch the
        // warpgroup takes together, with no WGMMA reading or writing acc_h in flight.
        auto decay_state = [&] {
          const float factor = decay.total_decay;
          if (K::kFoldFloor >= 1.f || factor != 1.f) {
            CUTE_UNROLL
            for (int i = 0; i < size(acc_h); ++i) acc_h(i) *= factor;
          }
        };
        auto issue_state_update = [&] {
          Tensor sBt = make_tensor(make_smem_ptr(stage.b), typename K::LayoutBt{});
          warpgroup_fence_operand(tHrX);  // register A operand written before the wgmma that reads it
          wgmma_issue(mma_h, tHrX, thr_h.partition_fragment_B(sBt), acc_h, false);
        };

        // The steps of a tile; the two schedules below order them.
        Tensor sC = make_tensor(make_smem_ptr(stage.c), typename K::LayoutBC{});
        Tensor tYrH = make_tensor<Element>(shape(thr_ys.partition_A(make_identity_tensor(Shape<typename K::TP, typename K::TN>{}))));
        Tensor tYsC = thr_ys.partition_fragment_B(sC);
        Tensor acc_y = partition_fragment_C(mma_ys, Shape<typename K::TP, typename K::TQ>{});
        // Y^T = h C^T in two halves of n (k-blocks of 16 per half; a half's registers).
        constexpr int kHalfK = K::kN / 32;
        constexpr int kHalfRegs = decltype(size(tYrH))::value / 2;
        // Half `half` of the state in bf16 registers, then its share of h C^T.
        auto issue_state_readout = [&](auto half) {
          constexpr int kHalf = decltype(half)::value;
          CUTE_UNROLL
          for (int i = kHalf * kHalfRegs; i < (kHalf + 1) * kHalfRegs; ++i) tYrH(i) = Element(acc_h(i));
          warpgroup_fence_operand(tYrH);  // register A operand written before the wgmma that reads it
          wgmma_issue<kHalf * kHalfK, (kHalf + 1) * kHalfK>(mma_ys, tYrH, tYsC, acc_y, kHalf == 0);
        };
        // S = C B^T from the stage (chunk_scores_kernel's output, loaded by TMA) into the
        // accumulator order, by the mirror of store_scores' stmatrix. fp16 tiles are scaled:
        // their inverse scale is applied by the mask, to its factors (mask_scores: ~26
        // multiplies per thread and tile fewer); the factored kernels' bf16 tiles are not
        // (K::kScaledScores). A warp's rows (ScoreRows: blocks w and 7 - w) reach the column groups
        // j <= (7 - w) / 2 only (causal): it reads those and zeroes the rest (N = 256 reads all:
        // the skip's registers make it spill).
        auto load_scores = [&] {
          using ScorePair = sm80::HalfPacking<typename K::CudaScoreElement>;
          const uint32_t chunk_scores_addr = smem_addr(stage.scores);
          CUTE_UNROLL
          for (int j = 0; j < kQ / 16; ++j) {
            uint32_t r[4] = {0u, 0u, 0u, 0u};
            if (K::kLeanSchedule || Rows::reaches(at.warp, j)) ldmatrix_x4(r, chunk_scores_addr + K::scores_offset(lane_row, Rows::col(lane, j)));
            CUTE_UNROLL
            for (int m = 0; m < 4; ++m) {
              const float2 v = ScorePair::unpack(r[m]);
              acc_s(8 * j + 2 * m) = v.x;
              acc_s(8 * j + 2 * m + 1) = v.y;
            }
          }
        };
        auto mask = [&] {
          if constexpr (K::kChunkScores) load_scores();
          warpgroup_fence_operand(acc_s);
          mask_scores<kQ, K::kChunkScores, kMaskPerWarp>(acc_s, decay, tid, K::kScaledScores ? stage.score_inv_scale : 1.f);
        };
        // S' to shared memory in bf16: the B operand of X^T S'^T.
        auto store_scores = [&] {
          CUTE_UNROLL
          for (int j = 0; j < kQ / 16; ++j) {
            uint32_t r[4];
            CUTE_UNROLL
            for (int m = 0; m < 4; ++m) r[m] = ElementPair::pack(acc_s(8 * j + 2 * m), acc_s(8 * j + 2 * m + 1));
            stmatrix_x4(scores_addr + K::scores_offset(lane_row, Rows::col(lane, j)), r);
          }
        };
        // The tile's barrier: S' -> X^T S'^T (and the previous tile's y -> its TMA store).
        auto publish_scores = [&] {
          cutlass::arch::fence_view_async_shared();
          // The store of two tiles back has read the buffer this tile's epilogue writes.
          if (tid == 0) tma_store_wait<0>();
          sync_consumer();
          if (tid == 0 && writes && i_tile > 0) store_y(it - 1, t - 1, h, b, slice);
        };
        // One output buffer: an exact tile stores the previous y before its S' takes the
        // buffer (the store issued before the mask, waited for after it), and its barrier then
        // publishes S' alone. (Three barriers more per exact tile, which only extreme decays
        // and sequence starts take.)
        [[maybe_unused]] auto store_previous_y = [&] {
          cutlass::arch::fence_view_async_shared();
          sync_consumer();  // the previous tile's epilogue has written y
          if (tid == 0 && writes && i_tile > 0) store_y(it - 1, t - 1, h, b, slice);
        };
        [[maybe_unused]] auto await_output_buffer = [&] {
          if (tid == 0) tma_store_wait<0>();
          sync_consumer();  // the store has read the buffer
        };
        [[maybe_unused]] auto publish_scores_only = [&] {
          cutlass::arch::fence_view_async_shared();
          sync_consumer();
        };
        auto retire_state_readout = [&] {
          warpgroup_wait<0>();
          warpgroup_fence_operand(tYrH);
          warpgroup_fence_operand(acc_y);
        };
        // diag(exp(cs)) on h C^T's token columns (registers 4 c .. 4 c + 3 hold columns
        // 8 c + 2 q, + 1), then Y^T += X^T S'^T.
        auto apply_readout = [&] {
          CUTE_UNROLL
          for (int c = 0; c < kQ / 8; ++c) {
            const float2 r = *reinterpret_cast<const float2*>(&decay.readout[8 * c + 2 * at.q]);
            acc_y(4 * c) *= r.x;
            acc_y(4 * c + 1) *= r.y;
            acc_y(4 * c + 2) *= r.x;
            acc_y(4 * c + 3) *= r.y;
          }
        };
        // Y^T += A B^T for the intra-tile term, A a register operand (X^T, or (X diag(w))^T in
        // the factored form) and B the causal 64 x 64 scores' halves of tokens (S' or the chunk
        // scores; MmaYScoresHalf): registers 0 .. 15 of acc_y hold tokens 0 .. 31 (AccCoord),
        // and those see B's k-blocks 0 .. 1 only (zero for j > i).
        auto issue_intra_by_halves = [&](auto& a_operand, const auto& b_lo, const auto& b_hi) {
          warpgroup_fence_operand(a_operand);  // register A operand written before the wgmma that reads it
          using HalfLayout = decltype(partition_fragment_C(mma_yx_half, Shape<typename K::TP, typename K::TQHalf>{}).layout());
          static_assert(cosize_v<HalfLayout> * 2 == decltype(size(acc_y))::value, "two halves of y's registers");
          Tensor acc_y_lo = make_tensor(acc_y.data(), HalfLayout{});
          Tensor acc_y_hi = make_tensor(acc_y.data() + cosize_v<HalfLayout>, HalfLayout{});
          constexpr int kLowerKBlocks = (kQ / 2) / 16;  // B's first kQ / 2 columns, in k-blocks of 16
          wgmma_issue<0, kLowerKBlocks>(mma_yx_half, a_operand, b_lo, acc_y_lo, false);
          wgmma_issue(mma_yx_half, a_operand, b_hi, acc_y_hi, false);
        };
        auto issue_scores_readout = [&] {
          apply_readout();
          issue_intra_by_halves(tYrX, tYsScoresLo, tYsScoresHi);
        };
        // y = (Y + D x) * silu(z) into this tile's sY buffer in bf16, four (p, token) pairs per
        // stmatrix.trans (the 128-byte swizzle makes its 16-byte rows conflict-free; z's tile in
        // the stage has y's layout). z is read K::kEpilogueZAhead groups ahead of its use, a ring
        // of registers whose first groups start_z_ring reads: the factored tile calls it before
        // its readout factors, otherwise the epilogue does (the tag says which); read whole up
        // front, before or after the wait, z spills at N = 128 (16-44 bytes). (D x folded into S'
        // as S'_ii += D, for D per head, made the main pass no faster: probe, session 21 calls
        // 1-2, N = 128 0.4715 -> 0.469 ms, N = 64 0.422 -> 0.435, N = 256 0.796 -> 0.849: its
        // selects outweigh the FFMAs it saves.)
        const uint32_t z_addr = smem_addr(stage.z[head]);
        constexpr int kZAhead = K::kEpilogueZAhead;
        static_assert(kZAhead >= 1 && kZAhead <= kGroups, "z read ahead by 1 .. kGroups groups");
        [[maybe_unused]] uint32_t z_ring[kZAhead][4];
        auto start_z_ring = [&] {
          if constexpr (kGateZ) {
            CUTE_UNROLL
            for (int a = 0; a < kZAhead; ++a) ldmatrix_x4_trans(z_ring[a], transposed_pairs(z_addr, a));
          }
        };
        constexpr std::true_type kZRingStarted{};
        constexpr std::false_type kZRingNotStarted{};
        auto epilogue = [&](auto ring_started) {
          const int y_buf = it & 1;
          const uint32_t y_addr = y_addr0 + (kOneBuffer ? 0 : y_buf) * kYBufferBytes;
          if constexpr (!decltype(ring_started)::value) start_z_ring();
          CUTE_UNROLL
          for (int j = 0; j < kGroups; ++j) {
            uint32_t r[4];
            [[maybe_unused]] uint32_t z2[4];  // (the gated kernel's z group)
            if constexpr (kGateZ) {
              CUTE_UNROLL
              for (int m = 0; m < 4; ++m) z2[m] = z_ring[j % kZAhead][m];
              if (j + kZAhead < kGroups) ldmatrix_x4_trans(z_ring[j % kZAhead], transposed_pairs(z_addr, j + kZAhead));
            }
            CUTE_UNROLL
            for (int m = 0; m < 4; ++m) {
              const int k = 4 * j + m;
              const float D_p = m % 2 ? D_hi : D_lo;  // register 2 k's row: + 8 (k % 2)
              const float2 xv = ElementPair::unpack(tYrX_pairs(k));
              float v0 = acc_y(2 * k) + D_p * xv.x, v1 = acc_y(2 * k + 1) + D_p * xv.y;
              if constexpr (kGateZ) {
                const float2 zv = ElementPair::unpack(z2[m]);
                v0 *= silu_fast(zv.x);
                v1 *= silu_fast(zv.y);
              }
              r[m] = ElementPair::pack(v0, v1);
            }
            stmatrix_x4_trans(transposed_pairs(y_addr, j), r);
          }
        };
        // The next tile's stage (of this item), while the state update runs: with the chunk
        // scores a wait, otherwise the wait and the next S (a spare from this stage on the
        // item's last tile, where the wait passes at once).
        auto next_stage = [&] {
          const int next = i_tile + 1 < tiles ? it + 1 : it;
          if constexpr (K::kChunkScores) {
            Barrier::wait(&smem.full[next % kStages], (next / kStages) & 1);
          } else {
            warpgroup_fence_operand(acc_s);
            issue_scores(next);
          }
        };
        auto retire_all = [&] {
          warpgroup_wait<0>();
          warpgroup_fence_operand(tHrX);
          if constexpr (!K::kChunkScores) warpgroup_fence_operand(tSrC);
          warpgroup_fence_operand(acc_s);
          warpgroup_fence_operand(acc_h);
        };

        // The exact schedule (every tile of the kernels without the factored form; the factored
        // kernels' tiles past its range).
        auto exact_tile = [&] {
          // h C^T's first half runs while S is read and masked, the second (converted after
          // it: 224 registers do not hold the mask's temporaries with the whole operand) is
          // issued after S' is stored, so that the stores drain under its conversion before the
          // fence (probe, session 13: N = 128 0.496 -> 0.492 ms, z 0.611 -> 0.598).
          issue_state_readout(Int<0>{});
          if constexpr (kOneBuffer) store_previous_y();
          mask();
          if constexpr (kOneBuffer) await_output_buffer();
          store_scores();
          issue_state_readout(Int<1>{});
          if constexpr (kOneBuffer) publish_scores_only();
          else publish_scores();
          retire_state_readout();
          load_x_transposed();  // (once the state's bf16 registers are free: 224 do not hold both)
          issue_scores_readout();
          // While X^T S'^T runs: the state's decay and the update's operand, then the update
          // itself (and the next S), in flight while y is computed. Only the WGMMA issue is
          // inside the turn: the decay's multiplies (P N / 128 per thread) and, with the chunk
          // scores, the wait for the next stage come before and after it, so the other consumer
          // is not held.
          decay_state();
          scale_state_operand();
          wait_turn();
          issue_state_update();
          if constexpr (K::kChunkScores) {
            pass_turn();
            next_stage();
          } else {
            next_stage();  // (the next S is part of the turn's batch)
            pass_turn();
          }
          warpgroup_wait<K::kChunkScores ? 1 : 2>();  // X^T S'^T (the state update and next S stay in flight)
          warpgroup_fence_operand(tYrX);
          warpgroup_fence_operand(acc_y);
          if constexpr (kOneBuffer) sync_consumer();  // every warp's X^T S'^T has read S' before y takes the buffer
          epilogue(kZRingNotStarted);
          retire_all();  // the state update (and the next S)
        };
        if constexpr (K::kFactoredScores) {
          // The tile's form (K::kFactoredScores): factored unless the producer marked it exact
          // (factored_scale 0: extreme decay in the tile, or a sequence start), which runs the
          // exact schedule whole. (Session 32's fz4 ran the exact form inside the factored
          // schedule, the same WGMMAs with the operands chosen at run time: fast decays, most
          // tiles exact, read +11.5% (4x the probe's rates) and +22% (8x) against the exact
          // schedule; probe, call 7.)
          const float factored_scale = decay.factored_scale;
          if (factored_scale != 0.f) {
            load_x_transposed();  // (its ldmatrix latency under the state's conversion)
            issue_state_readout(Int<0>{});
            issue_state_readout(Int<1>{});
            publish_scores();  // (the previous tile's y)
            scale_state_operand();  // (X diag(w))^T: the intra GEMM's A operand and the update's
            retire_state_readout();
            CUTE_UNROLL
            for (int i = 0; i < size(acc_y); ++i) acc_y(i) *= factored_scale;  // carried h C^T (1 unless it refolds)
            // Y^T += (X diag(w))^T S^T, S the stage's chunk scores (bf16, as loaded).
            {
              Tensor sChunk = make_tensor(make_smem_ptr(reinterpret_cast<Element*>(stage.scores)), typename K::LayoutScores{});
              issue_intra_by_halves(tHrX,
                                    thr_yx_half.partition_fragment_B(local_tile(sChunk, Shape<typename K::TQHalf, typename K::TQ>{}, make_coord(0, 0))),
                                    thr_yx_half.partition_fragment_B(local_tile(sChunk, Shape<typename K::TQHalf, typename K::TQ>{}, make_coord(1, 0))));
            }
            // Both GEMMs retired before the update (issuing it right behind the intra GEMM,
            // whose operand it shares, was slower: probe, session 32 call 4, R1 8k +2.6%, z +2.8%).
            warpgroup_wait<0>();
            warpgroup_fence_operand(tHrX);
            warpgroup_fence_operand(acc_y);
            decay_state();
            // One output buffer: the previous y's store (issued at this tile's barrier) has read
            // it before the epilogue writes; the turn's barrier tells the other threads.
            if constexpr (kOneBuffer) {
              if (tid == 0) tma_store_wait<0>();
            }
            wait_turn();
            issue_state_update();
            pass_turn();
            // The readout, D x and y while the update runs, then the next stage (the readout
            // before the turn and the next stage before the epilogue read 0.8% slower at R1 8k
            // and 3.8% with z: probe, session 32 call 5).
            // z's first group is read before the readout factors' loads and multiplies, under
            // which its latency passes (probe, session 38 calls A, D, E against the ring started
            // in the epilogue: R1 8k z -0.3 / -0.3 / -0.5%, 512 tokens z -0.3 / -0.3 / -0.4%,
            // 1k z -0.4 / -0.3%, packed z -0.7 / -0.7 / -0.9%, R2's shape z -0.3 / -1.7 / -0.5%;
            // two groups ahead, or x's reload also before the factors: no better).
            start_z_ring();
            apply_readout();
            // x again for D x (held across the GEMMs, its registers made ptxas serialise them).
            load_x_transposed();
            epilogue(kZRingStarted);
            next_stage();
            retire_all();  // the state update
          } else {
            exact_tile();
          }
        } else if constexpr (!K::kLeanSchedule) {
          exact_tile();
        } else {
          // N = 256: the state is 128 of the consumer's registers, so fewer GEMMs are in flight
          // at once (ptxas otherwise serialises every WGMMA, C7512, and spills): the mask
          // before h C^T, whose halves run one after the other, and only the state update
          // under the epilogue.
          mask();
          store_scores();
          issue_state_readout(Int<0>{});
          publish_scores();
          retire_state_readout();
          issue_state_readout(Int<1>{});
          retire_state_readout();
          load_x_transposed();
          issue_scores_readout();
          scale_state_operand();
          static_assert(K::kChunkScores, "the lean schedule reads the chunk scores");
          decay_state();
          issue_state_update();
          next_stage();
          warpgroup_wait<1>();  // X^T S'^T (the state update stays in flight)
          warpgroup_fence_operand(tYrX);
          warpgroup_fence_operand(acc_y);
          epilogue(kZRingNotStarted);
          retire_all();
        }
        Barrier::arrive(&smem.empty[s]);  // this thread is done with the stage (x, B, C, z, decay)
      }  // !kStatePass
    }
    if constexpr (kStatePass) it -= tiles % 2;  // an odd last pair advanced one tile too far
    if constexpr (!kStatePass) {  // the item's last y
      cutlass::arch::fence_view_async_shared();
      sync_consumer();
      if (tid == 0 && writes && tiles > 0) store_y(it - 1, tile_begin + tiles - 1, h, b, slice);
    }

    if constexpr (kStatePass) {
      if (scheduler.varlen()) {
        // Sequence `split`'s final state (an empty one: empty_sequence_states_kernel).
        if (writes && tiles > 0) {
          store_state(p.varlen_states + split * p.var_ss + h * p.var_sh + state_rows * p.var_sp, p.var_sp);
        }
      } else if (writes) {
        // Run `split` is run r of split s: the last run has the split's slot, the others theirs.
        const int s = split / p.state_runs, r = split % p.state_runs;
        const int64_t bh = int64_t(b) * p.heads + h;
        const bool last_run = r == p.state_runs - 1;
        const int64_t slot = last_run ? bh * p.num_splits + s : (bh * (p.num_splits - 1) + s) * (p.state_runs - 1) + r;
        // (Windowed: a run before its window has no state to write, and one clipped by it
        // restarts the chain; split_fixup.h.)
        const bool dead = work.restarts && tiles == 0;
        if (!dead) {
          store_state((last_run ? p.split_states : p.run_states) + (slot * p.slices * K::kP + state_rows) * K::kN, K::kN);
        }
        // The head's decay, the same for every slice.
        if (tid == 0 && slice == 0)
          (last_run ? p.split_decay : p.run_decay)[slot] = dead ? kDeadRun : work.restarts ? kRestartRun : split_decay;
      }
    } else if (writes && p.final_states && (split == p.num_splits - 1 || p.fin_ss != 0)) {
      // (With more than one split, split_fixup.h: every split's end state, into its slot of the
      // end states, which final_states then points to with fin_ss per split.)
      store_state(p.final_states + b * p.fin_sb + h * p.fin_sh + split * p.fin_ss + state_rows * p.fin_sp, p.fin_sp);
    }
  }  // work items
  if (head == 0) wait_turn();  // consumer 1's last pass_turn: no arrival left pending at exit
  if (!kStatePass && tid == 0) tma_store_wait<0>();  // sY must stay valid until the last store has read it
}

}  // namespace flashssd::sm90
