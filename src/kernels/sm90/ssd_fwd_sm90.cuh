// The Hopper forward (issue 5): every GEMM of the SSD tile on WGMMA, operands loaded
// by TMA into 128-byte swizzled tiles, warp-specialised, persistent. Launched by
// ssd_fwd_sm90_launch.cuh (ssd_forward's dispatch on sm_90a); tested directly by
// tests/gpu/test_sm90_forward.cu and through the API by the GPU suites; timed directly by
// bench/sm90_forward_probe.cu. docs/HOPPER_PLAN.md has its measurements.
//
// One CTA walks work items (batch, split, pair of head slices of one group: a head slice is
// 64 channels of a head) with three warpgroups:
//   producer   warpgroup 0: thread 0 issues the TMA loads of x and z (per slice), B and C
//              (shared by the heads of the group) into a kStages-deep mbarrier pipeline;
//              thread i loads the dt of token i % 64 of slot i / 64's head and computes that
//              token's decay factors (segsum.cuh) into the same stage, so the consumers
//              never wait on a scan or a global load (the state pass: the token's a and dt,
//              from which its consumers' warps compute the weights);
//   consumers  warpgroups 1 .. kHeadsPerCta, one head slice each, walk the sequence in tiles
//              of 64 tokens and carry the 64 x N state as a WGMMA accumulator; the two take
//              turns issuing their state update (+ next S) (ping-pong). Per tile (as the
//              sm80 kernel, DESIGN.md section 3), with the output computed transposed,
//              Y^T (p, token), so that the state and x serve as register A operands:
//   S  = C B^T                           N = 128, 256: the chunk scores, once per group
//                                        and tile before the main pass (mma.sync,
//                                        chunk_scores_sm90.cuh), loaded with the stage
//                                        by TMA; N = 64: RS WGMMA (64 x 64 x N, C read by
//                                        ldmatrix in the rows that share the mask evenly
//                                        over the warps) during the previous tile
//   Y^T = h C^T diag(exp(cs))            RS WGMMA (P x 64 x N): the state from its own
//                                        accumulator, in bf16 (no shared-memory copy)
//   S' = S o L o dt                      segsum.cuh's mask on the accumulator, while h C^T
//                                        runs; to shared memory in bf16 (8 KB)
//   Y^T += X^T S'^T                      RS WGMMA (P x 64 x 64): X^T in registers by
//                                        ldmatrix.trans of the x tile; by halves of the
//                                        tokens, the first over S''s first 32 columns only
//   h  = exp(total) h + (X diag(w))^T B  RS WGMMA (P x N x 64), w = dt exp(a_{j+1..end}):
//                                        the same registers scaled by the tokens' weights;
//                                        runs with the epilogue (and the next S). bf16,
//                                        N <= 128, not packed: h carried as h / G (G the
//                                        running decay, in the readout factors and weights),
//                                        so exp(total) h is a multiply only at a refold
//                                        (K::kFoldFloor)
//   y  = (Y + D x) * silu(z)             to shared memory (two buffers) by stmatrix.trans,
//                                        then a TMA store (partial tiles clipped by TMA)
// Options served: D (per head or per channel), z, initial and final states, dt bias /
// softplus / limits, packed sequences (seq_idx and cu_seqlens: the producer gives a token that
// starts a sequence the log-decay -inf, see below; the per-sequence final states of cu_seqlens
// come from the state pass run over each sequence), split sequences, any number of heads per
// group; bf16 or fp16 x, B, C, z, y (template parameter; the WGMMAs take the same type and
// accumulate in fp32); N in {64, 128, 256} (template parameter; N = 256 with one consumer
// per CTA and the lean tile schedule, registers being short); any head dim P that is a
// multiple of kP = 64 (the dispatch allows 64 and 128): the slices of a head are
// independent SSDs sharing the head's decay, so P = 128 puts a head's two slices side by
// side in one CTA.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/arch/reg_reconfig.h>
#include <cutlass/cutlass.h>
#include <cutlass/fast_math.h>

#include "kernels/common/cu_seqlens.cuh"
#include "kernels/common/dt.cuh"
#include "kernels/common/kernel_params.h"
#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/programmatic_launch.cuh"
#include "kernels/common/segsum.cuh"
#include "kernels/sm90/chunk_scores_sm90.cuh"

namespace flashssd::sm90 {

using namespace cute;

// Element: cutlass::bfloat16_t or cutlass::half_t (x, B, C, z, y and the WGMMA operands).
template <int kP_, int kN_, int kHeadsPerCta_ = 2, class Element_ = cutlass::bfloat16_t>
struct SsdFwdSm90 {
  using Element = Element_;
  static_assert(std::is_same_v<Element, cutlass::bfloat16_t> || std::is_same_v<Element, cutlass::half_t>,
                "the Hopper forward is built for bf16 and fp16");
  // The CUDA type of the same bits, for the packed-pair conversions (sm80::HalfPacking).
  using CudaElement = std::conditional_t<std::is_same_v<Element, cutlass::bfloat16_t>, __nv_bfloat16, __half>;
  static constexpr int kP = kP_, kN = kN_, kQ = 64, kHeadsPerCta = kHeadsPerCta_;
  static_assert(kHeadsPerCta == 1 || kHeadsPerCta == 2, "the producer prepares one or two heads per stage");
  static constexpr int kWarpgroupThreads = 128, kThreads = kWarpgroupThreads * (1 + kHeadsPerCta);
  // Registers per thread after setmaxnreg: the consumers hold the state (P N / 128 floats),
  // two 64 x 64 accumulators and the epilogue's operands, the producer a token's decay
  // chains.
  // ptxas -v reports no spill at this split (cmake/ptxas_guard.sh checks it on every build;
  // the producer's per-token decay chains need more than 40, the consumers fit in 224).
  static constexpr int kProducerRegs = 48, kConsumerRegs = kHeadsPerCta == 2 ? 224 : 248;
  // N = 256 (one consumer per CTA): the state takes 128 of the consumer's 248 registers, so
  // the main pass keeps fewer GEMMs in flight (the lean schedule in ssd_fwd_sm90_kernel).
  static constexpr bool kLeanSchedule = kN == 256;
  // The per-item prologue shortened (it was ~4% of R1's samples at 512 tokens, 8 tiles per
  // item): WorkScheduler divides by precomputed divisors (Params::head_sets_div...), and the
  // consumers branch around the incoming state's loads. Probe (session 35 calls 6-7): 512
  // tokens -2.4%, with z -2.6%, R3 z -3.4%; but the long rows' register allocation moved, R1
  // 8k +0.3..0.6%, 16k +1.1%. Not at N = 256, whose gated kernel then spilled 4 bytes.
  static constexpr bool kShortItemPrologue = kN != 256;
  // How many groups (16 tokens) ahead the gated epilogue reads z. ldmatrix and stmatrix are
  // volatile asm, kept in program order: read right before its use, as until session 37, each
  // group's z load waited its whole latency behind the previous group's stmatrix (the stall
  // table, call J: short-scoreboard waits at z's unpacks). Probe, session 37 calls L-M, one
  // group ahead against none: R1 8k z -1.7 / -2.1%, 512 tokens -1.2 / -0.9%, 2k -1.5%, 16k
  // -1.8 / -1.6%, packed -0.9 / -1.0%, R2's shape z -0.9 / -1.7%, every tile exact (decays 8x)
  // -4.0%, N = 256 z -4.6%, N = 64 z (R3's shape) -0.1 / +0.5%; two ahead: N = 256 z -6.4%,
  // but R1 8k z -1.8%, packed -0.2%, R2's shape z -1.0%.
  static constexpr int kEpilogueZAhead = kN == 256 ? 2 : 1;
  // Where S = C B^T comes from: at N = 128 and 256 the chunk scores, computed once per group
  // and tile before the main pass (chunk_scores_sm90.cuh) and loaded with the stage; at
  // N = 64 each consumer's own WGMMA during the previous tile, since loading it made the
  // N = 64 kernel no faster (probe, session 11: 0.458 -> 0.454 ms, z 0.573 -> 0.577) and the
  // pre-pass would only add its bytes (R3: +16 us).
  static constexpr bool kChunkScores = kN != 64;
  // How many producer rounds ahead dt (and the reset flags) are loaded. The state pass: two
  // (four tiles; probe, session 26 call 1: R4's state pass 0.2997 -> 0.2976 ms, R1 32k's 0.1106
  // -> 0.1091, at N = 64 0.2819 -> 0.2506). The main pass: one (two: R1 8k 0.448 -> 0.465,
  // packed 0.466 -> 0.496, N = 64 +0.8%; its producer then spills).
  static constexpr int kStateDtDepth = 2, kMainDtDepth = 1;
  // The main pass carries its state divided by G, the product of the tiles' total decays
  // since the last refold (h = G g), so that a tile's update needs no multiply of the
  // accumulator: the producer puts G into the readout factors and 1 / G into the weights,
  // and refolds (the consumers multiply their state by G, G = 1) when G would fall under
  // kFoldFloor and on an item's last tile. The floor costs range: g and the readout g C^T are
  // up to 1 / floor times h and h C^T in fp32, so the kernel stays finite while those stay
  // under 2^128 * floor = 2^64 (the plain recurrence: 2^128). At 2^-100 the headroom was
  // 2^28, which the states of inputs ~1000 pass (tests/gpu: Sm90Forward.LargeStatesWithRefolds,
  // Inf in y at 2^-100: session 22 call 1). bf16 holds g and the weights (<= dt / floor) in its range;
  // fp16 does not, so it keeps the plain recurrence (floor 2: every tile refolds, and the
  // consumers multiply without a branch). Probe, API's dt, session 21 call 2 (floor 2^-100):
  // R1 8k 0.4715 -> 0.462 ms, 512 tokens 0.628 -> 0.619, z 0.5815 -> 0.575, N = 64 0.422 ->
  // 0.417 (the default decays refold every ~8 tiles at 2^-100, ~5 at 2^-64: call 6). N = 256
  // keeps the plain recurrence too: there the consumers' branch spills 8 bytes (248
  // registers; with the spill it measured 0.796 -> 0.779).
  static constexpr float kFoldFloor = std::is_same_v<Element, cutlass::bfloat16_t> && !kLeanSchedule ? 0x1p-64f : 2.f;
  static_assert(!kLeanSchedule || kHeadsPerCta == 1, "N = 256 runs one head slice per CTA (registers, shared memory)");
  // What __launch_bounds__(kThreads, 1) leaves each thread at launch (multiples of 8, <= 255).
  static constexpr int kLaunchRegs = (65536 / kThreads < 255 ? 65536 / kThreads : 255) / 8 * 8;
  static_assert(128 * (kProducerRegs + kHeadsPerCta * kConsumerRegs) <= kLaunchRegs * kThreads,
                "setmaxnreg would ask for more registers than the launch holds");
  // Work items per (batch, split): each group's heads in sets of kHeadsPerCta, the last set
  // possibly short (WorkScheduler). The launcher sizes its grid with it.
  static constexpr CUTE_HOST_DEVICE int head_sets(int heads, int groups) {
    return groups * ((heads / groups + kHeadsPerCta - 1) / kHeadsPerCta);
  }
  // Named barriers, as cutlass::arch::NamedBarrier ids (it adds ReservedNamedBarrierCount, 8,
  // to each: hardware ids 0-7 are CUTLASS's own, 0 is __syncthreads): the producer warpgroup,
  // one per consumer, the consumers' turns to issue their state update (+ next S)
  // (kIssueTurn0 + consumer), then the producer's per-head barriers of its two-head form
  // (kProducerHeadBarrier0 + head). With two heads per CTA they take hardware ids 9-15, the
  // last one there is.
  static constexpr int kProducerBarrier = 1, kConsumerBarrier0 = 2, kIssueTurn0 = kConsumerBarrier0 + kHeadsPerCta,
                       kProducerHeadBarrier0 = kIssueTurn0 + 2;
  static_assert(cutlass::arch::NamedBarrier::ReservedNamedBarrierCount + kProducerHeadBarrier0 + 2 <=
                    cutlass::arch::NamedBarrier::HardwareMaxNumNamedBarriers,
                "Hopper has 16 named barriers per CTA");
  using TQ = Int<kQ>;
  using TP = Int<kP>;
  using TN = Int<kN>;

  // Shared-memory tiles (WGMMA's 128-byte swizzle atoms). x is stored p-contiguous, as TMA
  // loads it (the consumers read it by ldmatrix.trans; WGMMA never reads it from here).
  using LayoutX = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<Element>{}, Shape<TP, TQ>{}));   // (p, token)
  using LayoutBC = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, Shape<TQ, TN>{}));   // (token, n)
  // The B tile seen as (n, token), MN-major: the same bytes as LayoutBC (atoms ordered token
  // first), so the state update reads the stage's B tile in place (tests/cpu checks the aliasing).
  using LayoutBt = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<Element>{}, Shape<TN, TQ>{}, Step<_2, _1>{}));
  using LayoutY = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, Shape<TQ, TP>{}));    // (token, p)
  // The masked scores S' (token i, token j), j contiguous: the K-major B operand of X^T S'^T.
  using LayoutScores = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, Shape<TQ, TQ>{}));
  // The chunk scores S = C B^T (token i, token j), j contiguous, computed before the main pass
  // by chunk_scores_kernel (one per tile and group, shared by the group's heads): fp16, each
  // tile scaled by a power of two (its inverse in Params::score_inv_scales), or, where the
  // intra-tile term is factored (kFactoredScores), bf16 unscaled, the B operand of that GEMM as
  // loaded. Same bytes per row as LayoutScores: ldmatrix reads it at S''s offsets.
  //
  // The factored intra-tile term (bf16 kernels at N = 128; sessions 31-32). With the state
  // folded (kFoldFloor) a tile that does not refold has readout factors r_i = G exp(cs_i -
  // cs_0) and weights w_j = dt_j exp(cs_0 - cs_j) / G (cs_0: the log-decay before the tile),
  // so r_i w_j = dt_j exp(cs_i - cs_j), the mask's factor: X^T S'^T = ((X diag(w))^T S^T)
  // diag(r) with S the (causal) chunk scores as loaded. Such a tile runs
  // Y^T = (h C^T + (X diag(w))^T S^T) diag(r): no mask, no S' store, the state update's A
  // operand as the intra GEMM's. A refold tile keeps its weights relative to its end (w_j =
  // dt_j exp(cs_end - cs_j), the update's own, as in the exact form) and the producer divides
  // its readout by what it carries (r'_i = r_i / carried = exp(cs_i - cs_end)): then r'_i w_j
  // is the mask's factor again, and Y^T = (carried h C^T + (X diag(w))^T S^T) diag(r'), the
  // scalar applied to h C^T's accumulator between the two GEMMs (factored_scale); the state
  // decays before its update as in the exact form, so nothing new sits on the chain from one
  // tile's update to the next tile's h C^T (session 31's fy and fq multiplied the state after
  // the update: no gain). Where the tile's own decay or what it carries is past the factored
  // form's range (kFactoredTileDecay, kFactoredCarried), or a sequence starts in it (packed: its
  // total is 0), the tile runs the exact schedule (S' masked), chosen per tile by a branch.
  // Probe against the kernels without it (session 32 call 8, 3 rounds): R1 8k -3.0%, 512 tokens
  // -3.1%, R2's shape -3.1%, R1 8k z -10.0%; with decay rates 4x the probe's (then most tiles
  // exact; since session 33's per-tile range most are factored) -0.2% and z +6.3%, 8x +1.9%.
  // (Two consumers per CTA, the library's kernel: with one, ptxas serialised the z kernel's
  // WGMMAs, C7511.)
  static constexpr bool kFactoredScores =
      kN == 128 && kHeadsPerCta == 2 && std::is_same_v<Element, cutlass::bfloat16_t> && kFoldFloor < 1.f;
  // A refold tile stays factored while its own total decay is >= kFactoredTileDecay (<= ~66.5
  // nats) and what it carries (G times the total) is >= kFactoredCarried: its readout r' =
  // exp(cs_i - cs_end) is then <= 2^96, its weights >= dt 2^-96 (bf16 normals for dt >= 2^-30),
  // and carried, the multiplier of h C^T, a normal fp32 scalar. A tile under either, or one
  // where a sequence starts (its total is 0; a NaN compares false), takes the exact form. Both
  // are checked per tile: where decays are fast every tile refolds (G = 1, carried = the
  // total), so such heads stay factored down to the first bound. (Session 32's static bound,
  // total >= 2^-56 so that G >= kFoldFloor = 2^-64 kept carried >= 2^-120, sent most tiles of
  // such heads to the exact form: decays 4x the probe's read +6% in the z kernel, session 33.)
  static constexpr float kFactoredTileDecay = 0x1p-96f, kFactoredCarried = 0x1p-120f;
  using ScoreElement = std::conditional_t<kFactoredScores, Element, cutlass::half_t>;
  // fp16 chunk scores carry a scale per tile (the producer loads its inverse into the stage);
  // the factored form's bf16 scores are unscaled (their inverse scales, written as 1, unread).
  static constexpr bool kScaledScores = kChunkScores && !kFactoredScores;
  using CudaScoreElement = std::conditional_t<kFactoredScores, CudaElement, __half>;
  using LayoutChunkScores = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<ScoreElement>{}, Shape<TQ, TQ>{}));

  using MmaS = decltype(make_tiled_mma(GMMA::ss_op_selector<Element, Element, float, Shape<TQ, TQ, TN>>()));
  // The forward's S (N = 64) takes C from registers, read by ldmatrix in ScoreRows' balanced
  // rows (warp w: token blocks w and 7 - w), so that S's accumulator is in the order the mask
  // shares evenly over the warps (an accumulator of MmaS has the m16n8 rows 2 w, 2 w + 1: warp
  // 3 masked 15 of the tile's 36 causal (row block, n-tile) pairs, now each warp 9).
  using MmaScoresRs = decltype(make_tiled_mma(
      GMMA::rs_op_selector<Element, Element, float, Shape<TQ, TQ, TN>, GMMA::Major::K, GMMA::Major::K>()));
  // Y^T (p, token): h C^T with the state (p, n) from registers and C (token, n) as the K-major
  // B operand, then X^T S'^T with X^T (p, token) from registers. Both the state and x would
  // otherwise be read from shared memory by the SS form (the state after a bf16 copy there).
  using MmaYState = decltype(make_tiled_mma(
      GMMA::rs_op_selector<Element, Element, float, Shape<TP, TQ, TN>, GMMA::Major::K, GMMA::Major::K>()));
  // X^T S'^T is issued by halves of its output tokens: S' is causal, so tokens 0 .. kQ/2 - 1
  // read only its first kQ/2 columns (half the k-blocks), a quarter of the GEMM skipped (5%
  // of the tile's tensor work). Probe, session 22 call 4: N = 128 0.4632 -> 0.4606 ms, packed
  // 0.4833 -> 0.4813, the other rows within 0.3%: the tensor pipe does not set the pace.
  using TQHalf = Int<kQ / 2>;
  using MmaYScoresHalf = decltype(make_tiled_mma(
      GMMA::rs_op_selector<Element, Element, float, Shape<TP, TQHalf, TQ>, GMMA::Major::K, GMMA::Major::K>()));
  // The state update's A operand, (X diag(w))^T, comes from registers too (x's registers
  // scaled by the tokens' weights).
  using MmaH = decltype(make_tiled_mma(
      GMMA::rs_op_selector<Element, Element, float, Shape<TP, TN, TQ>, GMMA::Major::K, GMMA::Major::MN>()));

  // Global views with runtime strides: x as (p, token, head, batch), B / C as (token, n, group, batch).
  using GmemX = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)),
                                     Layout<Shape<int, int, int, int>, Stride<_1, int64_t, int64_t, int64_t>>{}));
  using GmemBC = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)),
                                      Layout<Shape<int, int, int, int>, Stride<int64_t, _1, int64_t, int64_t>>{}));
  using TmaX = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemX{}, LayoutX{}));
  using TmaBC = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemBC{}, LayoutBC{}));
  using GmemY = decltype(make_tensor(make_gmem_ptr(static_cast<Element*>(nullptr)),
                                     Layout<Shape<int, int, int, int>, Stride<int64_t, _1, int64_t, int64_t>>{}));
  using TmaY = decltype(make_tma_copy(SM90_TMA_STORE{}, GmemY{}, LayoutY{}));
  // z, the gate, as y: (token, p) tiles, read by the epilogue at y's offsets.
  using GmemZ = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)),
                                     Layout<Shape<int, int, int, int>, Stride<int64_t, _1, int64_t, int64_t>>{}));
  using TmaZ = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemZ{}, LayoutY{}));
  // The chunk scores as (row, j): row = ((batch * groups + group) * tiles + tile) * kQ + i.
  using GmemScores = decltype(make_tensor(make_gmem_ptr(static_cast<const ScoreElement*>(nullptr)),
                                          Layout<Shape<int, int>, Stride<int64_t, _1>>{}));
  using TmaScores = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemScores{}, LayoutChunkScores{}));
  // Bytes per stage: x (and z) of each head, B, and in the main pass C and the chunk scores.
  static constexpr uint32_t tx_bytes(bool main_pass, bool with_z) {
    return sizeof(Element) * ((with_z ? 2 : 1) * kHeadsPerCta * kP * kQ + (main_pass ? 2 : 1) * kQ * kN) +
           (main_pass && kChunkScores ? sizeof(ScoreElement) * kQ * kQ : 0);
  }

  // Byte offsets of element (row, col) in the tiles the kernel's own threads read and write
  // (CuTe's swizzled pointers would go through 64-bit generic addresses). Every tile here is
  // made of 128-byte swizzled atoms of 8 rows x 64 contiguous bf16; the atoms' order differs.
  // tests/cpu checks each against the CuTe layout.
  template <int kAtomStrideRow8, int kAtomStrideCol64>
  static constexpr CUTE_HOST_DEVICE uint32_t sw128_offset(int row, int col) {
    return (row / 8) * kAtomStrideRow8 + (col / 64) * kAtomStrideCol64 + (row % 8) * 128 +
           (((col % 64) * 2) ^ ((row % 8) << 4));
  }
  static constexpr CUTE_HOST_DEVICE uint32_t x_offset(int token, int p) { return sw128_offset<kP / 64 * 1024, 1024>(token, p); }
  static constexpr CUTE_HOST_DEVICE uint32_t y_offset(int token, int p) { return sw128_offset<1024, kQ / 8 * 1024>(token, p); }
  static constexpr CUTE_HOST_DEVICE uint32_t scores_offset(int i, int j) { return sw128_offset<1024, kQ / 8 * 1024>(i, j); }
  static constexpr CUTE_HOST_DEVICE uint32_t bc_offset(int token, int n) { return sw128_offset<1024, kQ / 8 * 1024>(token, n); }

  // The state pass's per-token record of a tile and head: its consumers compute the weights
  // from it (sm80::tile_weights_warp).
  struct TileTokens {
    alignas(16) float a[kQ];   // log-decay a_t = dt_t A (<= 0; -inf where a sequence starts)
    alignas(16) float dt[kQ];  // processed dt; both 0 past T (and outside a varlen item's sequence)
  };
  // A pipeline stage and a consumer's own tiles. The state pass (kMain = false) reads only
  // x, B and each token's a and dt: its C, z, y and S' tiles shrink to placeholders and its
  // decay record to TileTokens, so that it has room for two producer rounds of two stages
  // each (kStateStages; the producer below).
  // kGate = false: no z tile (the ungated main pass, where that buys a stage: kUngatedThirdStage).
  // More stages alone did not make it faster (R4 1.848 vs 1.848 ms; docs/HOPPER_PLAN.md,
  // session 10).
  // The decay record: at N = 64 without the fields no Hopper code reads (TileDecay's
  // kAllFields), so that the z kernel's stage fits three times.
  using MainDecay = sm80::TileDecay<kQ, kN != 64>;
  template <bool kMain, bool kGate>
  struct StageT {
    static constexpr int kBC = cosize_v<LayoutBC>, kZ = kMain && kGate ? cosize_v<LayoutY> : 8;
    // The main pass without the chunk scores (N = 64) has none: a zero-length array (nvcc's
    // extension), where a placeholder cost 1 KB through z's 1024-byte alignment.
    static constexpr int kScores = kMain ? (kChunkScores ? cosize_v<LayoutChunkScores> : 0) : 8;
    alignas(1024) Element x[kHeadsPerCta][cosize_v<LayoutX>];
    alignas(1024) Element b[kBC];
    alignas(1024) Element c[kMain ? kBC : 8];
    alignas(1024) ScoreElement scores[kScores];  // S = C B^T
    alignas(1024) Element z[kHeadsPerCta][kZ];  // the gate (z-gated kernel only)
    // Written by the producer warpgroup: the decay factors (main pass) or a and dt.
    std::conditional_t<kMain, MainDecay, TileTokens> decay[kHeadsPerCta];
    alignas(16) float w[kHeadsPerCta][kMain ? kQ : 4];  // state-update weight of each token (main pass)
    float score_inv_scale;  // the chunk scores' tile scale (written by the producer)
  };
  // kOneBuffer: one output buffer, which an exact tile's S' shares (kOneOutputBuffer).
  template <bool kMain, bool kOneBuffer = false>
  struct ConsumerT {
    // The output tile for the TMA store, two buffers: a tile's epilogue writes one while the
    // previous tile's store, issued at this tile's barrier, may still read the other. With one
    // buffer the epilogue waits for that store (its thread 0, before the turn's barrier).
    alignas(1024) Element y[kOneBuffer ? 1 : 2][kMain ? cosize_v<LayoutY> : 8];
    alignas(1024) Element scores[kMain && !kOneBuffer ? cosize_v<LayoutScores> : 8];  // S' in Element, for X^T S'^T
  };
  static constexpr size_t kMaxSmemBytes = 227 * 1024;
  // As many state-pass stages as fit (at most 6): 6 at N = 64 and 128, 5 at N = 256.
  static constexpr int kStateStages = int(cute::min(size_t(6), (kMaxSmemBytes - 2048 - kHeadsPerCta * sizeof(ConsumerT<false>)) /
                                                                   sizeof(StageT<false, false>)));
  // The main pass has 2 stages; the ungated one drops its unused z tile and takes 3 where
  // that makes them fit (N = 64: probe R1 8k, session 16 call 3: 0.436 -> 0.423 ms, P = 128
  // 0.435 -> 0.425, 512 tokens 0.521 -> 0.494), and only there: at N = 128 the 16 KB smaller
  // storage alone made R1 8k 2% slower through the API (0.485 -> 0.495 ms, session 16 call 5;
  // not understood: the tiles keep their 1024-byte alignment). Since session 36 the ungated
  // bf16 N = 128 kernel fits 3 by its one output buffer (kOneOutputBuffer; probe, calls E-F,
  // against 2 stages: R1 8k -2.2..-2.6%, 512 tokens -2.5..-3.3%, R2's shape -4.0%, packed
  // -2.7..-2.9%; where every tile is exact, decays 8x the probe's, +0.9%). The one buffer alone,
  // at 2 stages, read -0.4..+0.2% (+2.7% / +6.2% at decays 4x / 8x, before the exact tile's
  // store was issued ahead of its mask). The z kernel's stage (86 KB) does not fit 3 times.
  // Nor does a z-less stage with z loaded by each consumer into its one output buffer, y
  // written over it (zb, session 37 calls D-E, -zb2.diff): +6..11% (R1 8k z, 512 tokens, R2's
  // shape), since that load can only start once the previous y's store has read the buffer
  // and then waits behind the producer's stages in flight; without the load (zd, y wrong) the
  // third stage bought 1.9..5.6%.
  // The gated kernel takes a third stage too where it fits: N = 64, since its decay record
  // dropped two unread fields (MainDecay; probe, session 29 call 1: R3 z's shape 0.5405 ->
  // 0.4875 ms (-9.8%), P = 64 -7.1%; through the API R3 z 0.5418 -> 0.4923). A fourth stage for
  // the ungated N = 64 kernel (it would fit) bought nothing: R3's shape 0.3776 -> 0.3775.
  // kOneOutputBuffer (above): S' shares the buffer, since only the (rare) exact tiles write it.
  template <bool kGate>
  static constexpr bool kOneOutputBuffer = kFactoredScores && !kGate;
  template <bool kGate>
  static constexpr bool kThirdStage =
      (kMaxSmemBytes - 2048 - kHeadsPerCta * sizeof(ConsumerT<true, kOneOutputBuffer<kGate>>)) / sizeof(StageT<true, kGate>) >= 3;
  static constexpr bool kUngatedThirdStage = kThirdStage<false>;
  template <bool kGate>
  static constexpr int kMainStages = kThirdStage<kGate> ? 3 : 2;
  template <bool kStatePass, bool kGate>
  struct SharedStorageT {
    static constexpr int kNumStages = kStatePass ? kStateStages : kMainStages<kGate>;
    StageT<!kStatePass, kGate || !kUngatedThirdStage> stage[kNumStages];
    ConsumerT<!kStatePass, !kStatePass && kOneOutputBuffer<kGate>> consumer[kHeadsPerCta];
    alignas(8) uint64_t full[kNumStages];   // TMA bytes landed and decay factors written
    alignas(8) uint64_t empty[kNumStages];  // every consumer done with the stage
    // Never waited on: the state pass's consumers arrive here instead of at a stage's empty
    // barrier for the spare tile of an odd pair (a selected address, not a branch: a branch
    // or a predicated arrival beside the WGMMAs makes ptxas serialise them, C7513).
    alignas(8) uint64_t spare_arrivals;
  };
  // + slack to align the base
  template <bool kStatePass, bool kGate>
  static constexpr size_t kSmemBytes = sizeof(SharedStorageT<kStatePass, kGate>) + 1024;

  struct Params {
    TmaX tma_x;
    TmaBC tma_b, tma_c;
    TmaY tma_y;
    TmaZ tma_z;  // set by set_gate
    TmaScores tma_scores;  // set by set_chunk_scores (the main pass reads them)
    int score_tiles;       // tiles per (batch, group) in the chunk scores: ceil(T / kQ)
    const float* score_inv_scales;  // (batch, groups, score_tiles): S = inverse scale x the tile
    int batch, seqlen, heads, groups;
    int slices;      // head dim P / kP: the 64-channel slices of a head, each a consumer's work
    // WorkScheduler's counts, from the host (kernel parameters, not registers held by every
    // thread): head slices per group, sets of kHeadsPerCta of them per group and in all.
    int slices_per_group, sets_per_group, head_sets;
    // Their divisors precomputed (make_params; the split counts by set_splits): an integer
    // division by a run-time value is ~20 instructions, and the consumers decompose every
    // item before its first tile (K::kShortItemPrologue).
    cutlass::FastDivmod head_sets_div, sets_per_group_div, slices_div;
    cutlass::FastDivmod splits_div, state_runs_div;  // num_splits; (num_splits - 1) * state_runs
    int state_run_tiles;  // tiles of a state-pass run: split_len / kQ / state_runs
    const void* dt;  // (b, T, H) raw: dt = clamp(softplus?(dt + dt_bias), dt_lo, dt_hi)
    ScalarType dt_type;
    int64_t dt_sb, dt_st, dt_sh;
    const float* dt_bias;  // (H) or null
    int64_t dt_bias_s;
    bool dt_softplus;
    float dt_lo, dt_hi;
    const float* A;   // (H)
    int64_t A_s;
    const float* D;   // (H) when D_sp == 0, (H, P) otherwise, or null
    int64_t D_sh, D_sp;
    // Packed sequences: 1 where a token starts a sequence (seq_idx changes, a cu_seqlens
    // sequence starts; token 0 when the initial state does not apply), else 0; or null.
    const uint8_t* reset_flags;  // (b, T) contiguous
    // cu_seqlens (b = 1): the state pass's varlen mode (varlen_pass) computes each sequence's
    // final state into varlen_states, a work item per (sequence, head set).
    const void* cu_seqlens;  // (num_seqs + 1) int32 or int64, stride cu_s
    bool cu_seqlens_64, varlen_pass;
    int64_t cu_s;
    int num_seqs;
    float* varlen_states;  // (num_seqs, H, P, N) with unit stride on N
    int64_t var_ss, var_sh, var_sp;
    const Element* z; // (b, T, H, P) or null: set by set_gate
    const float* initial_states;  // (b, H, P, N) with unit stride on N, or null
    int64_t init_sb, init_sh, init_sp;
    float* final_states;          // (b, H, P, N) with unit stride on N, or null
    int64_t fin_sb, fin_sh, fin_sp;
    // Split-sequence scheme (DESIGN.md section 3): each sequence is cut into num_splits
    // runs of split_len tokens (a multiple of kQ); set with set_splits, which keeps the
    // scheduler's divisors in step. The state pass writes each split's local final state and
    // total decay (all splits but the last); split_boundary_scan_kernel turns them into
    // incoming states, which the main pass starts from.
    int num_splits, split_len;
    float* split_states;  // (b, H, num_splits, P, N) contiguous (P = slices * kP)
    float* split_decay;   // (b, H, num_splits)
    // The state pass computes each split's state in state_runs runs (SsdKernelParams has
    // the layout): the last in the split's slot, the others in run_states / run_decay.
    int state_runs;
    float* run_states;    // (b, H, num_splits - 1, state_runs - 1, P, N)
    float* run_decay;     // (b, H, num_splits - 1, state_runs - 1)
  };

  // x, y, z: (b, T, H, P) with unit stride on P (P a multiple of kP); B, C: (b, T, G, N) with
  // unit stride on N. Strides in elements, (batch, token, head-or-group). The other fields
  // start as "absent" (one split, no D, z or states, dt unclamped); the caller sets what it uses.
  static Params make_params(const Element* x, const int64_t (&x_s)[3], const Element* B, const int64_t (&b_s)[3],
                            const Element* C, const int64_t (&c_s)[3], Element* y, const int64_t (&y_s)[3],
                            int batch, int seqlen, int heads, int groups, int headdim = kP) {
    // A head is cut into 64-channel slices (the dispatch sends only P = 64 and 128 here).
    if (headdim < kP || headdim % kP != 0)
      throw std::invalid_argument("flashssd sm90 forward: head dim " + std::to_string(headdim) + " is not a multiple of 64");
    Params p{};
    auto gx = make_tensor(make_gmem_ptr(x), make_layout(make_shape(headdim, seqlen, heads, batch),
                                                        make_stride(_1{}, x_s[1], x_s[2], x_s[0])));
    auto view_bc = [&](const Element* ptr, const int64_t(&st)[3]) {
      return make_tensor(make_gmem_ptr(ptr), make_layout(make_shape(seqlen, int(kN), groups, batch),
                                                         make_stride(st[1], _1{}, st[2], st[0])));
    };
    p.tma_x = make_tma_copy(SM90_TMA_LOAD{}, gx, LayoutX{});
    p.tma_b = make_tma_copy(SM90_TMA_LOAD{}, view_bc(B, b_s), LayoutBC{});
    p.tma_c = make_tma_copy(SM90_TMA_LOAD{}, view_bc(C, c_s), LayoutBC{});
    auto gy = make_tensor(make_gmem_ptr(y), make_layout(make_shape(seqlen, headdim, heads, batch),
                                                        make_stride(y_s[1], _1{}, y_s[2], y_s[0])));
    p.tma_y = make_tma_copy(SM90_TMA_STORE{}, gy, LayoutY{});
    p.batch = batch;
    p.seqlen = seqlen;
    p.heads = heads;
    p.groups = groups;
    p.slices = headdim / kP;
    p.slices_per_group = heads / groups * p.slices;
    p.head_sets = head_sets(heads * p.slices, groups);
    p.sets_per_group = p.head_sets / groups;
    p.head_sets_div = cutlass::FastDivmod(p.head_sets);
    p.sets_per_group_div = cutlass::FastDivmod(p.sets_per_group);
    p.slices_div = cutlass::FastDivmod(p.slices);
    p.dt_type = ScalarType::kF32;
    p.dt_lo = 0.f;
    p.dt_hi = INFINITY;
    set_splits(p, 1, (seqlen + kQ - 1) / kQ * kQ, 1);
    return p;
  }
  // The split-sequence plan: num_splits splits of split_len tokens (a multiple of kQ), the state
  // pass's runs per split (they divide the split's tiles).
  static void set_splits(Params& p, int num_splits, int split_len, int state_runs) {
    if (num_splits < 1 || split_len % kQ != 0 || state_runs < 1 || split_len / kQ % state_runs != 0)
      throw std::invalid_argument("flashssd sm90 forward: inconsistent split plan");
    p.num_splits = num_splits;
    p.split_len = split_len;
    p.state_runs = state_runs;
    p.splits_div = cutlass::FastDivmod(num_splits);
    p.state_runs_div = cutlass::FastDivmod(std::max(1, (num_splits - 1) * state_runs));
    p.state_run_tiles = split_len / kQ / state_runs;
  }
  // The chunk scores S = C B^T of every (batch, group, tile), chunk_scores_kernel's output
  // (chunk_scores_sm90.cuh). The main pass loads a tile of them with x, B and C instead of
  // computing S per head.
  static_assert(kQ == kChunkScoresQ, "the chunk scores are computed per tile");
  static void set_chunk_scores(Params& p, const ScoreElement* scores, const float* inv_scales) {
    p.score_tiles = (p.seqlen + kQ - 1) / kQ;
    const int64_t rows64 = int64_t(p.batch) * p.groups * p.score_tiles * kQ;
    if (rows64 > INT32_MAX)  // (a TMA dimension; int arithmetic in the producer)
      throw std::invalid_argument("flashssd sm90 forward: batch x groups x T (rounded up to 64) exceeds 2^31 - 1 chunk-score rows");
    const int rows = int(rows64);
    auto gs = make_tensor(make_gmem_ptr(scores), make_layout(make_shape(rows, int(kQ)), make_stride(int64_t(kQ), _1{})));
    p.tma_scores = make_tma_copy(SM90_TMA_LOAD{}, gs, LayoutChunkScores{});
    p.score_inv_scales = inv_scales;
  }
  // The gate y *= silu(z): z as (b, T, H, P) with unit stride on P, strides (batch, token, head)
  // in elements (the z-gated kernel loads it by TMA with x).
  static void set_gate(Params& p, const Element* z, const int64_t (&z_s)[3]) {
    auto gz = make_tensor(make_gmem_ptr(z), make_layout(make_shape(p.seqlen, p.slices * kP, p.heads, p.batch),
                                                        make_stride(z_s[1], _1{}, z_s[2], z_s[0])));
    p.tma_z = make_tma_copy(SM90_TMA_LOAD{}, gz, LayoutY{});
    p.z = z;
  }
};

// Issues acc (+)= a b over k-blocks kBegin .. kEnd - 1 (all by default) as one WGMMA batch
// (no wait); the accumulator starts from zero when zero_init. The caller waits with
// warpgroup_wait<N>().
template <int kBegin = 0, int kEnd = -1, class Mma, class TA, class TB, class TC>
__device__ __forceinline__ void wgmma_issue(Mma& mma, const TA& a, const TB& b, TC& acc, bool zero_init) {
  constexpr int kLast = kEnd < 0 ? int(decltype(size<2>(a))::value) : kEnd;
  warpgroup_fence_operand(acc);
  warpgroup_arrive();
  mma.accumulate_ = zero_init ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
  CUTE_UNROLL
  for (int k = kBegin; k < kLast; ++k) {
    cute::gemm(mma, a(_, _, k), b(_, _, k), acc);
    mma.accumulate_ = GMMA::ScaleOut::One;
  }
  warpgroup_commit_batch();
}

// The 8-row blocks of the score tile (token rows) that warp w's two accumulator-order halves
// hold (registers i with (i / 2) % 2 == half). Scores from an SS WGMMA accumulator
// (scores_sm90.cuh) have the m16n8 rows, blocks 2 w and 2 w + 1 (kBalanced = false). The
// forward's chunk scores come from shared memory, S' goes back there, and at N = 64 it reads
// C, S's A operand, into registers by ldmatrix, so there any rows will do: blocks w and 7 - w
// (kBalanced), so that each warp masks w + 1 + 8 - w = 9 of the causal (block, n-tile) pairs;
// with 2 w and 2 w + 1 warp 3 masked 15 of the 36, and the warpgroup's WGMMA and barrier waited
// for it.
template <int kQ, bool kBalanced>
struct ScoreRows {
  static constexpr int kBlocks = kQ / 8;
  static constexpr CUTE_HOST_DEVICE int block(int warp, int half) { return kBalanced ? (half ? kBlocks - 1 - warp : warp) : 2 * warp + half; }
  // Row of accumulator pair (g, half) of the warp, and the ldmatrix / stmatrix row of a lane
  // (matrices 0 and 2 hold half 0, 1 and 3 half 1: MatrixRows below).
  static CUTE_HOST_DEVICE int pair_row(int warp, int g, int half) { return 8 * block(warp, half) + g; }
  static CUTE_HOST_DEVICE int row(int warp, int lane) { return pair_row(warp, lane % 8, lane / 8 % 2); }
  static CUTE_HOST_DEVICE int col(int lane, int j) { return 8 * (2 * j + lane / 16); }
  // The warp's last row block (half 1's in both maps) and the 16-column groups j its rows
  // reach (causal): 2 j <= that block.
  static constexpr CUTE_HOST_DEVICE int last_block(int warp) { return block(warp, 1); }
  static CUTE_HOST_DEVICE bool reaches(int warp, int j) { return 2 * j <= last_block(warp); }
};

// Calls f(Int<warp>{}) for the warp (0 .. 3) of the warpgroup: f's code is compiled once per
// warp, its branch is warp-uniform, and whatever f derives from the warp index is a constant.
template <class F>
__device__ __forceinline__ void with_warp_constant(int warp, F&& f) {
  switch (warp) {
    case 0: f(Int<0>{}); break;
    case 1: f(Int<1>{}); break;
    case 2: f(Int<2>{}); break;
    default: f(Int<3>{}); break;
  }
}

// S' = S o L o dt on a 64 x 64 score tile in the accumulator order (tid: thread of the
// warpgroup; rows as ScoreRows<kQ, true> gives them: balanced), with segsum.cuh's mask
// (fragment_layout_mismatches below checks the order of a WGMMA accumulator). The mask leaves
// the n-tiles right of a warp's diagonal untouched (the sm80 kernel never reads them); X^T S'^T
// reads all 64 columns, so they are zeroed here, unless kChunkScores: acc holds the chunk
// scores S / scale, whose entries right of the diagonal are zero already (load_scores does not
// read the groups no row reaches, and chunk_scores_kernel stores the others' as zero), so the
// mask skips them and no select is needed.
// kPerWarp: the mask's code is compiled per warp (with_warp_constant), so that the warp's row
// blocks are constants: which n-tiles are rank-one, diagonal or zero is then known at compile
// time, where with the warp index at run time every n-tile takes compares, predicated loads and
// multiplies of both kinds, and branches (the forward's kMaskPerWarp has the measurements).
// kBalanced: acc's rows are ScoreRows' balanced ones (the forward's S); false: an SS WGMMA
// accumulator's m16n8 rows (scores_sm90.cuh's probe of this mask).
template <int kQ, bool kChunkScores = false, bool kPerWarp = false, bool kBalanced = true, class Acc, bool kAll>
__device__ __forceinline__ void mask_scores(Acc& acc, const sm80::TileDecay<kQ, kAll>& decay, int tid, float scale = 1.f) {
  static_assert(decltype(size(acc))::value == kQ / 8 * 4, "32 accumulators per thread");
  using Rows = ScoreRows<kQ, kBalanced>;
  auto mask_warp = [&](auto warp) {  // int, or Int<w>: a constant
    float frag[kQ / 8][4];
    CUTE_UNROLL
    for (int i = 0; i < kQ / 8 * 4; ++i) frag[i / 4][i % 4] = acc(i);
    const int row_block[2] = {Rows::block(warp, 0), Rows::block(warp, 1)};
    sm80::apply_decay_mask_rows<SegsumVariant::kHierarchical, kQ, kChunkScores, kChunkScores>(frag, decay, row_block, tid % 32, scale);
    CUTE_UNROLL
    for (int i = 0; i < kQ / 8 * 4; ++i) acc(i) = (!kChunkScores && i / 4 > Rows::last_block(warp)) ? 0.f : frag[i / 4][i % 4];
  };
  if constexpr (kPerWarp) with_warp_constant(tid / 32, mask_warp);
  else mask_warp(tid / 32);
}

// Register i of a 64-row WGMMA accumulator of thread tid of its warpgroup: row
// 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 q + i % 2 (the m16n8 order per warp).
struct AccCoord {
  int warp, g, q;
  __device__ __forceinline__ explicit AccCoord(int tid) : warp(tid / 32), g(tid % 32 / 4), q(tid % 4) {}
  __device__ __forceinline__ int row(int i) const { return 16 * warp + g + 8 * ((i / 2) % 2); }
  __device__ __forceinline__ int col(int i) const { return 8 * (i / 4) + 2 * q + i % 2; }
};

// ldmatrix / stmatrix .x4 move a warp's accumulator-ordered bf16 pairs 16 columns at a time
// (one instruction for four pairs per thread, where 4-byte LDS/STS take four): register m of
// group j holds pair 4 j + m of the accumulator order (AccCoord): row g + 8 (m % 2) of the
// warp's 16, columns 8 (2 j + m / 2) + 2 q, + 1. Lane l gives the address of the 16-byte row
// l % 8 of matrix l / 8; ScoreRows above gives its (row, column) in S and S' (the rows of
// the warp's two halves: any 8-row blocks). tests/cpu checks that composing them with
// scores_offset puts every pair where the 4-byte accesses did, and that the .trans forms with
// x_offset / y_offset do for the (p, token) registers of x, z and y.
struct MatrixRows {
  // ldmatrix.x4.trans reads the same pairs of an operand stored transposed (its columns are
  // the 16-byte memory rows): lane l names operand column trans_col (a memory row) holding
  // operand rows trans_row .. + 7; register m of group j then holds the same (row, column)
  // pair as above. tests/cpu checks it for x read as (X diag w)^T.
  static CUTE_HOST_DEVICE int trans_row(int warp, int lane) { return 16 * warp + 8 * (lane / 8 % 2); }
  static CUTE_HOST_DEVICE int trans_col(int lane, int j) { return 8 * (2 * j + lane / 16) + lane % 8; }
};
using sm80::ldmatrix_x4_trans;
using sm80::ldmatrix_x4;
using sm80::silu_fast;
using sm80::smem_addr;
using sm80::stmatrix_x4;
using sm80::stmatrix_x4_trans;

// (X diag(w))^T from x's registers, group j (four (p, token) pairs, MatrixRows' order): pairs
// m = 0, 1 hold tokens 16 j + 2 q, + 1 (weights w_lo), m = 2, 3 tokens 16 j + 8 + 2 q, + 1
// (w_hi). x(k) reads pair k of x, out(k) is where scaled pair k goes. The state update's A
// operand in both passes.
template <class ElementPair, class X, class Out>
__device__ __forceinline__ void scale_by_token_weights(int j, float2 w_lo, float2 w_hi, X&& x, Out&& out) {
  CUTE_UNROLL
  for (int m = 0; m < 4; ++m) {
    const float2 wm = m / 2 ? w_hi : w_lo;
    const float2 xv = ElementPair::unpack(x(4 * j + m));
    out(4 * j + m) = ElementPair::pack(wm.x * xv.x, wm.y * xv.y);
  }
}

// Persistent tile scheduler: the grid (one CTA per SM at most) walks the work items
// ((batch * splits) + split) * head_sets + set with a grid stride, so that the CTAs reading
// one group's B and C tiles run side by side (L2 reuse). The unit of work is a head slice
// (kP channels of a head; P / kP slices per head, numbered head * slices + slice). A work
// item is a run of tiles of one sequence split for kHeadsPerCta head slices of one group;
// when the slices per group are not a multiple of kHeadsPerCta, the group's last item has
// fewer (`active`): its spare consumers compute a copy of the item's first slice (loaded as
// such, so every value is defined) and write nothing.
//
// The state pass's varlen mode (cu_seqlens, b = 1) has an item per (sequence, head set): the
// tiles that hold the sequence's tokens [tok_begin, tok_end), `split` the sequence's index.
template <class K, bool kStatePass>
struct WorkScheduler {
  struct Item {
    int b, h0, active, split, grp, tile_begin, tiles;
    __device__ int head_slice(int k) const { return h0 + min(k, active - 1); }  // what slot k computes
  };
  const typename K::Params& p;
  __device__ bool varlen() const { return kStatePass && p.varlen_pass; }
  // The state pass's runs (state_runs per split, all splits but the last) or the splits.
  __device__ int splits() const { return kStatePass ? (p.num_splits - 1) * p.state_runs : p.num_splits; }
  __device__ int run_tiles() const { return kStatePass ? p.state_run_tiles : p.split_len / K::kQ; }
  // q = n / d, r = n % d for d one of the Params' counts, by its precomputed divisor.
  __device__ static void divmod(int& q, int& r, int n, int d, const cutlass::FastDivmod& fast) {
    if constexpr (K::kShortItemPrologue) {
      fast(q, r, n);
    } else {
      q = n / d;
      r = n % d;
    }
  }
  // A head slice's head and 64-channel slice.
  __device__ void head_and_slice(int head_slice, int& h, int& slice) const { divmod(h, slice, head_slice, p.slices, p.slices_div); }
  __device__ int head_of_slice(int head_slice) const {
    int h, slice;
    head_and_slice(head_slice, h, slice);
    return h;
  }
  __device__ int num_items() const { return (varlen() ? p.num_seqs : p.batch * splits()) * p.head_sets; }
  // Whether the item's slots are slices of one head (P = 128: a pair is a head's two slices;
  // a spare slot copies slot 0). They share the head's decay (the kernel's kOneHeadDecay).
  __device__ bool one_head(const Item& w) const {
    return K::kHeadsPerCta == 2 && head_of_slice(w.head_slice(0)) == head_of_slice(w.head_slice(K::kHeadsPerCta - 1));
  }
  __device__ int64_t cu(int k) const { return cu_seqlens_at(p.cu_seqlens, p.cu_seqlens_64, p.cu_s, k); }
  // Sequence k's tokens [cu(k), cu(k + 1)) (varlen mode).
  __device__ int tok_begin(int k) const { return static_cast<int>(cu(k)); }
  __device__ int tok_end(int k) const { return static_cast<int>(cu(k + 1)); }
  __device__ Item item(int i) const {
    Item w;
    int batch_split, any_set, set;
    divmod(batch_split, any_set, i, p.head_sets, p.head_sets_div);
    divmod(w.grp, set, any_set, p.sets_per_group, p.sets_per_group_div);
    w.h0 = w.grp * p.slices_per_group + set * K::kHeadsPerCta;
    w.active = min(K::kHeadsPerCta, p.slices_per_group - set * K::kHeadsPerCta);
    divmod(w.b, w.split, batch_split, splits(), kStatePass ? p.state_runs_div : p.splits_div);
    if (varlen()) {
      w.split = batch_split;
      w.b = 0;
      const int begin = tok_begin(w.split), end = tok_end(w.split);
      w.tile_begin = begin / K::kQ;
      w.tiles = end > begin ? (end - 1) / K::kQ - w.tile_begin + 1 : 0;  // an empty sequence has none
      return w;
    }
    w.tile_begin = w.split * run_tiles();  // (state pass: split is the run)
    w.tiles = min((p.seqlen + K::kQ - 1) / K::kQ, w.tile_begin + run_tiles()) - w.tile_begin;
    return w;
  }
};

// kGateZ: y *= silu(z) (a template parameter: as a runtime branch the compiler predicates
// the whole gate into the z-less kernel). kStatePass: the split-sequence state pass (local
// final state and decay of every split but the last; no C, no y).
template <class K, bool kGateZ, bool kStatePass = false>
__global__ void __launch_bounds__(K::kThreads, 1) ssd_fwd_sm90_kernel(const __grid_constant__ typename K::Params p) {
  using Element = typename K::Element;
  using ElementPair = sm80::HalfPacking<typename K::CudaElement>;  // two Elements in a 32-bit register
  using Barrier = cutlass::arch::ClusterTransactionBarrier;
  using NamedBarrier = cutlass::arch::NamedBarrier;
  constexpr int kQ = K::kQ, kHeads = K::kHeadsPerCta, kWG = K::kWarpgroupThreads;
  using SharedStorage = typename K::template SharedStorageT<kStatePass, kGateZ>;
  constexpr int kStages = SharedStorage::kNumStages;
  static_assert(K::template kSmemBytes<kStatePass, kGateZ> <= K::kMaxSmemBytes, "more shared memory than a Hopper CTA can have");
  // (Launched programmatically after the call's previous kernel: see programmatic_launch.cuh.)
  allow_next_kernel();
  wait_for_previous_kernel();
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // Align by offsetting the shared array itself (not through an integer) so that the
  // compiler keeps the shared address space: LDS/STS, not generic LD/ST.
  const uint32_t misalign = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw)) & 1023u;
  auto& smem = *reinterpret_cast<SharedStorage*>(smem_raw + ((1024u - misalign) & 1023u));
  const int warpgroup = threadIdx.x / kWG, wtid = threadIdx.x % kWG;
  const WorkScheduler<K, kStatePass> scheduler{p};
  if (int(blockIdx.x) >= scheduler.num_items()) return;  // the launch keeps grid <= items; a spare CTA has no tile
  // P = 128 (an item's two slots one head's slices, WorkScheduler::one_head): the producer
  // prepares the head's decay once, over the whole warpgroup (prepare_tile_decay's one-head
  // form), into slot 0's record, which both consumers read. Only in the N = 64 z kernel: probe,
  // session 28 call 1, R3 z's shape 0.5509 -> 0.5440 ms (-1.3%), at 128 x 512 -1.3%, P = 64
  // -0.5%; through the API R3 z 0.5519 -> 0.5448. Elsewhere the run-time choice of form cost
  // more than it saved: R3's shape -0.2%, at 128 x 512 +0.6%, P = 128 at N = 128 +1.5%, the P =
  // 64 kernels +0.4..0.5%. With three stages, the turns and the balanced rows (session 29 call
  // 5): without it R3 z's shape +4.1%; in the ungated N = 64 kernel too R3's shape +7.7%.
  constexpr bool kOneHeadDecay = !kStatePass && kGateZ && K::kN == 64;
  // Producer and consumers walk the same items and tiles; `it` counts the CTA's tiles over
  // all its items and gives the pipeline stage and phase.

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      Barrier::init(&smem.full[s], 1 + kWG);       // the TMA issuer's expect-tx + each producer thread
      Barrier::init(&smem.empty[s], kHeads * kWG);  // each consumer thread
    }
    Barrier::init(&smem.spare_arrivals, (1u << 20) - 1);  // (the largest count: its phases are never waited for)
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    // ---- producer: TMA loads and decay factors, up to kStages tiles ahead ----
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
        // One head in both slots (kOneHeadDecay): its decay once, in the one-head form below,
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
        constexpr int kDtDepth = kStatePass ? K::kStateDtDepth : K::kMainDtDepth;
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
            else
              w[0] = sm80::prepare_tile_decay_pair<kQ>(decay[0], wtid, a[0], dt[0], PairSync{}, fold, kTileTotal ? &total : nullptr);
          } else {
            static_assert(kTiles == 1, "one head: a tile per round");
            w[0] = sm80::prepare_tile_decay<SegsumVariant::kHierarchical, kQ>(decay[0][0], wtid, a[0], dt[0], sync_producer,
                                                                               fold, kTileTotal ? &total : nullptr);
          }
          if constexpr (kTileTotal) {
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
    return;
  }

  // ---- consumers: one head slice each ----
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
      h_in = p.split_states + (((int64_t(b) * p.heads + h) * p.num_splits + split - 1) * p.slices * K::kP + state_rows) * K::kN;
    } else if (!kStatePass && p.initial_states) {
      h_in = p.initial_states + b * p.init_sb + h * p.init_sh + state_rows * p.init_sp;
      h_in_sp = p.init_sp;
    }
    // (With the short prologue a branch, not a select per element: the select was predicated,
    // its loads issued at every item's start with or without an incoming state.)
    if constexpr (!K::kShortItemPrologue) {
      CUTE_UNROLL
      for (int i = 0; i < size(acc_h); ++i) acc_h(i) = h_in ? h_in[at.row(i) * h_in_sp + at.col(i)] : 0.f;
    } else if (h_in) {
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
          float* out = p.varlen_states + split * p.var_ss + h * p.var_sh + state_rows * p.var_sp;
          CUTE_UNROLL
          for (int i = 0; i < size(acc_h); ++i) out[at.row(i) * p.var_sp + at.col(i)] = acc_h(i);
        }
      } else if (writes) {
        // Run `split` is run r of split s: the last run has the split's slot, the others theirs.
        const int s = split / p.state_runs, r = split % p.state_runs;
        const int64_t bh = int64_t(b) * p.heads + h;
        const bool last_run = r == p.state_runs - 1;
        const int64_t slot = last_run ? bh * p.num_splits + s : (bh * (p.num_splits - 1) + s) * (p.state_runs - 1) + r;
        float* out = (last_run ? p.split_states : p.run_states) + (slot * p.slices * K::kP + state_rows) * K::kN;
        CUTE_UNROLL
        for (int i = 0; i < size(acc_h); ++i) out[at.row(i) * K::kN + at.col(i)] = acc_h(i);
        // The head's decay, the same for every slice.
        if (tid == 0 && slice == 0) (last_run ? p.split_decay : p.run_decay)[slot] = split_decay;
      }
    } else if (writes && p.final_states && split == p.num_splits - 1) {
      float* out = p.final_states + b * p.fin_sb + h * p.fin_sh + state_rows * p.fin_sp;
      CUTE_UNROLL
      for (int i = 0; i < size(acc_h); ++i) out[at.row(i) * p.fin_sp + at.col(i)] = acc_h(i);
    }
  }  // work items
  if (head == 0) wait_turn();  // consumer 1's last pass_turn: no arrival left pending at exit
  if (!kStatePass && tid == 0) tma_store_wait<0>();  // sY must stay valid until the last store has read it
}

// Counts, for thread tid of the warpgroup, violations of the fragment-layout facts the
// kernel relies on: every accumulator (S, Y^T of both Y GEMMs, the state) holds in register i
// row 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 q + i % 2 (the sm80 m16n8 order
// segsum.cuh expects), and every RS A operand (the state for h C^T, X^T for X^T S'^T,
// (X diag(w))^T for the state update) holds in register i the same (row, column): so the
// state's accumulator and x's ldmatrix.trans registers feed them element by element. Host
// and device: the CPU suite (tests/cpu/test_sm90_layouts.cu) checks every thread without a GPU.
template <class K>
CUTE_HOST_DEVICE int fragment_layout_mismatches(int tid) {
  const int warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
  auto row = [&](int i) { return 16 * warp + g + 8 * ((i / 2) % 2); };
  auto col = [&](int i) { return 8 * (i / 4) + 2 * q + i % 2; };
  int bad = 0;
  // Each coordinate tensor must have `expected` registers in the accumulator order.
  auto check = [&](const auto& coords, int expected) {
    bad += int(size(coords)) != expected;
    for (int i = 0; i < int(size(coords)); ++i) bad += (get<0>(coords(i)) != row(i)) + (get<1>(coords(i)) != col(i));
  };
  typename K::MmaS mma_s;
  typename K::MmaYState mma_ys;
  typename K::MmaH mma_h;
  using QQ = Shape<typename K::TQ, typename K::TQ>;
  using PQ = Shape<typename K::TP, typename K::TQ>;
  using PN = Shape<typename K::TP, typename K::TN>;
  check(mma_s.get_thread_slice(tid).partition_C(make_identity_tensor(QQ{})), K::kQ * K::kQ / 128);
  // The forward's S from C in registers (MmaScoresRs): the same accumulator order, and C's
  // registers (token, n) in it too, so ldmatrix's pairs feed the A operand as they land.
  typename K::MmaScoresRs mma_s_rs;
  check(mma_s_rs.get_thread_slice(tid).partition_C(make_identity_tensor(QQ{})), K::kQ * K::kQ / 128);
  check(mma_s_rs.get_thread_slice(tid).partition_A(make_identity_tensor(Shape<typename K::TQ, typename K::TN>{})),
        K::kQ * K::kN / 128);
  check(mma_ys.get_thread_slice(tid).partition_C(make_identity_tensor(PQ{})), K::kP * K::kQ / 128);
  // X^T S'^T's halves (MmaYScoresHalf): each is the first half of y's registers in this order.
  typename K::MmaYScoresHalf mma_yx_half;
  check(mma_yx_half.get_thread_slice(tid).partition_C(make_identity_tensor(Shape<typename K::TP, typename K::TQHalf>{})),
        K::kP * K::kQ / 256);
  check(mma_yx_half.get_thread_slice(tid).partition_A(make_identity_tensor(PQ{})), K::kP * K::kQ / 128);
  check(mma_h.get_thread_slice(tid).partition_C(make_identity_tensor(PN{})), K::kP * K::kN / 128);
  check(mma_ys.get_thread_slice(tid).partition_A(make_identity_tensor(PN{})), K::kP * K::kN / 128);
  check(mma_h.get_thread_slice(tid).partition_A(make_identity_tensor(PQ{})), K::kP * K::kQ / 128);
  return bad;
}

template <class K>
__global__ void ssd_fwd_sm90_layout_check(int* mismatches) {  // one warpgroup
  const int bad = fragment_layout_mismatches<K>(threadIdx.x);
  if (bad) atomicAdd(mismatches, bad);
}

}  // namespace flashssd::sm90
