// The Hopper forward's persistent tile scheduler (work items of the main pass and the state pass).
#pragma once

#include <cutlass/fast_math.h>

#include "kernels/common/cu_seqlens.cuh"

namespace flashssd::sm90 {

using namespace cute;

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
    bool restarts;  // (windowed state pass) its window starts after the run's start: see windowed_run()
    __device__ int head_slice(int k) const { return h0 + min(k, active - 1); }  // what slot k computes
  };
  const typename K::Params& p;
  __device__ bool varlen() const { return kStatePass && p.varlen_pass; }
  // The state pass's runs (state_runs per split, all splits but the last) or the splits.
  __device__ int splits() const { return kStatePass ? (p.num_splits - 1) * p.state_runs : p.num_splits; }
  __device__ int run_tiles() const { return kStatePass ? p.state_run_tiles : p.split_len / K::kQ; }
  // q = n / d, r = n % d for d one of the Params' counts, by its precomputed divisor. A
  // division by a run-time value is ~20 instructions, and the consumers decompose every item
  // before its first tile (~4% of R1's samples at 512 tokens, 8 tiles per item). With the
  // consumer's branch around the incoming state's loads this short item prologue read, through
  // the probe (session 35), 512 tokens -2.4%, z -2.6%, R3 z -3.4%, R1 8k +0.3..0.6%, 16k +1.1%;
  // at N = 256, where it spilled until session 54's warpgroup broadcast, through the API on an
  // H100 (session 55 call 8, 5 rounds): 512 tokens -2.1%, z -2.8%, fp16 -2.0%, 2k -0.3 / z
  // -0.5%, 8k +0.4 / z +0.0%, 32k +0.4%.
  __device__ static void divmod(int& q, int& r, int n, const cutlass::FastDivmod& fast) { fast(q, r, n); }
  // A head slice's head and 64-channel slice.
  __device__ void head_and_slice(int head_slice, int& h, int& slice) const { divmod(h, slice, head_slice, p.slices_div); }
  __device__ int head_of_slice(int head_slice) const {
    int h, slice;
    head_and_slice(head_slice, h, slice);
    return h;
  }
  __device__ int num_items() const { return (varlen() ? p.num_seqs : p.batch * splits()) * p.head_sets; }
  // Whether the item's slots are slices of one head (P = 128: a pair is a head's two slices;
  // a spare slot copies slot 0). They share the head's decay (SsdFwdRoles::kOneHeadDecay).
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
    divmod(batch_split, any_set, i, p.head_sets_div);
    divmod(w.grp, set, any_set, p.sets_per_group_div);
    w.h0 = w.grp * p.slices_per_group + set * K::kHeadsPerCta;
    w.active = min(K::kHeadsPerCta, p.slices_per_group - set * K::kHeadsPerCta);
    divmod(w.b, w.split, batch_split, kStatePass ? p.state_runs_div : p.splits_div);
    w.restarts = false;
    if (kStatePass && p.state_window && !varlen()) return windowed_run(w, batch_split);
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
  // The windowed state pass (split_fixup.h; one CTA per item): the items in the order of the
  // runs from each split's end (run R - 1 of every (b, split, head set) first, where every
  // window ends), each clipped to the window of its heads, the longer: from the earliest of
  // their first tiles. A run that ends before it computes nothing (tiles 0); one that starts
  // before it `restarts` the boundary scan's chain (what comes before is below fp32's range).
  __device__ Item windowed_run(Item w, int batch_split) const {
    const int state_splits = p.num_splits - 1, per_run = p.batch * state_splits;
    const int from_end = batch_split / per_run, rest = batch_split % per_run;
    w.b = rest / state_splits;
    const int s = rest % state_splits;
    w.split = s * p.state_runs + (p.state_runs - 1 - from_end);
    const int run_begin = w.split * run_tiles(), run_end = run_begin + run_tiles();
    int window = run_end;
    for (int k = 0; k < K::kHeadsPerCta; ++k)
      window = min(window, p.state_window[(int64_t(w.b) * p.heads + head_of_slice(w.head_slice(k))) * state_splits + s]);
    w.tile_begin = max(run_begin, window);
    w.tiles = run_end - w.tile_begin;
    w.restarts = window > run_begin;
    return w;
  }
};

}  // namespace flashssd::sm90
