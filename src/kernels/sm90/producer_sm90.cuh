// The Hopper forward's producer warpgroup (SsdFwdRoles::producer): thread 0 issues the TMA
// loads of a tile's x and z (per head slice), B and C (and the chunk scores) into the next
// free stage; every thread loads the dt of one token of one slot's head (a round ahead) and
// computes that token's decay factors (segsum.cuh) into the same stage, so the consumers
// never wait on a scan or a global load. The state pass's producer publishes the tokens' a
// and dt only (its consumers compute their weights).
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/arch/reg_reconfig.h>

#include "kernels/common/dt.cuh"
#include "kernels/common/segsum.cuh"
#include "kernels/sm90/ssd_fwd_sm90_roles.cuh"

namespace flashssd::sm90 {

using namespace cute;

template <class K, bool kGateZ, bool kStatePass>
__device__ __forceinline__ void SsdFwdRoles<K, kGateZ, kStatePass>::producer(const Params& p, SharedStorage& smem,
                                                                             const Scheduler& scheduler, int wtid) {
  cutlass::arch::warpgroup_reg_dealloc<K::kProducerRegs>();
  const int tok_in_tile = wtid % kQ;
  auto sync_producer = [] { NamedBarrier::sync(kWG, K::kProducerBarrier); };
  // The producer's loop, compiled twice: with packed sequences (reset flags) and without, so
  // that the plain loop carries no trace of the reset (probe, session 8: a run-time check
  // in the shared loop cost the N = 64 kernel 10%, the producer being close to its
  // critical path there).
  auto produce = [&](auto packed_tag) {
    constexpr bool kPacked = decltype(packed_tag)::value;
    int it = 0;
    for (int item = blockIdx.x; item < scheduler.num_items(); item += gridDim.x) {
      const auto work = scheduler.item(item);
      const int b = work.b, grp = work.grp, tile_begin = work.tile_begin, tiles = work.tiles;
      // This thread's head slot (two heads: one per half of the warpgroup; one head: the
      // second half is prepare_tile_decay's role 1 and reads no dt) and its per-item constants.
      const int slot = min(wtid / kQ, kHeads - 1), hd = scheduler.head_of_slice(work.head_slice(slot));
      // One head in both slots (kOneHeadDecay): its decay once, in the one-head form further down,
      // whose second half (role 1) reads no dt.
      const bool one_head = kOneHeadDecay && scheduler.one_head(work);
      const bool reads_dt = kHeads == 2 ? !one_head || wtid < kQ : wtid < kQ;
      const float A_h = p.A[hd * p.A_s], bias = p.dt_bias ? p.dt_bias[hd * p.dt_bias_s] : 0.f;
      // Raw dt of the thread's token, loaded one tile ahead so that its latency overlaps the
      // previous tile's work; held as loaded (bits: 16-bit dt converted when used, or the
      // conversion would wait for the load at once; 0 bits are 0 in every type).
      // Whether the thread's token of the item's tile i has a dt, and its element offset. (Kept
      // apart: one offset with -1 for "none", session 21's form, measured 1-2% slower at
      // N = 256 and with packed sequences: probe, session 22 calls 1-2.)
      auto has_dt = [&](int i) { return reads_dt && i < tiles && (tile_begin + i) * kQ + tok_in_tile < p.seqlen; };
      auto dt_offset = [&](int i) {
        return b * p.dt_sb + int64_t((tile_begin + i) * kQ + tok_in_tile) * p.dt_st + hd * p.dt_sh;
      };
      auto load_raw_dt = [&](int i) { return has_dt(i) ? load_dt_bits(p.dt, p.dt_type, dt_offset(i)) : 0u; };
      // With packed sequences (main pass, N = 64 and 256, with z or without) dt's line is also
      // asked of L2 three tiles ahead, so that the load a tile ahead finds it there: the
      // packed producer, which also reads the reset flags, paces those kernels (probe, 4
      // documents per row, session 34: without it N = 64 +12.0%, N = 256 +10.6%, call 3; with
      // it in the z kernels, their flags loaded ahead, N = 64 z -5.1%, N = 256 z -5.6%, call
      // 5). Not at N = 128 since its flag's load left the producer's path (call 3: -1.4%, 16
      // documents per row -1.7%; with z, call 5: no change), nor elsewhere (it cost more than
      // it saved, session 20 calls 5-6).
      constexpr bool kPrefetchDt = kPacked && !kStatePass && K::kN != 128;
      constexpr int kDtPrefetchTiles = 3;
      [[maybe_unused]] auto prefetch_dt = [&](int i) {
        if (has_dt(i)) prefetch_dt_l2(p.dt, p.dt_type, dt_offset(i));
      };
      // Packed sequences: a token that starts one (its reset flag) gets the log-decay
      // a = -inf. exp(a) = 0 then resets the state exactly where the recurrence does, and
      // zeroes every mask entry and readout factor across the boundary. The hierarchical
      // factors (segsum.cuh) are ascending sums of one sign and products of factors in
      // [0, 1], so -inf flows through them without a NaN (no -inf - -inf, no 0 * inf).
      // The flag is loaded ahead, as dt is, in every kernel, and held as loaded (its byte, 0
      // where there is none) until it is compared where used: held as a bool, the compare sat
      // right behind the load and the producer waited there for it (ncu, session 33 call 8:
      // 2.4% of the packed kernel's samples, its producer pacing it). Probe, 4 documents per
      // row, against reading it when used: session 33 calls 9-10, N = 128 -7.5%, N = 64
      // -7.1%, N = 256 -8.8%; with z (then without the fold) N = 128 +0.8%, N = 64 -0.4%;
      // session 34 call 5 (the packed N = 128 z kernel folding its state): N = 128 z -5.2%,
      // 16 documents per row -4.5%. (Session 9 measured N = 64 and the z kernel slower with
      // it, the flag then held as a bool.)
      auto load_flag = [&](int i) -> uint32_t {
        const int tok = (tile_begin + i) * kQ + tok_in_tile;
        return kPacked && i < tiles && reads_dt && tok < p.seqlen
                   ? uint32_t(p.reset_flags[int64_t(b) * p.seqlen + tok])
                   : 0u;
      };
      // The producer fills kRound stages per round: the main pass one, its decay factors
      // between one pair of barriers (segsum.cuh); the state pass two (its tiles are short:
      // while its producer computed their weights it set their pace, session 10; it now
      // publishes a and dt only). dt (and the prefetched flags) are loaded a round ahead.
      constexpr int kRound = kStatePass && kHeads == 2 ? 2 : 1;
      static_assert(kStages >= 2 * kRound || kRound == 1,
                    "the producer fills a round of stages while the consumers read the previous round");
      // dt (and the flags) are loaded kDtDepth rounds ahead into a ring of registers that the
      // loop below walks unrolled by its depth, so a slot is always a compile-time index (a
      // ring shifted by moves waits for the load at the move: session 20 call 3).
      constexpr int kDtDepth = kStatePass ? K::kStateDtDepth : K::template kMainDtDepth<kGateZ>;
      static_assert(kDtDepth == 1 || kDtDepth == 2, "dt one or two rounds ahead");
      constexpr int kAhead = kDtDepth * kRound;  // tiles between a load and its use
      uint32_t raw_ahead[kDtDepth][kRound];
      uint32_t flag_ahead[kDtDepth][kRound];
      CUTE_UNROLL
      for (int d = 0; d < kDtDepth; ++d) {
        CUTE_UNROLL
        for (int k = 0; k < kRound; ++k) {
          raw_ahead[d][k] = load_raw_dt(d * kRound + k);
          flag_ahead[d][k] = load_flag(d * kRound + k);
        }
      }
      if constexpr (kPrefetchDt) {
        for (int i = kAhead; i < kDtPrefetchTiles; ++i) prefetch_dt(i);
      }
      // The state pass's varlen mode: only the item's sequence [begin, end) counts; the
      // other tokens of its tiles neither add to the state (dt = 0) nor decay it (a = 0).
      int varlen_begin = 0, varlen_end = 0;
      if (scheduler.varlen()) {
        varlen_begin = scheduler.tok_begin(work.split);
        varlen_end = scheduler.tok_end(work.split);
      }
      // The head and 64-channel slice of each slot's x and z tiles (per item, not per tile).
      int head_of[kHeads], slice_of[kHeads];
      CUTE_UNROLL
      for (int k = 0; k < kHeads; ++k) {
        scheduler.head_and_slice(work.head_slice(k), head_of[k], slice_of[k]);
      }
      // The main pass's state fold (K::kFoldFloor): G, the product of the total decays of
      // this head's tiles since the item's start or the last refold. A tile that starts a
      // packed sequence has total 0 and refolds (G restarts at 1). Not in the packed N = 64
      // kernels, whose producer paces them: there the consumers multiply by each tile's total
      // decay. (Session 21 call 1: the fold cost packed N = 128 +2.8% while the reset flag's
      // load sat on the producer's path; since it left it, session 33 call 11: N = 128
      // -1.7..-2.0%, with z -1.0%, N = 64 +1.5%.)
      constexpr bool kFoldState = !kStatePass && (!kPacked || K::kN == 128) && K::kFoldFloor < 1.f;
      // The tile's total decay is needed here to fold and to factor (packed tiles too).
      constexpr bool kTileTotal = kFoldState || (!kStatePass && K::kFactoredScores);
      [[maybe_unused]] float fold = 1.f;
      // Tiles i0 .. i0 + kTiles - 1 of the item (kTiles <= kRound; the item's last round may
      // be short), into the next kTiles stages.
      auto produce_round = [&](auto tiles_tag, auto ring_tag, int i0) {
        constexpr int kTiles = decltype(tiles_tag)::value, kSlot = decltype(ring_tag)::value;
        float dt[kTiles], a[kTiles];
        CUTE_UNROLL
        for (int k = 0; k < kTiles; ++k) {
          const int i = i0 + k, t = tile_begin + i;
          const bool valid = reads_dt && t * kQ + tok_in_tile < p.seqlen;
          dt[k] = valid ? process_dt(dt_from_bits(raw_ahead[kSlot][k], p.dt_type), bias, p.dt_softplus, p.dt_lo, p.dt_hi) : 0.f;  // 0 past T
          raw_ahead[kSlot][k] = load_raw_dt(i + kAhead);
          if constexpr (kPrefetchDt) prefetch_dt(i + kDtPrefetchTiles);
          a[k] = dt[k] * A_h;
          if constexpr (kPacked) {
            a[k] = flag_ahead[kSlot][k] != 0u ? -INFINITY : a[k];
            flag_ahead[kSlot][k] = load_flag(i + kAhead);
          }
          if constexpr (kStatePass) {
            const int tok = t * kQ + tok_in_tile;
            if (scheduler.varlen() && (tok < varlen_begin || tok >= varlen_end)) dt[k] = a[k] = 0.f;
          }
        }
        decltype(&smem.stage[0].decay[0]) decay[kTiles];
        [[maybe_unused]] float score_inv[kTiles];  // (main pass, thread 0: loaded here, stored after the decay factors)
        CUTE_UNROLL
        for (int k = 0; k < kTiles; ++k) {
          const int t = tile_begin + i0 + k, s = (it + k) % kStages;
          Barrier::wait(&smem.empty[s], (((it + k) / kStages) & 1) ^ 1);  // passes at once on the first round
          auto& stage = smem.stage[s];
          decay[k] = stage.decay;
          if (wtid == 0) {
            Barrier::arrive_and_expect_tx(&smem.full[s], K::tx_bytes(!kStatePass, kGateZ));
            Tensor mB = p.tma_b.get_tma_tensor(make_shape(p.seqlen, int(K::kN), p.groups, p.batch))(_, _, grp, b);
            Tensor sB = make_tensor(make_smem_ptr(stage.b), typename K::LayoutBC{});
            Tensor gB = local_tile(mB, Shape<typename K::TQ, typename K::TN>{}, make_coord(t, 0));
            auto [gb, sb] = tma_partition(p.tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
            copy(p.tma_b.with(smem.full[s]), gb, sb);
            if constexpr (!kStatePass) {
              Tensor mC = p.tma_c.get_tma_tensor(make_shape(p.seqlen, int(K::kN), p.groups, p.batch))(_, _, grp, b);
              Tensor sC = make_tensor(make_smem_ptr(stage.c), typename K::LayoutBC{});
              Tensor gC = local_tile(mC, Shape<typename K::TQ, typename K::TN>{}, make_coord(t, 0));
              auto [gc, sc] = tma_partition(p.tma_c, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sC), group_modes<0, 2>(gC));
              copy(p.tma_c.with(smem.full[s]), gc, sc);
            }
            if constexpr (!kStatePass && K::kChunkScores) {
              const int score_rows = p.batch * p.groups * p.score_tiles * kQ;
              Tensor mS = p.tma_scores.get_tma_tensor(make_shape(score_rows, int(kQ)));
              Tensor sS = make_tensor(make_smem_ptr(stage.scores), typename K::LayoutChunkScores{});
              Tensor gS = local_tile(mS, Shape<typename K::TQ, typename K::TQ>{},
                                     make_coord((b * p.groups + grp) * p.score_tiles + t, 0));
              auto [gs, ss] = tma_partition(p.tma_scores, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sS), group_modes<0, 2>(gS));
              copy(p.tma_scores.with(smem.full[s]), gs, ss);
              if constexpr (K::kScaledScores) score_inv[k] = __ldg(&p.score_inv_scales[(b * p.groups + grp) * p.score_tiles + t]);
            }
            CUTE_UNROLL
            for (int h = 0; h < kHeads; ++h) {
              const int head_h = head_of[h], slice_h = slice_of[h];
              Tensor mX = p.tma_x.get_tma_tensor(make_shape(p.slices * K::kP, p.seqlen, p.heads, p.batch))(_, _, head_h, b);
              Tensor sX = make_tensor(make_smem_ptr(stage.x[h]), typename K::LayoutX{});
              Tensor gX = local_tile(mX, Shape<typename K::TP, typename K::TQ>{}, make_coord(slice_h, t));
              auto [gx, sx] = tma_partition(p.tma_x, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sX), group_modes<0, 2>(gX));
              copy(p.tma_x.with(smem.full[s]), gx, sx);
              if constexpr (kGateZ) {
                Tensor mZ = p.tma_z.get_tma_tensor(make_shape(p.seqlen, p.slices * K::kP, p.heads, p.batch))(_, _, head_h, b);
                Tensor sZ = make_tensor(make_smem_ptr(stage.z[h]), typename K::LayoutY{});
                Tensor gZ = local_tile(mZ, Shape<typename K::TQ, typename K::TP>{}, make_coord(t, slice_h));
                auto [gz, sz] = tma_partition(p.tma_z, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sZ), group_modes<0, 2>(gZ));
                copy(p.tma_z.with(smem.full[s]), gz, sz);
              }
            }
          }
        }
        // The decay factors; the state pass's consumers compute their weights themselves from
        // a and dt (a warp's scan, sm80::tile_weights_warp; session 10 measured the
        // hierarchical factors' chain setting the state pass's pace, and a warp scan here
        // per half tile was slower than in the consumers: R4's state pass 386 -> 418 us
        // under ncu, session 17 calls 2 and 4).
        [[maybe_unused]] float w[kTiles];
        [[maybe_unused]] float total = 1.f;  // the tile's total decay (main pass)
        // Whether the tile takes the exact schedule, from its total decay: the fold's test below
        // (factored_scale 0). Only those tiles' consumers read the mask's fields of the record
        // (the pair form's test where the kernel has the factored form).
        [[maybe_unused]] auto exact_schedule = [&](float tile_total) {
          const float carried = fold * tile_total;
          const bool refold = !kFoldState || !(carried >= K::kFoldFloor) || i0 + 1 == tiles;
          return refold && !(tile_total >= K::kFactoredTileDecay && carried >= K::kFactoredCarried);
        };
        if constexpr (kStatePass) {
          CUTE_UNROLL
          for (int k = 0; k < kTiles; ++k) {
            if (reads_dt) {
              decay[k][slot].a[tok_in_tile] = a[k];
              decay[k][slot].dt[tok_in_tile] = dt[k];
            }
          }
        } else if constexpr (kHeads == 2) {
          // Each step as narrow as what it publishes (segsum.cuh): a block is one warp's
          // lanes, a head two warps.
          struct PairSync {
            __device__ __forceinline__ void tokens() const { __syncwarp(); }
            __device__ __forceinline__ void totals(int hd) const { NamedBarrier::sync(kQ, K::kProducerHeadBarrier0 + hd); }
          };
          static_assert(kTiles == 1, "the main pass: a tile per round");
          if (one_head)  // (role 0: slot 0's tokens; role 1 writes no weight: reads_dt is false there)
            w[0] = sm80::prepare_tile_decay<SegsumVariant::kHierarchical, kQ>(decay[0][0], wtid, a[0], dt[0], sync_producer,
                                                                               fold, kTileTotal ? &total : nullptr);
          else if constexpr (K::kFactoredScores && kTileTotal)
            w[0] = sm80::prepare_tile_decay_pair<kQ>(decay[0], wtid, a[0], dt[0], PairSync{}, fold, &total, exact_schedule);
          else  // (every tile exact: the mask's fields always)
            w[0] = sm80::prepare_tile_decay_pair<kQ>(decay[0], wtid, a[0], dt[0], PairSync{}, fold, kTileTotal ? &total : nullptr);
        } else {
          static_assert(kTiles == 1, "one head: a tile per round");
          w[0] = sm80::prepare_tile_decay<SegsumVariant::kHierarchical, kQ>(decay[0][0], wtid, a[0], dt[0], sync_producer,
                                                                             fold, kTileTotal ? &total : nullptr);
        }
        if constexpr (kTileTotal) {
          // (exact_schedule above is this test's outcome, taken from the same total.)
          // The readout factors took G (the state before this tile is G g); what the state
          // would carry after it is G total: kept, the weights take its inverse; under the
          // floor (or on the item's last tile, so that the final state is h) the consumers
          // multiply their state by it instead, and G restarts at 1. (!(>=): a NaN refolds.)
          // The packed N = 64 kernels do not fold: every tile multiplies (G = 1).
          // With the factored intra-tile term (K::kFactoredScores) a refold tile keeps it
          // within kFactoredTileDecay and kFactoredCarried: its readout divided by carried
          // (relative to its end, as its weights are), carried the multiplier of h C^T
          // (factored_scale); 0 there marks the exact form.
          const float carried = fold * total;
          const bool refold = !kFoldState || !(carried >= K::kFoldFloor) || i0 + 1 == tiles;
          if (refold) {
            const bool factored = K::kFactoredScores && total >= K::kFactoredTileDecay && carried >= K::kFactoredCarried;
            if (tok_in_tile == 0 && reads_dt) {
              decay[0][slot].total_decay = carried;
              decay[0][slot].factored_scale = factored ? carried : 0.f;
            }
            // (each thread rescales the readout factor it wrote: its token's, its head's record)
            if (factored && reads_dt) decay[0][slot].readout[tok_in_tile] = __fdividef(decay[0][slot].readout[tok_in_tile], carried);
            fold = 1.f;
          } else {
            if (tok_in_tile == 0 && reads_dt) decay[0][slot].total_decay = decay[0][slot].factored_scale = 1.f;
            w[0] = __fdividef(w[0], carried);
            fold = carried;
          }
        }
        CUTE_UNROLL
        for (int k = 0; k < kTiles; ++k) {
          const int s = (it + k) % kStages;
          if (!kStatePass && reads_dt) smem.stage[s].w[slot][tok_in_tile] = w[k];
          if constexpr (!kStatePass && K::kScaledScores) {
            if (wtid == 0) smem.stage[s].score_inv_scale = score_inv[k];
          }
          Barrier::arrive(&smem.full[s]);  // releases this thread's decay writes
        }
        it += kTiles;
      };
      // Rounds by the ring's depth; then the item's last rounds (fewer than kDtDepth, the last
      // possibly one odd tile), whose ring slots follow on from the loop's.
      int i0 = 0;
      for (; i0 + kAhead <= tiles; i0 += kAhead) {
        produce_round(Int<kRound>{}, Int<0>{}, i0);
        if constexpr (kDtDepth == 2) produce_round(Int<kRound>{}, Int<1>{}, i0 + kRound);
      }
      [[maybe_unused]] bool full_last = false;  // (depth 2) one more full round, ring slot 0
      if constexpr (kDtDepth == 2) {
        if (i0 + kRound <= tiles) {
          produce_round(Int<kRound>{}, Int<0>{}, i0);
          i0 += kRound;
          full_last = true;
        }
      }
      if constexpr (kRound > 1) {  // the item's odd last tile, in the slot after the last round's
        if (i0 < tiles) {
          if (full_last) produce_round(Int<1>{}, Int<kDtDepth - 1>{}, i0);
          else produce_round(Int<1>{}, Int<0>{}, i0);
        }
      }
    }
  };
  if (p.reset_flags) produce(std::true_type{});
  else produce(std::false_type{});
}

}  // namespace flashssd::sm90
