// The main pass's balanced last wave (host and device; tests/cpu/test_tail_plan.cpp).
//
// The persistent grid walks whole work items by grid stride (WorkScheduler). With W items
// on G CTAs, W > G and W % G != 0, the last wave holds R = W % G items on R CTAs while the
// others idle: R1's shapes are 2^15 tile-steps of a CTA on 132 SMs, so the busiest CTA runs
// 256 steps against 248.2 on average (+3.1% at every seqlen from 512 to 8k; session 35).
//
// Balanced, the n = W / G whole waves stay as they are and the R leftover items' R * L
// tiles (L tiles per item) are dealt out evenly: CTA c takes leftover tiles
// [c U / G, (c + 1) U / G) with U = R * L, fewer than L, so at most two pieces: the end of
// one item (piece A) and the start of the next (piece B). A piece that does not start its
// item waits for the state its predecessor (on a lower CTA) hands off through global memory
// (a slot and a flag per receiving CTA), and a piece that does not end its item hands its
// state to its successor. No CTA then runs more than n L + ceil(U / G) tiles.
//
// Where a piece sits in its CTA's order: before whole item p = ceil(t0 n / L) (t0 its first
// tile within the item, so 0 < p <= n for a piece that continues an item). Its start, at
// >= p L tiles, is then >= t0 n, while its predecessor started at or before t0' n (t0' < t0)
// and is shorter than L: it has finished unless both share a place, which only pieces
// shorter than L / n do (so a wait is short). Piece B (t0 = 0) runs first. A wait points to
// a lower CTA at the same or an earlier place, so there is no cycle; the grid is persistent
// (one CTA per SM), its CTAs resident together.
#pragma once

#include <climits>
#include <cstdint>

#if defined(__CUDACC__)
#define FLASHSSD_HOST_DEVICE __host__ __device__
#else
#define FLASHSSD_HOST_DEVICE
#endif

namespace flashssd::sm90 {

struct TailPiece {
  static constexpr int kNone = INT_MAX;  // `unit` of an absent piece (compares above every unit)
  int unit = kNone;                      // its place in the CTA's order of units
  int item = -1;                         // the work item (WorkScheduler's numbering)
  int tile_begin = 0, tiles = 0;         // its tiles, relative to the item's first
  int in_slot = -1;                      // the handoff slot its incoming state arrives in, or -1
  int out_slot = -1;                     // the slot it hands its final state to, or -1
};

// One CTA's units: its n whole items by grid stride with pieces A and B (piece[0], piece[1])
// placed between them.
struct TailPlan {
  int units = 0;
  TailPiece piece[2];
  // The whole item that unit u (not a piece) is: the grid-stride index among the CTA's items.
  FLASHSSD_HOST_DEVICE int whole_index(int u) const { return u - (u > piece[0].unit) - (u > piece[1].unit); }
};

// Whether the main pass balances its last wave: items that fill more than one wave, but not
// an exact number of them.
FLASHSSD_HOST_DEVICE inline bool tail_balances(int64_t items, int64_t ctas) { return items > ctas && items % ctas != 0; }

// CTA `cta`'s plan among `ctas` (tail_balances(items, ctas)), items of `tiles_per_item` tiles.
FLASHSSD_HOST_DEVICE inline TailPlan plan_tail(int items, int ctas, int cta, int tiles_per_item) {
  TailPlan plan;
  const int n = items / ctas, first_leftover = n * ctas;
  const int64_t L = tiles_per_item, U = int64_t(items - first_leftover) * L;
  // The CTA whose leftover range holds leftover tile x: the largest c with c U / G <= x.
  auto cta_of = [&](int64_t x) { return int(((x + 1) * ctas + U - 1) / U - 1); };
  const int64_t lo = int64_t(cta) * U / ctas, hi = int64_t(cta + 1) * U / ctas;
  int pieces = 0;
  auto add = [&](int64_t begin, int64_t end) {  // leftover tiles [begin, end) of one item
    const int64_t r = begin / L, t0 = begin - r * L;
    TailPiece& piece = plan.piece[pieces++];
    piece.item = first_leftover + int(r);
    piece.tile_begin = int(t0);
    piece.tiles = int(end - begin);
    piece.in_slot = t0 > 0 ? cta : -1;
    piece.out_slot = end < (r + 1) * L ? cta_of(end) : -1;
    piece.unit = int((t0 * n + L - 1) / L);  // before whole item p = ceil(t0 n / L) (B: below)
  };
  if (lo < hi) {
    const int64_t item_end = (lo / L + 1) * L;
    add(lo, hi < item_end ? hi : item_end);               // A: the end of the item at lo
    if (hi > item_end) add(item_end, hi);                  // B: the start of the next
  }
  // B starts its item (place 0) and runs first; A's place moves behind it.
  if (pieces == 2) plan.piece[0].unit += 1;
  plan.units = n + pieces;
  return plan;
}

}  // namespace flashssd::sm90
