// Small kernels around the main pass that do not depend on the tile shape:
// compiled once, declared in ssd_fwd_sm80.h.
#include <cstdint>
#include <stdexcept>

#include "kernels/common/cu_seqlens.cuh"
#include "kernels/common/programmatic_launch.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"
#include "kernels/sm90/split_fixup.h"

namespace flashssd::sm80 {

// in(0) = initial state (or 0); in(s + 1) = decay(s) * in(s) + local(s). Slot s of
// split_states holds local(s) on entry and in(s + 1) on exit. With state_runs > 1 (sm90)
// local(s) and decay(s) are those of the split's last run, and its earlier runs
// (run_states, run_decay) are chained in before it. One thread per kScanVector adjacent state
// elements (one float4 of a row: N is a multiple of 4, the workspace's planes 16-byte aligned),
// sequential over the splits and runs (there are few): a grid of (batch x heads,
// P N / (kScanThreads kScanVector)) blocks, so that every element's loads are in flight at once
// (one block per head looped over its 8192 elements took 48 us at R4 under ncu; session 10).
// Every split call launches this kernel twice, one launch returning at once (the scheme not
// taken): that launch costs what its grid costs. A float4 per thread quarters the grid (1024
// blocks at R1 32k, under one wave) and keeps every element's bytes in flight: on an H100
// (session 53 call 5, ncu) the idle launch 7.3-8.1 -> 3.8-4.6 us and the working one 10.9-11.6 ->
// 7.2-8.5 at R1 32k, the API -0.5..-0.8% on R1 32k's rows. (One wave of blocks walking the
// tiles, s52-scan-grid, made the idle launch as cheap but the working one 2-3 us slower.)
constexpr int kScanThreads = 256, kScanVector = 4;

__device__ __forceinline__ float4 load4(const float* at) { return *reinterpret_cast<const float4*>(at); }
__device__ __forceinline__ void store4(float* at, float4 v) { *reinterpret_cast<float4*>(at) = v; }
// d * in + x, elementwise.
__device__ __forceinline__ float4 chain4(float d, float4 in, float4 x) {
  return make_float4(fmaf(d, in.x, x.x), fmaf(d, in.y, x.y), fmaf(d, in.z, x.z), fmaf(d, in.w, x.w));
}
// A user tensor's row (unit column stride, any alignment): four scalar accesses.
__device__ __forceinline__ void store_row4(float* at, float4 v) { at[0] = v.x, at[1] = v.y, at[2] = v.z, at[3] = v.w; }
__device__ __forceinline__ float4 load_row4(const float* at) { return make_float4(at[0], at[1], at[2], at[3]); }

__global__ void __launch_bounds__(kScanThreads) split_boundary_scan_kernel(const __grid_constant__ SsdKernelParams p) {
  allow_next_kernel();  // (the Hopper path launches it programmatically after its state pass)
  wait_for_previous_kernel();
  const int bh = blockIdx.x;
  const int b = bh / p.heads, h = bh % p.heads;
  const int64_t plane = int64_t(p.headdim) * p.dstate;
  const int64_t e = (int64_t(blockIdx.y) * kScanThreads + threadIdx.x) * kScanVector;
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
      if (final_state) store_row4(final_state, load4(ends + int64_t(p.num_splits - 1) * plane));
      return;
    }
    float4 in = load4(ends);  // (split 0 ran from the initial state; decay[0] is not computed)
    for (int s = 1; s < p.num_splits; ++s) {
      store4(slots + (s - 1) * plane, in);
      in = chain4(decay[s], in, load4(ends + s * plane));
    }
    if (final_state) store_row4(final_state, in);
    return;
  }
  if (fixup) return;
  float4 in = p.initial_states ? load_row4(p.initial_states + b * p.init_sb + h * p.init_sh + row * p.init_sp + col)
                               : make_float4(0.f, 0.f, 0.f, 0.f);
  const float* __restrict__ runs = p.run_states + int64_t(bh) * (p.num_splits - 1) * earlier_runs * plane + e;
  // A run's decay slot may say what the windowed state pass did with it (sm90/split_fixup.h):
  // kDeadRun, nothing (its state unwritten): the chain restarts at zero; kRestartRun, clipped by
  // the window: the chain restarts at its state.
  auto link = [](float d, float4 in, const float* state) {
    if (d == sm90::kDeadRun) return make_float4(0.f, 0.f, 0.f, 0.f);
    return d == sm90::kRestartRun ? load4(state) : chain4(d, in, load4(state));
  };
  for (int s = 0; s + 1 < p.num_splits; ++s) {
    const float4 local = load4(slots + s * plane);  // issued before the chain of runs that precedes it
    for (int r = 0; r < earlier_runs; ++r) {
      const int64_t k = int64_t(s) * earlier_runs + r;
      in = link(run_decay[k], in, runs + k * plane);
    }
    in = decay[s] == sm90::kRestartRun ? local : chain4(decay[s], in, local);  // (a split's last run is never dead)
    store4(slots + s * plane, in);
  }
}

void launch_split_boundary_scan(const SsdKernelParams& p, cudaStream_t stream, bool after_previous) {
  const int64_t plane = int64_t(p.headdim) * p.dstate;
  // The float4 accesses: four elements of one row (N a multiple of 4), planes at 16-byte
  // multiples of the workspace's (cudaMalloc-aligned) bases. The GPU path takes N a multiple
  // of 8 only (device_forward.cu), so this holds for every call that reaches it.
  auto aligned = [](const void* q) { return reinterpret_cast<uintptr_t>(q) % 16 == 0; };
  if (p.dstate % kScanVector != 0 || !aligned(p.split_states) || !aligned(p.run_states) ||
      (p.split_fixup && !aligned(p.end_states)))
    throw std::logic_error("flashssd split boundary scan: N not a multiple of 4 or a workspace plane not 16-byte aligned");
  // batch x heads on x (up to 2^31 - 1); P N / (kScanThreads kScanVector) on y, limited to 65535
  // blocks: P N <= 67 M elements per head, far above any state the kernels hold (the Hopper one:
  // P N <= 32768). Beyond that the launch fails and check_cuda names it.
  const int64_t per_block = int64_t(kScanThreads) * kScanVector;
  const dim3 grid(static_cast<unsigned>(int64_t(p.batch) * p.heads), static_cast<unsigned>((plane + per_block - 1) / per_block));
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
