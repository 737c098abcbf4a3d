// The Hopper forward's configuration for one (P slice, N, heads per CTA, element type):
// tile sizes, register budgets, named barriers, the MMA atoms, the shared-memory tiles and
// stages, the kernel parameters and their TMA descriptors (set on the host by
// ssd_fwd_sm90_launch.cuh). The kernel itself is ssd_fwd_sm90.cuh.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/fast_math.h>

#include "kernels/common/kernel_params.h"
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
  // -> 0.1091, at N = 64 0.2819 -> 0.2506). The main pass: two in the ungated N = 64 and 128
  // kernels (API, H100, session 71 call 2, with the producer's fm2 form: R1 512-32k -4.0..-6.3%,
  // R2 -7.4%, R3 -4.8%, R4 128k -5.2%: one round no longer covers dt's DRAM latency on a full
  // chip), one elsewhere: the gated kernels gained nothing from two (R1 512 z +1.1%, R3 z +1.5%,
  // R1 8k z -0.2%, R2 z 0.0%), nor N = 256 (+0.2%), and two doubles the producer's loop (back at
  // one, session 72 call 1, H100: R1 512 / 8k / 32k z -1.3 / -0.1 / -1.3%, R3 z -1.8%, R2 z 0.0%,
  // N = 256 -0.4%); the fp16 N = 128 two-head kernels' producer spills 4 / 8 bytes at two (with
  // 56 registers it does not, but gains nothing: H200, session 72 call 2, fp16 R1 512 / 8k +1.2 /
  // +0.0%). On the H100 two rounds at N = 64 are R3's whole gain (back at one: R3 +5.0%,
  // session 73 call 5). Open: on the H200, whose SM's own rate binds, R3 read +8.1% against the
  // record before two rounds (session 72); bench/results/logs/2026-12-07-s73-call-next.sh A/Bs it.
  static constexpr int kStateDtDepth = 2;
  static constexpr bool kFp16TwoHeadN128 =
      std::is_same_v<Element, cutlass::half_t> && kN == 128 && kHeadsPerCta == 2;
  template <bool kGateZ>
  static constexpr int kMainDtDepth = !kGateZ && kN != 256 && !kFp16TwoHeadN128 ? 2 : 1;
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
  // keeps the plain recurrence too: there the consumers' branch spilled 8 bytes (248
  // registers; with the spill it measured 0.796 -> 0.779), and without the spill (session 55,
  // after session 54's warpgroup broadcast; API A/B on an H100, call 7) it read 8k +0.3%, 32k
  // +0.9%, 512 z -1.3%: nothing to take (bench/results/logs/2026-12-06-s55-patches/n256_fold.patch).
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
  // each (kStateStages; producer_sm90.cuh).
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
    // thread): head slices per group, sets of kHeadsPerCta of them in all.
    int slices_per_group, head_sets;
    // Divisors precomputed (make_params; the split counts by set_splits): an integer division
    // by a run-time value is ~20 instructions, and the consumers decompose every item before
    // its first tile (WorkScheduler::divmod). The sets per group live only as their divisor.
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
    int64_t fin_ss;               // 0, or (split_fixup) the split states' stride per split
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
    // The windowed state pass (split_fixup.h): each (b, h, split)'s window's first tile, (b, H,
    // num_splits - 1); null: every run over its whole tiles.
    const int* state_window;
    // The split schemes' choice on the device (split_fixup.h: fixup_chosen; null counter: the
    // state pass). With more than one split the main pass writes each split's end state
    // through final_states (set to the end states, fin_ss per split); with the fix-up chosen it
    // starts every split but the first from a zero state, and the state pass does nothing.
    const unsigned long long* window_tiles;
    int64_t fixup_budget;
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
    p.head_sets_div = cutlass::FastDivmod(p.head_sets);
    p.sets_per_group_div = cutlass::FastDivmod(p.head_sets / groups);
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

}  // namespace flashssd::sm90
