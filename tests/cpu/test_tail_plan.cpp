// The sm90 main pass's balanced last wave (src/kernels/sm90/tail_plan.h), checked on the
// host: every leftover tile is computed once, the handoffs chain each item's pieces, and a
// simulated run (a unit takes its tiles' time, a piece waits for its predecessor) ends no
// later than the balanced bound and before the unbalanced grid would.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "kernels/sm90/tail_plan.h"

namespace {

using flashssd::sm90::plan_tail;
using flashssd::sm90::tail_balances;
using flashssd::sm90::TailPiece;
using flashssd::sm90::TailPlan;

// Checks the plans of all CTAs; returns the simulated finish time of the slowest.
int64_t check_plans(int items, int ctas, int L) {
  const std::string what = "items " + std::to_string(items) + " ctas " + std::to_string(ctas) + " L " + std::to_string(L);
  const int n = items / ctas, first_leftover = n * ctas;
  const int64_t U = int64_t(items - first_leftover) * L;
  std::vector<TailPlan> plans;
  for (int c = 0; c < ctas; ++c) plans.push_back(plan_tail(items, ctas, c, L));
  // Coverage: whole items once each, leftover tiles once each.
  std::vector<int> whole_seen(first_leftover, 0);
  std::map<std::pair<int, int>, int> tile_seen;  // (item, tile) -> count
  for (int c = 0; c < ctas; ++c) {
    const TailPlan& plan = plans[c];
    int pieces = 0;
    for (const TailPiece& piece : plan.piece) pieces += piece.unit != TailPiece::kNone;
    EXPECT_EQ(plan.units, n + pieces) << what;
    for (int u = 0; u < plan.units; ++u) {
      bool is_piece = false;
      for (const TailPiece& piece : plan.piece) {
        if (piece.unit != u) continue;
        is_piece = true;
        EXPECT_GE(piece.item, first_leftover) << what;
        EXPECT_LT(piece.item, items) << what;
        EXPECT_GT(piece.tiles, 0) << what;
        for (int t = piece.tile_begin; t < piece.tile_begin + piece.tiles; ++t) ++tile_seen[{piece.item, t}];
      }
      if (!is_piece) {
        const int item = c + plan.whole_index(u) * ctas;
        EXPECT_TRUE(item >= 0 && item < first_leftover) << what << " cta " << c << " unit " << u;
        if (item >= 0 && item < first_leftover) ++whole_seen[item];
      }
    }
    int64_t tiles = int64_t(n) * L;
    for (const TailPiece& piece : plan.piece)
      if (piece.unit != TailPiece::kNone) tiles += piece.tiles;
    EXPECT_LE(tiles, int64_t(n) * L + (U + ctas - 1) / ctas) << what << " cta " << c;
  }
  for (int i = 0; i < first_leftover; ++i) EXPECT_EQ(whole_seen[i], 1) << what << " item " << i;
  EXPECT_EQ(int64_t(tile_seen.size()), U) << what;
  for (const auto& [key, count] : tile_seen) EXPECT_EQ(count, 1) << what << " item " << key.first << " tile " << key.second;
  // Handoffs: a piece that does not start its item receives in its own CTA's slot from the
  // piece (on a lower CTA) that ends where it starts; a piece that does not end its item
  // sends; every slot is written once.
  std::map<int, std::pair<int, const TailPiece*>> sender;  // slot -> (cta, piece)
  for (int c = 0; c < ctas; ++c)
    for (const TailPiece& piece : plans[c].piece) {
      if (piece.unit == TailPiece::kNone) continue;
      EXPECT_EQ(piece.in_slot >= 0, piece.tile_begin > 0) << what;
      if (piece.in_slot >= 0) EXPECT_EQ(piece.in_slot, c) << what;
      EXPECT_EQ(piece.out_slot >= 0, piece.tile_begin + piece.tiles < L) << what;
      if (piece.out_slot >= 0) {
        EXPECT_GT(piece.out_slot, c) << what;
        EXPECT_LT(piece.out_slot, ctas) << what;
        EXPECT_EQ(sender.count(piece.out_slot), 0u) << what;
        sender[piece.out_slot] = {c, &piece};
      }
    }
  for (int c = 0; c < ctas; ++c)
    for (const TailPiece& piece : plans[c].piece) {
      if (piece.unit == TailPiece::kNone || piece.in_slot < 0) continue;
      EXPECT_EQ(sender.count(c), 1u) << what;
      if (sender.count(c) != 1) continue;
      const TailPiece& from = *sender[c].second;
      EXPECT_EQ(from.item, piece.item) << what;
      EXPECT_EQ(from.tile_begin + from.tiles, piece.tile_begin) << what;
    }
  // Simulated run, CTAs in index order (a piece waits only for a lower CTA).
  std::map<int, int64_t> sent_at;  // slot -> time its state is written
  int64_t makespan = 0;
  for (int c = 0; c < ctas; ++c) {
    int64_t now = 0;
    for (int u = 0; u < plans[c].units; ++u) {
      const TailPiece* piece = nullptr;
      for (const TailPiece& pc : plans[c].piece)
        if (pc.unit == u) piece = &pc;
      if (!piece) {
        now += L;
        continue;
      }
      if (piece->in_slot >= 0) {
        EXPECT_EQ(sent_at.count(c), 1u) << what << ": cta " << c << " would wait for a later CTA";
        now = std::max(now, sent_at[c]);
      }
      now += piece->tiles;
      if (piece->out_slot >= 0) sent_at[piece->out_slot] = now;
    }
    makespan = std::max(makespan, now);
  }
  return makespan;
}

TEST(TailPlan, AppliesOnlyToAPartlyFilledLastWave) {
  EXPECT_FALSE(tail_balances(128, 132));  // one wave, partly filled: nothing to move
  EXPECT_FALSE(tail_balances(264, 132));  // exact waves
  EXPECT_TRUE(tail_balances(256, 132));
  EXPECT_TRUE(tail_balances(133, 132));
}

// R1's shapes on 132 SMs (65 536 tokens, 64 heads in pairs, 64-token tiles): 256 steps
// unbalanced, 249 balanced (248.2 on average).
TEST(TailPlan, R1ShapesReachTheAverage) {
  for (int seqlen : {512, 1024, 2048, 4096, 8192}) {
    const int items = 65536 / seqlen * 32, L = seqlen / 64;
    const int64_t makespan = check_plans(items, 132, L);
    EXPECT_LE(makespan, 249 + L / 16) << "seqlen " << seqlen;
    EXPECT_LT(makespan, 256) << "seqlen " << seqlen;
  }
}

// Odd shapes: few tiles per item, items just over a wave, ranges of under one tile (empty
// CTAs between an item's pieces), pieces that wait.
TEST(TailPlan, OddShapesCoverEveryTileOnce) {
  for (int ctas : {3, 7, 114, 132})
    for (int L : {1, 2, 3, 5, 8, 64, 129})
      for (int items : {ctas + 1, ctas + ctas / 2, 2 * ctas - 1, 3 * ctas + 2, 5 * ctas + ctas / 3}) {
        if (!tail_balances(items, ctas)) continue;
        const int n = items / ctas;
        const int64_t makespan = check_plans(items, ctas, L);
        EXPECT_LE(makespan, int64_t(n + 1) * L) << items << " items, " << ctas << " ctas, L " << L;
      }
}

}  // namespace
