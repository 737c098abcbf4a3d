// Launch template of the Hopper forward: the split plan, then on the caller's stream
//   0. reset flags (only with seq_idx or cu_seqlens): where a sequence starts;
//   1. state pass (only with > 1 split): each split's local final state and decay, by default
//      over each split's decay window, which two small kernels find first (split_fixup.h); or,
//      the fix-up asked for (or chosen on the device with the window off), none: the main pass
//      starts the splits from zero states and the fix-up follows it;
//   2. boundary scan (shared with the sm80 path): each split's incoming state;
//   3. chunk scores (N = 128, 256): S = C B^T per (batch, group, 64-token tile), once for the
//      group's heads (with > 1 split on a side stream beside 1, joined before 2: StreamFork);
//   4. main pass: y and the final states;
//   5. (cu_seqlens with varlen_states) the state pass's varlen mode: each sequence's final
//      state, and empty sequences' states (shared with the sm80 path).
// Kernels 1-4 after the first one queued are launched programmatically after it
// (programmatic_launch.cuh): each starts while its predecessor's last CTAs finish and waits
// for it before touching memory (not across the side stream's fork and join: the kernel after
// each is launched plainly).
// Included only by the per-instantiation .cu files.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "kernels/common/launch_util.h"
#include "kernels/common/programmatic_launch.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"
#include "kernels/sm90/ssd_fwd_sm90.cuh"
#include "kernels/sm90/ssd_fwd_sm90.h"
#include "kernels/sm90/split_fixup.h"

namespace flashssd::sm90 {

// The grid of a pass. kBalanced, kPerSm: persistent, one CTA per SM at most, each walking work
// items (WorkScheduler) with the grid's stride; items of equal cost get balanced_grid's CTAs,
// the varlen state pass's (whole sequences of any length) one CTA per SM. kPerItem: a CTA per
// item, which the SMs' block scheduler deals out as SMs free up (the windowed state pass's
// runs, of uneven length).
enum class PassGrid { kBalanced, kPerSm, kPerItem };
template <class K, bool kGateZ, bool kStatePass>
void launch_sm90_pass(const typename K::Params& p, int64_t items, int sms, cudaStream_t stream, bool after_previous,
                      PassGrid grid = PassGrid::kBalanced) {
  if constexpr (!kStatePass && K::kChunkScores) {
    // (The main pass would TMA-load S through an unset descriptor.)
    if (p.score_tiles == 0) throw std::logic_error("flashssd sm90 forward: main pass launched without the chunk scores");
  }
  auto kernel = ssd_fwd_sm90_kernel<K, kGateZ, kStatePass>;
  constexpr size_t kSmemBytes = K::template kSmemBytes<kStatePass, kGateZ>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes)),
             "cudaFuncSetAttribute");
  const int64_t ctas = grid == PassGrid::kBalanced ? balanced_grid(items, sms)
                      : grid == PassGrid::kPerSm  ? std::min<int64_t>(items, sms)
                                                  : items;
  if (ctas > INT32_MAX) throw std::invalid_argument("flashssd sm90 forward: a pass of more than 2^31 - 1 CTAs");
  launch_in_chain(kernel, dim3(static_cast<unsigned>(ctas)), dim3(K::kThreads), kSmemBytes, stream, after_previous,
                  "ssd_fwd_sm90 launch", p);
}

template <class CudaElement, int kN>
void run_ssd_fwd_sm90(SsdKernelParams params, cudaStream_t stream) {
  using Element = std::conditional_t<std::is_same_v<CudaElement, __half>, cutlass::half_t, cutlass::bfloat16_t>;
  // N = 256: the state alone is 128 registers per consumer thread, and two heads' B / C
  // stages would not fit in shared memory: one consumer warpgroup (head slice) per CTA.
  using K = SsdFwdSm90<64, kN, kN == 256 ? 1 : 2, Element>;
  static_assert(std::is_same_v<typename K::CudaElement, CudaElement>, "bf16 or fp16");
  // TMA descriptors want 16-byte global strides, also along dimensions of extent 1 (tma_stride).
  const int64_t x_s[3] = {tma_stride(params.x_sb, params.batch), tma_stride(params.x_st, params.seqlen), tma_stride(params.x_sh, params.heads)};
  const int64_t y_s[3] = {tma_stride(params.y_sb, params.batch), tma_stride(params.y_st, params.seqlen), tma_stride(params.y_sh, params.heads)};
  const int64_t b_s[3] = {tma_stride(params.B_sb, params.batch), tma_stride(params.B_st, params.seqlen), tma_stride(params.B_sg, params.groups)};
  const int64_t c_s[3] = {tma_stride(params.C_sb, params.batch), tma_stride(params.C_st, params.seqlen), tma_stride(params.C_sg, params.groups)};
  auto p = K::make_params(static_cast<const Element*>(params.x), x_s, static_cast<const Element*>(params.B), b_s,
                          static_cast<const Element*>(params.C), c_s, static_cast<Element*>(params.y), y_s,
                          params.batch, params.seqlen, params.heads, params.groups, params.headdim);
  p.dt = params.dt;
  p.dt_type = params.dt_type;
  p.dt_sb = params.dt_sb; p.dt_st = params.dt_st; p.dt_sh = params.dt_sh;
  p.dt_bias = params.dt_bias; p.dt_bias_s = params.dt_bias_s;
  p.dt_softplus = params.dt_softplus;
  p.dt_lo = params.dt_lo; p.dt_hi = params.dt_hi;
  p.A = params.A; p.A_s = params.A_s;
  p.D = params.D; p.D_sh = params.D_sh; p.D_sp = params.D_sp;
  if (params.z) {
    const int64_t z_s[3] = {tma_stride(params.z_sb, params.batch), tma_stride(params.z_st, params.seqlen), tma_stride(params.z_sh, params.heads)};
    K::set_gate(p, static_cast<const Element*>(params.z), z_s);
  }
  p.initial_states = params.initial_states;
  p.init_sb = params.init_sb; p.init_sh = params.init_sh; p.init_sp = params.init_sp;
  p.final_states = params.final_states;
  p.fin_sb = params.fin_sb; p.fin_sh = params.fin_sh; p.fin_sp = params.fin_sp;

  // One CTA per SM (shared memory); the plan weighs waves of CTAs against split count.
  int device = 0, sms = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device attribute");
  // Work items: sets of head slices (P / 64 per head; WorkScheduler), counted by make_params.
  const int64_t ctas_per_split = int64_t(params.batch) * p.head_sets;
  const SplitPlan plan =
      forced_splits(plan_splits(ctas_per_split, params.seqlen, K::kQ, sms, kSm90SplitCost), params.seqlen, K::kQ);
  K::set_splits(p, plan.num_splits, plan.split_len, 1);
  params.num_splits = plan.num_splits;
  params.split_len = plan.split_len;
  Workspace workspace(stream), flags_workspace(stream), scores_workspace(stream);
  bool queued = false;  // a kernel of this call is queued (the next one chains to it)
  // The main pass reads each tile's S from here (chunk_scores_sm90.cuh; N = 128 and 256).
  ChunkScoresArgs scores{};
  if constexpr (K::kChunkScores) {
    scores_workspace.allocate(chunk_scores_bytes(params.batch, params.seqlen, params.groups), "workspace allocation (chunk scores)");
    float* inv_scales = chunk_score_inv_scales(scores_workspace.ptr, params.batch, params.seqlen, params.groups);
    // (Its size checks before the pre-pass is queued.)
    K::set_chunk_scores(p, reinterpret_cast<const typename K::ScoreElement*>(scores_workspace.ptr), inv_scales);
    scores = {params.B, params.C, b_s[0], b_s[1], b_s[2], c_s[0], c_s[1], c_s[2],
              params.batch, params.seqlen, params.groups, scores_workspace.ptr, inv_scales};
  }
  auto launch_scores = [&](cudaStream_t on, bool after_previous) {
    if constexpr (K::kChunkScores) launch_chunk_scores<CudaElement, kN, typename K::CudaScoreElement>(scores, on, after_previous);
  };
  if (params.seq_idx || params.cu_seqlens) {
    const int64_t tokens = int64_t(params.batch) * params.seqlen;
    flags_workspace.allocate(size_t(tokens), "workspace allocation (reset flags)");
    auto* flags = static_cast<uint8_t*>(flags_workspace.ptr);
    sm80::reset_flags_kernel<<<static_cast<unsigned>((tokens + 255) / 256), 256, 0, stream>>>(params, flags);
    check_cuda(cudaGetLastError(), "reset flags launch");
    p.reset_flags = flags;
    queued = true;
  }
  // More than one split: the state pass (and the boundary scan) before the main pass, windowed
  // by default; or the fix-up after it (split_fixup.h: forced, or chosen on the device by the
  // decays' windows with the window off, where the state pass is long enough to pay for the
  // choice; plan_split_scheme).
  bool with_fixup = false;
  Workspace decays_workspace(stream), end_workspace(stream);
  std::optional<StreamFork> beside;  // (after the workspaces: joined before they are freed)
  const float* tile_log = nullptr;
  if (plan.num_splits > 1) {
    // The chunk scores read only B and C: they run beside the split kernels, whose small window
    // kernels and short state-pass runs leave most SMs idle (session 58's timeline: at R1 32k the
    // median SM is busy 34 of the state pass's 63 us), instead of after them. Session 60 (H100,
    // API A/B): R1 32k -1.0%, z -1.0%, R4 128k -0.4%; one split (R1 8k, no fork) -0.0%.
    if constexpr (K::kChunkScores) {
      if (StreamFork::possible(stream)) {
        beside.emplace(stream);
        launch_scores(beside->side(), false);
        queued = false;  // (the caller's stream has an event record last, no kernel to chain to)
      }
    }
    // Runs of the state pass per split: more CTAs when the splits alone leave SMs idle.
    const int split_tiles = plan.split_len / K::kQ;
    const int64_t state_ctas = ctas_per_split * (plan.num_splits - 1);
    params.state_runs = forced_state_runs(state_runs_per_split(state_ctas, split_tiles, sms), split_tiles);
    K::set_splits(p, plan.num_splits, plan.split_len, params.state_runs);
    const int64_t state_steps = state_pass_steps(state_ctas, params.state_runs, split_tiles, sms);
    const bool dt_nonnegative = params.dt_softplus || params.dt_lo >= 0.f;
    const SplitScheme scheme = plan_split_scheme(dt_nonnegative, state_steps);
    with_fixup = scheme != SplitScheme::kStatePass;
    // The state pass over each split's decay window (split_fixup.h), in runs of its own length.
    const bool windowed = !with_fixup && dt_nonnegative && state_window_wanted(state_steps);
    if (windowed) {
      params.state_runs = forced_state_runs(window_state_runs(split_tiles), split_tiles);
      K::set_splits(p, plan.num_splits, plan.split_len, params.state_runs);
    }
    allocate_split_workspace(params, workspace);
    p.split_states = params.split_states;
    p.split_decay = params.split_decay;
    p.run_states = params.run_states;
    p.run_decay = params.run_decay;
    if (with_fixup) {
      // The window count (16 bytes with padding), then the tiles' log-decays and the fix-up's
      // work list (split_fixup.cu).
      decays_workspace.allocate(split_decays_workspace_bytes(params), "workspace allocation (tile log-decays)");
      params.window_tiles = static_cast<unsigned long long*>(decays_workspace.ptr);
      float* logs = reinterpret_cast<float*>(params.window_tiles + 2);
      tile_log = logs;
      params.fixup_budget =
          fixup_budget(scheme, int64_t(params.batch) * params.heads * (plan.num_splits - 1) * split_tiles);
      // Each split's end state (b, H, num_splits, P, N), written by the main pass through
      // final_states; the boundary scan's second launch writes the final states.
      const int64_t plane = int64_t(params.headdim) * params.dstate;
      end_workspace.allocate(size_t(int64_t(params.batch) * params.heads * plan.num_splits * plane) * sizeof(float),
                             "workspace allocation (split end states)");
      params.end_states = static_cast<float*>(end_workspace.ptr);
      p.window_tiles = params.window_tiles;
      p.fixup_budget = params.fixup_budget;
      p.final_states = params.end_states;
      p.fin_ss = plane;
      p.fin_sh = plan.num_splits * plane;
      p.fin_sb = params.heads * p.fin_sh;
      p.fin_sp = params.dstate;
      launch_split_decays(params, p.reset_flags, logs, stream, queued);
      queued = true;
    }
    if (windowed) {
      static_assert(K::kQ == kFixupTile, "the windows' tiles are the state pass's");
      decays_workspace.allocate(state_window_workspace_bytes(params), "workspace allocation (state windows)");
      p.state_window = launch_state_windows(params, p.reset_flags, decays_workspace.ptr, stream, queued);
      queued = true;
    }
    launch_sm90_pass<K, false, true>(p, ctas_per_split * (plan.num_splits - 1) * p.state_runs, sms, stream, queued,
                                     windowed ? PassGrid::kPerItem : PassGrid::kBalanced);
    // Joined before the scan, so that the main pass still starts programmatically after it.
    if (beside) beside->join();
    sm80::launch_split_boundary_scan(params, stream, !beside);
    queued = true;
  }
  if constexpr (K::kChunkScores) {
    if (!beside) {
      launch_scores(stream, queued);
      queued = true;
    }
  }
  if (p.z) launch_sm90_pass<K, true, false>(p, ctas_per_split * plan.num_splits, sms, stream, queued);
  else launch_sm90_pass<K, false, false>(p, ctas_per_split * plan.num_splits, sms, stream, queued);
  if (with_fixup) launch_split_fixup<CudaElement>(params, p.reset_flags, tile_log, sms, stream);
  if (params.varlen_states) {
    // Each sequence's final state: the state pass over its tiles, from zero (sequence 0:
    // the initial state), counting only its tokens. Empty sequences have no tile.
    p.varlen_pass = true;
    p.cu_seqlens = params.cu_seqlens;
    p.cu_seqlens_64 = params.cu_seqlens_64;
    p.cu_s = params.cu_s;
    p.num_seqs = params.num_seqs;
    p.varlen_states = params.varlen_states;
    p.var_ss = params.var_ss; p.var_sh = params.var_sh; p.var_sp = params.var_sp;
    launch_sm90_pass<K, false, true>(p, int64_t(params.num_seqs) * p.head_sets, sms, stream, false, PassGrid::kPerSm);
    sm80::empty_sequence_states_kernel<<<static_cast<unsigned>(params.num_seqs * params.heads), 256, 0, stream>>>(params);
    check_cuda(cudaGetLastError(), "empty sequence states launch");
  }
}

}  // namespace flashssd::sm90
