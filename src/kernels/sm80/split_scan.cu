// Small kernels around the main pass that do not depend on the tile shape:
// compiled once, declared in ssd_fwd_sm80.h.
#include "kernels/common/cu_seqlens.cuh"
#include "kernels/common/programmatic_launch.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"
#include "kernels/sm90/split_fixup.h"

namespace flashssd::sm80 {

// in(0) = initial state (or 0); in(s + 1) = decay(s) * in(s) + local(s). Slot s of
// split_states holds local(s) on entry and in(s + 1) on exit. With state_runs > 1 (sm90)
// local(s) and decay(s) are those of the split's last run, and its earlier runs
// (run_states, run_decay) are chained in before it. One thread per state element (blocks
// of kScanThreads elements of one (batch, head)), sequential over the splits and runs
// (there are few): a grid of (batch x heads, P N / kScanThreads) blocks, so that every
// element's loads are in flight at once (one block per head looped over its 8192
// elements, which took 48 us at R4 under ncu; session 10).
constexpr int kScanThreads = 256;
__global__ void __launch_bounds__(kScanThreads) split_boundary_scan_kernel(const __grid_constant__ SsdKernelParams p) {
  allow_next_kernel();  // (the Hopper path launches it programmatically after its state pass)
  wait_for_previous_kernel();
  const int bh = blockIdx.x;
  const int b = bh / p.heads, h = bh % p.heads;
  const int64_t plane = int64_t(p.headdim) * p.dstate;
  const int64_t e = int64_t(blockIdx.y) * kScanThreads + threadIdx.x;
  if (e >= plane) return;
  const int earlier_runs = p.state_runs - 1;
  const float* decay = p.split_decay + int64_t(bh) * p.num_splits;
  const float* run_decay = p.run_decay + int64_t(bh) * (p.num_splits - 1) * earlier_runs;
  const int row = static_cast<int>(e / p.dstate), col = static_cast<int>(e % p.dstate);
  float* slots = p.split_states + int64_t(bh) * p.num_splits * plane + e;
  // The sm90 split schemes (sm90/split_fixup.h), chosen on the device: this launch (before the
  // main pass) belongs to the state pass's; the second (split_fixup, after the main pass) reads
  // each split's end state: the last one's is the final state, or, with the fix-up taken, they
  // are local (split 0's from the initial state): in(s + 1) into slot s and in(num_splits) into
  // the final states.
  const bool fixup = sm90::fixup_chosen(p.window_tiles, p.fixup_budget);  // (false on the sm80 path: no counter)
  if (p.split_fixup) {
    const float* ends = p.end_states + int64_t(bh) * p.num_splits * plane + e;
    float* final_state = p.final_states ? p.final_states + b * p.fin_sb + h * p.fin_sh + row * p.fin_sp + col : nullptr;
    if (!fixup) {
      if (final_state) *final_state = ends[int64_t(p.num_splits - 1) * plane];
      return;
    }
    float in = ends[0];  // (split 0 ran from the initial state; decay[0] is not computed)
    for (int s = 0; s < p.num_splits; ++s) {
      if (s > 0) in = decay[s] * in + ends[s * plane];
      if (s + 1 < p.num_splits) slots[s * plane] = in;
      else if (final_state) *final_state = in;
    }
    return;
  }
  if (fixup) return;
  float in = p.initial_states ? p.initial_states[b * p.init_sb + h * p.init_sh + row * p.init_sp + col] : 0.f;
  const float* __restrict__ runs = p.run_states + int64_t(bh) * (p.num_splits - 1) * earlier_runs * plane + e;
  for (int s = 0; s + 1 < p.num_splits; ++s) {
    const float local = slots[s * plane];  // issued before the chain of runs that precedes it
    for (int r = 0; r < earlier_runs; ++r) {
      const int64_t k = int64_t(s) * earlier_runs + r;
      in = run_decay[k] * in + runs[k * plane];
    }
    in = decay[s] * in + local;
    slots[s * plane] = in;
  }
}

void launch_split_boundary_scan(const SsdKernelParams& p, cudaStream_t stream, bool after_previous) {
  const int64_t plane = int64_t(p.headdim) * p.dstate;
  // batch x heads on x (up to 2^31 - 1); P N / kScanThreads on y, limited to 65535 blocks:
  // P N <= 16.7 M elements per head, far above any state the kernels hold (the Hopper one:
  // P N <= 32768). Beyond that the launch fails and check_cuda names it.
  const dim3 grid(static_cast<unsigned>(int64_t(p.batch) * p.heads), static_cast<unsigned>((plane + kScanThreads - 1) / kScanThreads));
  launch_in_chain(split_boundary_scan_kernel, grid, dim3(kScanThreads), 0, stream, after_previous, "split boundary scan launch", p);
}

// Per-sequence states of empty sequences (no tile ends them): zeros, or the
// initial state for sequence 0 (the state "after" an empty first sequence).
__global__ void empty_sequence_states_kernel(const __grid_constant__ SsdKernelParams p) {
  const int k = blockIdx.x / p.heads, h = blockIdx.x % p.heads;
  auto cu = [&](int i) { return cu_seqlens_at(p.cu_seqlens, p.cu_seqlens_64, p.cu_s, i); };
  if (cu(k) != cu(k + 1)) return;
  for (int64_t e = threadIdx.x; e < int64_t(p.headdim) * p.dstate; e += blockDim.x) {
    const int row = static_cast<int>(e / p.dstate), col = static_cast<int>(e % p.dstate);
    const float v = (k == 0 && p.initial_states) ? p.initial_states[h * p.init_sh + row * p.init_sp + col] : 0.f;
    p.varlen_states[k * p.var_ss + h * p.var_sh + row * p.var_sp + col] = v;
  }
}

__global__ void reset_flags_kernel(const __grid_constant__ SsdKernelParams p, uint8_t* flags) {
  const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= int64_t(p.batch) * p.seqlen) return;
  const int b = static_cast<int>(i / p.seqlen), t = static_cast<int>(i % p.seqlen);
  bool starts = false;
  if (p.seq_idx && t > 0) {
    const int32_t* s = p.seq_idx + b * p.seq_sb + int64_t(t) * p.seq_st;
    starts = s[0] != s[-p.seq_st];
  }
  if (p.cu_seqlens) {  // b == 1: is t one of cu_seqlens[1 .. num_seqs - 1]? (sorted: binary search)
    auto cu = [&](int k) { return cu_seqlens_at(p.cu_seqlens, p.cu_seqlens_64, p.cu_s, k); };
    int lo = 1, hi = p.num_seqs;  // first k in [1, num_seqs) with cu(k) >= t, or num_seqs
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (cu(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    starts = starts || (lo < p.num_seqs && cu(lo) == t && (t > 0 || p.initial_states));
  }
  flags[i] = starts ? 1 : 0;
}

}  // namespace flashssd::sm80
