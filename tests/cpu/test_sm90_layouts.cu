// Fragment-layout facts of the sm90 forward (src/kernels/sm90/fragments_sm90.cuh),
// checked on the host for every thread of the warpgroup: CuTe's layouts are the
// same functions on the host and the device, so this runs in CI without a GPU.
// The kernel applies segsum.cuh's m16n8-order mask to WGMMA accumulators and feeds
// the S accumulator to an RS WGMMA register by register; both rest on these facts.
#include <gtest/gtest.h>

#include <cfloat>
#include <climits>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "kernels/sm90/fixup_layout.h"
#include "kernels/sm90/ssd_fwd_sm90.cuh"

namespace {

template <class K>
void expect_layout_facts() {
  for (int tid = 0; tid < K::kWarpgroupThreads; ++tid)
    EXPECT_EQ(flashssd::sm90::fragment_layout_mismatches<K>(tid), 0) << "thread " << tid;
}

TEST(Sm90Layouts, AccumulatorsFollowTheM16n8OrderN128) { expect_layout_facts<flashssd::sm90::SsdFwdSm90<64, 128>>(); }
TEST(Sm90Layouts, AccumulatorsFollowTheM16n8OrderN64) { expect_layout_facts<flashssd::sm90::SsdFwdSm90<64, 64>>(); }
TEST(Sm90Layouts, AccumulatorsFollowTheM16n8OrderN256) { expect_layout_facts<flashssd::sm90::SsdFwdSm90<64, 256, 1>>(); }

// The state update reads the stage's B tile as an (n, token) MN-major operand in place,
// and the kernel's threads address x, y / z and S' by K::x_offset / y_offset / scores_offset: all
// must agree with the CuTe layouts TMA and WGMMA use. CuTe swizzles byte addresses
// (swizzle_ptr), so the reference is the swizzle applied to the unswizzled byte offset.
template <class Layout>
int byte_offset(const Layout& l, int i, int j) {
  return int(l.layout_a()(2 * int(l.layout_b()(i, j))));
}

template <class K>
void expect_aliasing_facts() {
  typename K::LayoutBC bc;
  typename K::LayoutBt bt;
  typename K::LayoutX lx;
  typename K::LayoutY ly;
  typename K::LayoutScores ls;
  int bad_bt = 0, bad_x = 0, bad_y = 0, bad_s = 0;
  for (int tok = 0; tok < K::kQ; ++tok) {
    for (int n = 0; n < K::kN; ++n) bad_bt += byte_offset(bt, n, tok) != byte_offset(bc, tok, n);
    for (int p = 0; p < K::kP; ++p) {
      bad_x += int(K::x_offset(tok, p)) != byte_offset(lx, p, tok);
      bad_y += int(K::y_offset(tok, p)) != byte_offset(ly, tok, p);
    }
  }
  int bad_bc = 0;
  for (int tok = 0; tok < K::kQ; ++tok)
    for (int n = 0; n < K::kN; ++n) bad_bc += int(K::bc_offset(tok, n)) != byte_offset(bc, tok, n);
  EXPECT_EQ(bad_bc, 0) << "bc_offset disagrees with LayoutBC";
  for (int i = 0; i < K::kQ; ++i)
    for (int j = 0; j < K::kQ; ++j) bad_s += int(K::scores_offset(i, j)) != byte_offset(ls, i, j);
  EXPECT_EQ(bad_bt, 0) << "LayoutBt does not alias LayoutBC";
  EXPECT_EQ(bad_x, 0) << "x_offset disagrees with LayoutX";
  EXPECT_EQ(bad_y, 0) << "y_offset disagrees with LayoutY";
  EXPECT_EQ(bad_s, 0) << "scores_offset disagrees with LayoutScores";
}

TEST(Sm90Layouts, TileOffsetsMatchCuTeN128) { expect_aliasing_facts<flashssd::sm90::SsdFwdSm90<64, 128>>(); }
TEST(Sm90Layouts, TileOffsetsMatchCuTeN64) { expect_aliasing_facts<flashssd::sm90::SsdFwdSm90<64, 64>>(); }
TEST(Sm90Layouts, TileOffsetsMatchCuTeN256) { expect_aliasing_facts<flashssd::sm90::SsdFwdSm90<64, 256, 1>>(); }

// ldmatrix / stmatrix .x4 (MatrixRows): register m of lane l is row l / 4, bytes 4 (l % 4) .. + 3,
// of matrix m, whose row r lives at the address lane 8 m + r gives. Composed with a tile's
// offset function, every pair must land where the accumulator order (AccCoord) puts it.
template <class Rows, class Offset>
int matrix_pair_mismatches(Offset offset, int groups) {
  int bad = 0;
  for (int warp = 0; warp < 4; ++warp)
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < groups; ++j)
        for (int m = 0; m < 4; ++m) {
          const int g = lane / 4, q = lane % 4, k = 4 * j + m, i = 2 * k;
          const int giver = 8 * m + g;  // the lane that names this row of matrix m
          const uint32_t got = offset(Rows::row(warp, giver), Rows::col(giver, j)) + 4 * q;
          const uint32_t want = offset(Rows::pair_row(warp, g, (i / 2) % 2), 8 * (i / 4) + 2 * q);
          bad += got != want;
        }
  return bad;
}

// ldmatrix / stmatrix .x4.trans: register m of lane l holds, of matrix m, the elements at byte
// 2 (l / 4) of the memory rows 2 (l % 4) and 2 (l % 4) + 1, named by lanes 8 m + 2 (l % 4) (+ 1).
// For a (token, p) tile seen as (p, token) registers (x read as X^T, z read and y written in
// Y^T's order; operand row p, column token = memory row), the pair must be operand (row,
// column), (row, column + 1) of the accumulator order.
template <class Rows, class K, class Offset>
int transposed_pair_mismatches(Offset offset) {
  int bad = 0;
  for (int warp = 0; warp < 4; ++warp)
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < K::kQ / 16; ++j)
        for (int m = 0; m < 4; ++m)
          for (int e = 0; e < 2; ++e) {
            const int g = lane / 4, q = lane % 4, i = 2 * (4 * j + m) + e;
            const int giver = 8 * m + 2 * q + e;  // names memory row 2 q + e of matrix m
            const uint32_t got = offset(Rows::trans_col(giver, j), Rows::trans_row(warp, giver)) + 2 * g;
            const int p = 16 * warp + g + 8 * ((i / 2) % 2), token = 8 * (i / 4) + 2 * q + i % 2;
            bad += got != offset(token, p);
          }
  return bad;
}

template <class K>
void expect_matrix_rows_facts() {
  using Rows = flashssd::sm90::MatrixRows;
  EXPECT_EQ((transposed_pair_mismatches<Rows, K>(K::x_offset)), 0) << "x read as X^T";
  EXPECT_EQ((transposed_pair_mismatches<Rows, K>(K::y_offset)), 0) << "y / z as Y^T pairs";
  // S and S' in either row assignment: the m16n8 rows (a WGMMA accumulator's) and the
  // balanced blocks w, 7 - w (the chunk scores', read from and written to shared memory).
  using Standard = flashssd::sm90::ScoreRows<K::kQ, false>;
  using Balanced = flashssd::sm90::ScoreRows<K::kQ, true>;
  EXPECT_EQ(matrix_pair_mismatches<Standard>(K::scores_offset, K::kQ / 16), 0) << "S' pairs, m16n8 rows";
  EXPECT_EQ(matrix_pair_mismatches<Balanced>(K::scores_offset, K::kQ / 16), 0) << "S' pairs, balanced rows";
  // C read by ldmatrix as S's register A operand (token, n), in the balanced rows.
  EXPECT_EQ(matrix_pair_mismatches<Balanced>(K::bc_offset, K::kN / 16), 0) << "C pairs, balanced rows";
  for (int warp = 0; warp < 4; ++warp)
    for (int g = 0; g < 8; ++g)
      for (int half = 0; half < 2; ++half)
        EXPECT_EQ(Standard::pair_row(warp, g, half), 16 * warp + g + 8 * half) << "the m16n8 order of an accumulator";
}

// The balanced rows cover the tile once, give every warp the same number of causal (row block,
// n-tile) pairs to mask, and each warp loads every column group its rows reach.
TEST(Sm90Layouts, BalancedScoreRowsShareTheMaskEvenly) {
  using Balanced = flashssd::sm90::ScoreRows<64, true>;
  using Standard = flashssd::sm90::ScoreRows<64, false>;
  int seen[64] = {};
  for (int warp = 0; warp < 4; ++warp) {
    int balanced = 0, standard = 0;
    for (int half = 0; half < 2; ++half) {
      balanced += Balanced::block(warp, half) + 1;  // n-tiles 0 .. block
      standard += Standard::block(warp, half) + 1;
      for (int g = 0; g < 8; ++g) ++seen[Balanced::pair_row(warp, g, half)];
    }
    EXPECT_EQ(balanced, 9) << "warp " << warp;
    EXPECT_EQ(standard, 4 * warp + 3) << "warp " << warp;
    for (int j = 0; j < 4; ++j) {
      const int last_block = std::max(Balanced::block(warp, 0), Balanced::block(warp, 1));
      EXPECT_EQ(Balanced::last_block(warp), last_block) << "warp " << warp;
      EXPECT_EQ(Standard::last_block(warp), std::max(Standard::block(warp, 0), Standard::block(warp, 1))) << "warp " << warp;
      EXPECT_EQ(Balanced::reaches(warp, j), 16 * j <= 8 * last_block + 7) << "warp " << warp << " group " << j;
    }
  }
  for (int r = 0; r < 64; ++r) EXPECT_EQ(seen[r], 1) << "row " << r;
}

TEST(Sm90Layouts, MatrixRowsPutPairsInAccumulatorOrderN128) { expect_matrix_rows_facts<flashssd::sm90::SsdFwdSm90<64, 128>>(); }
TEST(Sm90Layouts, MatrixRowsPutPairsInAccumulatorOrderN64) { expect_matrix_rows_facts<flashssd::sm90::SsdFwdSm90<64, 64>>(); }

// The check can fail: matrices taken in the other order (n-tile first, then row half).
TEST(Sm90Layouts, MatrixRowsCheckDetectsSwappedMatrices) {
  struct Swapped {
    static int row(int warp, int lane) { return 16 * warp + 8 * (lane / 16) + lane % 8; }
    static int col(int lane, int j) { return 8 * (2 * j + lane / 8 % 2); }
    static int pair_row(int warp, int g, int half) { return 16 * warp + g + 8 * half; }
  };
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  EXPECT_GT(matrix_pair_mismatches<Swapped>(K::scores_offset, K::kQ / 16), 0);
}

// The transposed check can fail: the two 8-row halves of the operand swapped.
TEST(Sm90Layouts, TransposedRowsCheckDetectsSwappedHalves) {
  struct Swapped {
    static int trans_row(int warp, int lane) { return 16 * warp + 8 * (lane / 16); }
    static int trans_col(int lane, int j) { return 8 * (2 * j + lane / 8 % 2) + lane % 8; }
  };
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  EXPECT_GT((transposed_pair_mismatches<Swapped, K>(K::y_offset)), 0);
}

// The check can fail: a thread's fragment seen from another thread's coordinates.
TEST(Sm90Layouts, CheckDetectsAWrongThread) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  using namespace cute;
  typename K::MmaS mma;
  Tensor c0 = mma.get_thread_slice(0).partition_C(make_identity_tensor(Shape<typename K::TQ, typename K::TQ>{}));
  Tensor c1 = mma.get_thread_slice(1).partition_C(make_identity_tensor(Shape<typename K::TQ, typename K::TQ>{}));
  EXPECT_NE(get<1>(c0(0)), get<1>(c1(0)));  // lanes 0 and 1 differ in the column pair q
  EXPECT_EQ(get<1>(c1(0)), 2);
  EXPECT_EQ(get<0>(c1(0)), 0);
}

// Work items per (batch, split): the launcher's grid and the kernel's scheduler both use it.
// One head (a set of one) must still be one item: a grid of 0 CTAs is a launch error.
TEST(Sm90Scheduling, HeadSetsCoverEveryHead) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  EXPECT_EQ(K::head_sets(1, 1), 1);
  EXPECT_EQ(K::head_sets(64, 1), 32);
  EXPECT_EQ(K::head_sets(64, 64), 64);  // one head per group: every set has a spare slot
  EXPECT_EQ(K::head_sets(6, 2), 4);     // three per group: two sets each, the second short
  // Head dim 128: the scheduler counts head slices (heads * P / 64), so a head's two slices
  // form one set and no slot idles, even with one head per group.
  EXPECT_EQ(K::head_sets(3 * 2, 3), 3);
  EXPECT_EQ(K::head_sets(32 * 2, 1), 32);  // R3: one set per head
  using OneHeadPerCta = flashssd::sm90::SsdFwdSm90<64, 128, 1>;
  EXPECT_EQ(OneHeadPerCta::head_sets(6, 2), 6);
}

// The scheduler's precomputed divisors (Params::head_sets_div..., WorkScheduler::divmod) give
// the quotients and remainders of plain division over the work-item range, and set_splits keeps
// the split divisors with the counts (a stale one would send items to the wrong split).
TEST(Sm90Scheduling, PrecomputedDivisorsMatchDivision) {
  for (int d : {1, 2, 3, 4, 7, 32, 33, 64, 127, 128, 132, 255, 4096, 65535}) {
    const cutlass::FastDivmod fast(d);
    for (int n : {0, 1, d - 1, d, d + 1, 2 * d + 3, 131071, 4224 * 37 + 5, INT32_MAX / 2, INT32_MAX - 1, INT32_MAX}) {
      if (n < 0) continue;
      int q = -1, r = -1;
      fast(q, r, n);
      EXPECT_EQ(q, n / d) << n << " / " << d;
      EXPECT_EQ(r, n % d) << n << " % " << d;
    }
  }
}

TEST(Sm90Scheduling, SetSplitsKeepsTheDivisorsInStep) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  K::Params p{};
  K::set_splits(p, 4, 2048, 2);
  EXPECT_EQ(p.num_splits, 4);
  EXPECT_EQ(p.splits_div.divisor, 4);
  EXPECT_EQ(p.state_runs_div.divisor, 6);  // (4 - 1) splits x 2 runs
  EXPECT_EQ(p.state_run_tiles, 16);        // 2048 / 64 / 2
  K::set_splits(p, 1, 512, 1);
  EXPECT_EQ(p.splits_div.divisor, 1);
  EXPECT_EQ(p.state_runs_div.divisor, 1);  // (no state pass: never 0)
  EXPECT_THROW(K::set_splits(p, 2, 100, 1), std::invalid_argument);   // not a multiple of 64 tokens
  EXPECT_THROW(K::set_splits(p, 2, 2048, 3), std::invalid_argument);  // 3 runs do not divide 32 tiles
  EXPECT_THROW(K::set_splits(p, 0, 2048, 1), std::invalid_argument);
}

// make_params refuses a head dim that is not made of 64-channel slices (checked before any
// TMA descriptor is encoded, so no GPU is needed).
TEST(Sm90Scheduling, HeadDimMustBeSlicesOf64) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  const int64_t s[3] = {8, 8, 8};
  using E = K::Element;
  EXPECT_THROW(K::make_params(static_cast<const E*>(nullptr), s, nullptr, s, nullptr, s, nullptr, s, 1, 64, 1, 1, 96),
               std::invalid_argument);
  EXPECT_THROW(K::make_params(static_cast<const E*>(nullptr), s, nullptr, s, nullptr, s, nullptr, s, 1, 64, 1, 1, 32),
               std::invalid_argument);
}

// Shared memory of the two passes: the state pass's stages (no C, z, y or S' tiles) leave
// room for two producer rounds of two stages, the main pass has 3 stages where they fit (N = 64,
// with the gate since its decay record dropped two unread fields), and every pass fits a Hopper CTA.
template <class K>
void expect_storage_facts(int state_stages, int main_stages_ungated, int main_stages_gated = 2) {
  EXPECT_EQ(K::kStateStages, state_stages);
  EXPECT_GE(K::kStateStages, 4);
  EXPECT_EQ(K::template kMainStages<false>, main_stages_ungated);
  EXPECT_EQ(K::template kMainStages<true>, main_stages_gated);
  EXPECT_LE((K::template kSmemBytes<true, false>), K::kMaxSmemBytes);
  EXPECT_LE((K::template kSmemBytes<false, false>), K::kMaxSmemBytes);
  EXPECT_LE((K::template kSmemBytes<false, true>), K::kMaxSmemBytes);
  EXPECT_LT(sizeof(typename K::template StageT<false, false>), sizeof(typename K::template StageT<true, false>));
  EXPECT_LT(sizeof(typename K::template StageT<true, false>), sizeof(typename K::template StageT<true, true>));
  // The ungated kernel's stages hold no z tile where it has three, and are the gated ones
  // otherwise (the smaller storage alone was measured slower).
  using Ungated = typename K::template SharedStorageT<false, false>;
  const size_t ungated_stage = sizeof(std::declval<Ungated&>().stage) / Ungated::kNumStages;
  EXPECT_EQ(Ungated::kNumStages, main_stages_ungated);
  EXPECT_EQ(ungated_stage, main_stages_ungated == 2 ? sizeof(typename K::template StageT<true, true>)
                                                     : sizeof(typename K::template StageT<true, false>));
  if (main_stages_ungated == 2) EXPECT_EQ((K::template kSmemBytes<false, false>), (K::template kSmemBytes<false, true>));
  // One output buffer per consumer (the ungated factored kernel): its y tile, which an exact
  // tile's S' shares, and no S' tile of its own; the gated kernel keeps two y buffers and S'.
  using Gated = typename K::template SharedStorageT<false, true>;
  const size_t y_tile = sizeof(std::declval<Gated&>().consumer[0].y[0]);
  EXPECT_FALSE(K::template kOneOutputBuffer<true>);
  EXPECT_EQ(sizeof(std::declval<Gated&>().consumer[0]), 3 * y_tile);
  EXPECT_EQ(sizeof(std::declval<Ungated&>().consumer[0]), (K::template kOneOutputBuffer<false> ? 1 : 3) * y_tile +
                                                              (K::template kOneOutputBuffer<false> ? 1024 : 0));
}
TEST(Sm90Layouts, StatePassStorageN64) { expect_storage_facts<flashssd::sm90::SsdFwdSm90<64, 64>>(6, 3, 3); }
// The bf16 N = 128 kernels: a third stage for the ungated main pass by its one output buffer.
TEST(Sm90Layouts, StatePassStorageN128) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  EXPECT_TRUE(K::kOneOutputBuffer<false>);
  expect_storage_facts<K>(6, 3);
}
TEST(Sm90Layouts, StatePassStorageN128Fp16) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128, 2, cutlass::half_t>;
  EXPECT_FALSE(K::kOneOutputBuffer<false>);
  expect_storage_facts<K>(6, 2);
}
TEST(Sm90Layouts, StatePassStorageN256) { expect_storage_facts<flashssd::sm90::SsdFwdSm90<64, 256, 1>>(5, 2); }

// The bytes a main-pass stage expects from TMA are the tiles it holds: x (and z) per head, B,
// C and, where the kernel reads them (N = 128, 256), the chunk scores (a mismatch would leave
// the stage's barrier waiting forever). The state pass loads x and B only.
template <class K>
void expect_stage_bytes(bool chunk_scores) {
  EXPECT_EQ(K::kChunkScores, chunk_scores);
  using Stage = typename K::template StageT<true, true>;  // the gated kernel's (holds z)
  const size_t x = K::kHeadsPerCta * sizeof(Stage::x[0]), bc = sizeof(Stage::b), z = K::kHeadsPerCta * sizeof(Stage::z[0]);
  const size_t scores = chunk_scores ? sizeof(Stage::scores) : 0;
  EXPECT_EQ(sizeof(Stage::c), bc);
  EXPECT_EQ(K::tx_bytes(true, false), x + 2 * bc + scores);
  EXPECT_EQ(K::tx_bytes(true, true), x + z + 2 * bc + scores);
  EXPECT_EQ(K::tx_bytes(false, false), x + bc);
  if (chunk_scores) EXPECT_EQ(sizeof(Stage::scores), size_t(64 * 64 * 2));
}
TEST(Sm90Layouts, StageBytesN64) { expect_stage_bytes<flashssd::sm90::SsdFwdSm90<64, 64>>(false); }
TEST(Sm90Layouts, StageBytesN128) { expect_stage_bytes<flashssd::sm90::SsdFwdSm90<64, 128>>(true); }
TEST(Sm90Layouts, StageBytesN256) { expect_stage_bytes<flashssd::sm90::SsdFwdSm90<64, 256, 1>>(true); }

// The chunk scores' tile scale: a power of two that brings the largest |S| below 2^14 (fp16
// holds it with its 11-bit mantissa), within fp32's normal range; 1 for zero or non-finite.
TEST(Sm90Layouts, ChunkScoreScale) {
  using flashssd::sm90::chunk_score_scale;
  for (float amax : {1e-30f, 1e-7f, 0.75f, 1.f, 3.f, 16383.f, 16384.f, 65504.f, 1e7f, 3e38f}) {
    const float scale = chunk_score_scale(amax);
    int e = 0;
    EXPECT_EQ(std::frexp(scale, &e), 0.5f) << amax;  // a power of two
    EXPECT_LT(double(amax) * scale, 16384.0) << amax;
    EXPECT_GE(double(amax) * scale, 8192.0) << amax;  // and the largest such: fp16's precision used
    EXPECT_TRUE(std::isfinite(1.f / scale)) << amax;
  }
  EXPECT_EQ(chunk_score_scale(0.f), 1.f);
  EXPECT_EQ(chunk_score_scale(INFINITY), 1.f);
  EXPECT_EQ(chunk_score_scale(NAN), 1.f);
  // Below 2^-112 the exponent clamps at 2^126: the product stays below 2^14 (smaller, not wrong).
  EXPECT_EQ(chunk_score_scale(1e-40f), std::ldexp(1.f, 126));
  EXPECT_EQ(chunk_score_scale(FLT_MAX), std::ldexp(1.f, 14 - 128));
}

// The main pass applies a tile's inverse scale to the mask's factors (apply_decay_mask's
// kScaled: u_i and the diagonal block's L_ij dt_j), not to S: with a power-of-two scale the
// products are bitwise the same as scaling S first while the scaled factors stay normal: here
// u in [1e-6, 1], dt up to 100, S from the fp16 tile (|S| scale < 2^14), tiles from |S| 1e-7
// to 1e7 (with u * scale subnormal, e.g. |S| < 2^-112 or u < 2^-89 at |S| ~ 1e-7, the last
// bits of products under ~1e-34 may differ).
TEST(Sm90Layouts, ScaledMaskFactorsAreExact) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> unit(0.f, 1.f), mantissa(-1.f, 1.f);
  int mismatches = 0;
  for (float amax : {1e-7f, 3e-3f, 1.f, 300.f, 1e7f}) {
    const float scale = flashssd::sm90::chunk_score_scale(amax), inv = 1.f / scale;
    for (int k = 0; k < 20000; ++k) {
      const float s = float(__half(mantissa(rng) * amax * scale));  // the stored fp16 value
      const float u = std::max(unit(rng), 1e-6f), g = unit(rng) * 100.f, diag = unit(rng) * 100.f;
      const float first = (s * inv) * (u * g), folded = s * ((u * inv) * g);  // rank-one block
      const float first_d = (s * inv) * diag, folded_d = s * (diag * inv);     // diagonal block
      mismatches += std::memcmp(&first, &folded, 4) != 0;
      mismatches += std::memcmp(&first_d, &folded_d, 4) != 0;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// The chunk scores' size: (batch, groups, ceil(T / 64)) tiles of 64 x 64.
TEST(Sm90Layouts, ChunkScoresElements) {
  EXPECT_EQ(flashssd::sm90::chunk_scores_elements(2, 200, 3), size_t(2 * 3 * 4 * 64 * 64));
  EXPECT_EQ(flashssd::sm90::chunk_scores_elements(1, 64, 1), size_t(64 * 64));
  EXPECT_EQ(flashssd::sm90::chunk_scores_elements(1, 0, 1), size_t(0));
}

// The chunk scores pass (chunk_scores_sm90.cuh) multiplies with the forward's S MMA on the
// forward's B / C tiles, so the accumulator facts above (m16n8 order: its mask and its pairs'
// addresses rest on them) hold for it; its threads write the output tile by out_offset, which
// must agree with the CuTe layout the TMA store reads, without bank conflicts.
template <class T, int kN, class Out, class Fwd>
void expect_chunk_scores_facts(int stages, int ctas_per_sm) {
  using CS = flashssd::sm90::ChunkScoresSm90<T, kN, Out>;
  EXPECT_TRUE((std::is_same_v<typename CS::Mma, typename Fwd::MmaS>)) << "the forward's S MMA";
  EXPECT_TRUE((std::is_same_v<typename CS::LayoutBC, typename Fwd::LayoutBC>)) << "the forward's B / C tiles";
  typename CS::LayoutOut lo;
  int bad = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) bad += int(CS::out_offset(i, j)) != byte_offset(lo, i, j);
  EXPECT_EQ(bad, 0) << "out_offset disagrees with LayoutOut";
  // Each 4-byte store of accumulator pair i by a warp: lane (g, q) writes row 16 w + g + 8 ((i / 2)
  // % 2), column 8 (i / 4) + 2 q. The 32 lanes' words must fall in 32 distinct banks.
  int conflicted = 0;
  for (int w = 0; w < 4; ++w)
    for (int i = 0; i < 32; i += 2) {
      unsigned banks = 0;
      for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, q = lane % 4;
        banks |= 1u << (CS::out_offset(16 * w + g + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * q) / 4 % 32);
      }
      conflicted += banks != 0xffffffffu;
    }
  EXPECT_EQ(conflicted, 0) << "stores of the output tile with bank conflicts";
  EXPECT_EQ(CS::kStages, stages);
  EXPECT_EQ(CS::kCtasPerSm, ctas_per_sm);
}

TEST(Sm90Layouts, ChunkScoresPassBf16N128) {
  expect_chunk_scores_facts<__nv_bfloat16, 128, __nv_bfloat16, flashssd::sm90::SsdFwdSm90<64, 128>>(3, 2);
  expect_chunk_scores_facts<__nv_bfloat16, 128, __half, flashssd::sm90::SsdFwdSm90<64, 128>>(3, 2);
}
TEST(Sm90Layouts, ChunkScoresPassFp16N256) {
  expect_chunk_scores_facts<__half, 256, __half, flashssd::sm90::SsdFwdSm90<64, 256, 1, cutlass::half_t>>(3, 1);
}
TEST(Sm90Layouts, ChunkScoresPassBf16N64) {
  expect_chunk_scores_facts<__nv_bfloat16, 64, __half, flashssd::sm90::SsdFwdSm90<64, 64>>(6, 2);
}

// The split fix-up's operand layout (fixup_layout.h; split_fixup.cu, kernel 4).
using flashssd::sm90::fixup_channel;
using flashssd::sm90::fixup_h_column;
using flashssd::sm90::kFixupPad;
using flashssd::sm90::kFixupSliceChannels;
using flashssd::sm90::kFixupSliceJ;

// Thread q's accumulator columns 2q, 2q + 1 of tiles j = 0..3 are channels 8q .. 8q + 7 in word
// order (its y and z move as one 16-byte vector), and the columns of all tiles cover the slice once.
TEST(FixupLayout, EachThreadHoldsEightAdjacentChannels) {
  unsigned long long seen = 0;
  for (int n = 0; n < 8; ++n)
    for (int j = 0; j < kFixupSliceJ; ++j) {
      const int c = fixup_channel(n, j);
      ASSERT_GE(c, 0);
      ASSERT_LT(c, kFixupSliceChannels);
      EXPECT_FALSE(seen >> c & 1) << "channel " << c << " twice";
      seen |= 1ull << c;
    }
  EXPECT_EQ(seen, (1ull << kFixupSliceChannels) - 1);
  for (int q = 0; q < 4; ++q)
    for (int j = 0; j < kFixupSliceJ; ++j) {
      EXPECT_EQ(fixup_channel(2 * q, j), 8 * q + 2 * j) << "q " << q << " j " << j;
      EXPECT_EQ(fixup_channel(2 * q + 1, j), 8 * q + 2 * j + 1) << "q " << q << " j " << j;
    }
}

// h_in's swizzle permutes each row's 16-byte chunks (no two elements share a place, none leaves
// the row, a chunk's 8 elements stay together and in order: the staging's 8-byte stores stay
// aligned), and keeps the chunk pair of a 16-wide k step together (k and k + 8 stay 8 apart).
TEST(FixupLayout, HColumnsPermuteEachRowsChunks) {
  for (int N : {64, 128, 256})
    for (int row = 0; row < 128; ++row) {
      std::vector<int> hits(N, 0);
      for (int col = 0; col < N; ++col) {
        const int at = fixup_h_column(row, col);
        ASSERT_GE(at, 0);
        ASSERT_LT(at, N) << "N " << N << " row " << row << " col " << col;
        ++hits[at];
        EXPECT_EQ(at % 8, col % 8);
        if ((col / 8) % 2 == 0) EXPECT_EQ(fixup_h_column(row, col + 8), at + 8);
      }
      EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), N) << "N " << N << " row " << row;
    }
}

// The B fragment loads of a warp: lane (g, q) reads h_in row slice + fixup_channel(g, j) at
// columns k0 + 2q and k0 + 8 + 2q (as stored, through the swizzle the kernel takes from the
// thread's tile-0 row). The 32 lanes' words fall in 32 distinct banks, for every slice, tile, k
// step and state size.
TEST(FixupLayout, HFragmentLoadsAreFreeOfBankConflicts) {
  int conflicted = 0, mismatched = 0;
  for (int N : {64, 128, 256})
    for (int slice = 0; slice < 128; slice += kFixupSliceChannels)
      for (int j = 0; j < kFixupSliceJ; ++j)
        for (int k0 = 0; k0 < N; k0 += 16)
          for (int upper = 0; upper < 2; ++upper) {
            unsigned banks = 0;
            for (int lane = 0; lane < 32; ++lane) {
              const int g = lane / 4, q = lane % 4, row = slice + fixup_channel(g, j);
              const int kernel_col = fixup_h_column(slice + fixup_channel(g, 0), k0 + 2 * q) + 8 * upper;
              mismatched += kernel_col != fixup_h_column(row, k0 + 8 * upper + 2 * q);
              const int element = row * (N + kFixupPad) + kernel_col;
              banks |= 1u << (element * 2 / 4 % 32);
            }
            conflicted += banks != 0xffffffffu;
          }
  EXPECT_EQ(mismatched, 0) << "the kernel's column (from tile 0's row) is not the row's own";
  EXPECT_EQ(conflicted, 0) << "B fragment loads with bank conflicts";
}

}  // namespace
