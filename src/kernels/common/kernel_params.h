// Device-side arguments of the forward kernels: raw pointers and 64-bit
// element strides, filled by the dispatch from the validated SsdParams.
#pragma once

#include <cstdint>

namespace flashssd {

enum class ScalarType : int { kF32 = 0, kBF16 = 1, kF16 = 2 };

struct SsdKernelParams {
  // Inputs. The innermost stride of x, z, B, C, y and of the states is 1.
  const void* x = nullptr;
  int64_t x_sb = 0, x_st = 0, x_sh = 0;
  const void* z = nullptr;  // optional gate
  int64_t z_sb = 0, z_st = 0, z_sh = 0;
  const void* B = nullptr;
  int64_t B_sb = 0, B_st = 0, B_sg = 0;
  const void* C = nullptr;
  int64_t C_sb = 0, C_st = 0, C_sg = 0;
  const void* dt = nullptr;
  ScalarType dt_type = ScalarType::kF32;
  int64_t dt_sb = 0, dt_st = 0, dt_sh = 0;
  const float* A = nullptr;
  int64_t A_s = 0;
  const float* D = nullptr;  // optional: (H) when D_sp == 0, (H, P) otherwise
  int64_t D_sh = 0, D_sp = 0;
  const float* dt_bias = nullptr;  // optional
  int64_t dt_bias_s = 0;
  const float* initial_states = nullptr;  // optional (b, H, P, N)
  int64_t init_sb = 0, init_sh = 0, init_sp = 0;
  const int32_t* seq_idx = nullptr;  // optional (b, T)
  int64_t seq_sb = 0, seq_st = 0;
  const void* cu_seqlens = nullptr;  // optional (num_seqs + 1), b == 1
  bool cu_seqlens_64 = false;
  int64_t cu_s = 0;
  int num_seqs = 0;

  // Outputs.
  void* y = nullptr;
  int64_t y_sb = 0, y_st = 0, y_sh = 0;
  float* final_states = nullptr;  // optional (b, H, P, N)
  int64_t fin_sb = 0, fin_sh = 0, fin_sp = 0;
  float* varlen_states = nullptr;  // optional (num_seqs, H, P, N)
  int64_t var_ss = 0, var_sh = 0, var_sp = 0;

  // Split-sequence workspace (only when num_splits > 1): per (b, h, split) the
  // split's local final state, replaced in place by its incoming state by the
  // boundary scan, and the split's total decay (0 when a sequence starts inside).
  float* split_states = nullptr;  // (b, H, num_splits, P, N) contiguous
  float* split_decay = nullptr;   // (b, H, num_splits)
  // The sm90 state pass may compute each split's state (all splits but the last) in
  // state_runs runs of split_len / state_runs tokens, when the splits alone leave SMs idle.
  // The last run of a split has the split's slot above; the others have slots of their own
  // (read by the boundary scan, which chains every run in order).
  int state_runs = 1;
  float* run_states = nullptr;  // (b, H, num_splits - 1, state_runs - 1, P, N)
  float* run_decay = nullptr;   // (b, H, num_splits - 1, state_runs - 1)
  // The sm90 split schemes' choice on the device (sm90/split_fixup.h): window_tiles counts the
  // tiles the fix-up would touch; it is taken when that count is below fixup_budget. The
  // boundary scan's second launch (split_fixup true, after the main pass) reads each split's
  // end state from end_states (b, H, num_splits, P, N) and writes the final states, and with
  // the fix-up chosen each split's incoming state into split_states.
  unsigned long long* window_tiles = nullptr;
  int64_t fixup_budget = 0;
  float* end_states = nullptr;
  bool split_fixup = false;

  int batch = 0, seqlen = 0, heads = 0, headdim = 0, groups = 0, dstate = 0;
  int heads_per_group = 1;
  int num_splits = 1;
  int split_len = 0;  // tokens per split, a multiple of the compute tile
  int p_blocks = 1;   // CTAs across the head dimension

  bool dt_softplus = false;
  float dt_lo = 0.f, dt_hi = 0.f;
};

}  // namespace flashssd
