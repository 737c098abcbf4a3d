// The split-sequence scheme without a state pass: the kernels after the main pass
// (split_fixup.h has the scheme).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>


#include "kernels/common/dt.cuh"
#include "kernels/common/launch_util.h"
#include "kernels/common/mma_sm80.cuh"
#include "kernels/common/operands_sm80.cuh"
#include "kernels/common/programmatic_launch.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"
#include "kernels/sm90/fixup_layout.h"
#include "kernels/sm90/split_fixup.h"

namespace flashssd::sm90 {

namespace {

constexpr int kQ = kFixupTile;
// exp(x) is 0 in fp32 for x below about -103.97 (2^-149 is e^-103.28): a tile whose
// log-decay from its split's start is below this has a zero term for every token.
constexpr float kWindowFloor = -110.f;
// The fix-up's work list (after the tile log-decays in the workspace): one entry (b H index,
// split, chunk, the window's tiles) per chunk of kChunkTiles tiles that holds window tiles, appended by
// split_log_prefix_kernel, so that the fix-up walks the windows only. The order of the entries
// varies from run to run; each y tile is written by one entry, so y does not.
constexpr int kChunkTiles = 4;
struct FixupList {
  unsigned long long* count;
  int4* items;
};
inline int64_t total_tiles(const SsdKernelParams& p) {
  return int64_t(p.batch) * p.heads * ((int64_t(p.seqlen) + kFixupTile - 1) / kFixupTile);
}
inline int64_t max_list_items(const SsdKernelParams& p) {
  const int64_t chunks = (p.split_len / kFixupTile + kChunkTiles - 1) / kChunkTiles;
  return int64_t(p.batch) * p.heads * (p.num_splits - 1) * chunks;
}
inline FixupList fixup_list(const SsdKernelParams& p, float* tile_log) {
  const int64_t floats = (total_tiles(p) + 3) / 4 * 4;  // (16-byte aligned after them)
  auto* count = reinterpret_cast<unsigned long long*>(tile_log + floats);
  return {count, reinterpret_cast<int4*>(count + 2)};
}

// The sum of v over lanes 0 .. lane of a full warp (kernels 2 and 4's prefixes).
__device__ __forceinline__ float warp_inclusive_sum(float v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const float other = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += other;
  }
  return v;
}

// 1. tile_log[b, h, tile] = sum of the tile's log-decays, for the tiles from first_tile on: the
// fix-up's splits 1 .. S - 1 (split 0 has no fix-up, and its decay multiplies a zero state in
// the boundary scan), or the windowed state pass's splits 0 .. S - 2 (the grid's x). A block
// per (tile, 32 heads, batch): warp w sums tokens 8 w .. 8 w + 7, its lanes 32 heads (dt's row
// of heads is contiguous in the usual layout), every load in flight at once. (A warp per tile,
// sequential over its 64 tokens, took 16.6 us at R1 32k for 8 MB of dt: one block per SM.)
// The sums place windows and tile starts only: a relative error of ~3e-5 in them (the fast
// softplus) moves exp(cs) by at most ~3e-3 at the window's far end (cs = -110), by ~3e-5 |cs|
// nearer.
constexpr int kTileWarps = 8, kWarpTokens = kQ / kTileWarps;

// One lane's sum of dt A over min(count, kWarpTokens) tokens from `at`, `step` bytes apart
// (count: the tokens left in T from the first; <= 0 past T), with dt's type and the softplus
// template parameters and the loads unpredicated where the warp's tokens are all inside T.
// With the type and the softplus tested per token (and the token's 64-bit offset and bound)
// the kernel ran ~580 instructions a warp and was issue-bound (session 49, ncu on the H100:
// 84% of the issue slots busy, 19.4 us for 25 MB at R4 128k; this form 11.8-12.6 us).
template <ScalarType kDt, bool kSoftplus, bool kFull>
__device__ __forceinline__ float tokens_log_decay(const char* at, int64_t step, int count, float A_h, float bias,
                                                  const SsdKernelParams& p) {
  uint32_t bits[kWarpTokens];
#pragma unroll
  for (int k = 0; k < kWarpTokens; ++k, at += step) bits[k] = kFull || k < count ? load_dt_bits(at, kDt, 0) : 0u;
  float sum = 0.f;
#pragma unroll
  for (int k = 0; k < kWarpTokens; ++k)
    if (kFull || k < count) sum += process_dt<true>(dt_from_bits(bits[k], kDt), bias, kSoftplus, p.dt_lo, p.dt_hi) * A_h;
  return sum;
}
template <ScalarType kDt, bool kSoftplus>
__device__ __forceinline__ float tokens_log_decay(const char* at, int64_t step, int count, float A_h, float bias,
                                                  const SsdKernelParams& p) {
  // (count >= kWarpTokens tested by itself. With count clamped first, max(0, min(8, T - t0)), and
  // == 8 tested, the bf16 softplus instance read past T where 5 tokens were left (session 49
  // call 4: memcheck, and GpuForwardSmall's dt dtypes test at 3 splits); its SASS alone took
  // the whole-warp branch on a predicate output of the clamp's VIMNMX.RELU, the other instances
  // tested ISETP count != 8. This form compiles to ISETP.GT count, 7 in every instance.)
  return count >= kWarpTokens ? tokens_log_decay<kDt, kSoftplus, true>(at, step, count, A_h, bias, p)
                              : tokens_log_decay<kDt, kSoftplus, false>(at, step, count, A_h, bias, p);
}
template <ScalarType kDt>
__device__ __forceinline__ float tokens_log_decay(const SsdKernelParams& p, int64_t offset, int count, float A_h,
                                                  float bias) {
  constexpr int kBytes = kDt == ScalarType::kF32 ? 4 : 2;
  const char* at = static_cast<const char*>(p.dt) + offset * kBytes;
  return p.dt_softplus ? tokens_log_decay<kDt, true>(at, p.dt_st * kBytes, count, A_h, bias, p)
                       : tokens_log_decay<kDt, false>(at, p.dt_st * kBytes, count, A_h, bias, p);
}

__global__ void __launch_bounds__(kTileWarps * 32) tile_log_decay_kernel(const __grid_constant__ SsdKernelParams p,
                                                                          const uint8_t* reset_flags, float* tile_log,
                                                                          int first_tile, unsigned long long* list_count) {
  __shared__ float partial[kTileWarps][32];
  allow_next_kernel();
  wait_for_previous_kernel();
  const int tiles = (p.seqlen + kQ - 1) / kQ;
  if (list_count && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0) {
    *p.window_tiles = 0;  // (the fix-up's: both counted by kernel 2)
    *list_count = 0;
  }
  const int tile = first_tile + blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int h = blockIdx.y * 32 + lane, b = blockIdx.z;
  const int t0 = tile * kQ + warp * kWarpTokens;
  float sum = 0.f;
  if (h < p.heads) {
    const float A_h = p.A[h * p.A_s], bias = p.dt_bias ? p.dt_bias[h * p.dt_bias_s] : 0.f;
    const int count = p.seqlen - t0;  // (tokens left; the helpers load those below kWarpTokens)
    const int64_t offset = b * p.dt_sb + int64_t(t0) * p.dt_st + h * p.dt_sh;
    switch (p.dt_type) {  // (uniform: one branch per thread)
      case ScalarType::kF32: sum = tokens_log_decay<ScalarType::kF32>(p, offset, count, A_h, bias); break;
      case ScalarType::kBF16: sum = tokens_log_decay<ScalarType::kBF16>(p, offset, count, A_h, bias); break;
      default: sum = tokens_log_decay<ScalarType::kF16>(p, offset, count, A_h, bias); break;
    }
    if (reset_flags) {  // a packed sequence starts among the warp's tokens: -inf
      bool starts = false;
      for (int k = 0; k < min(count, kWarpTokens); ++k) starts |= reset_flags[int64_t(b) * p.seqlen + t0 + k] != 0;
      if (starts) sum = -INFINITY;
    }
  }
  partial[warp][lane] = sum;
  __syncthreads();
  if (warp == 0 && h < p.heads) {
    float total = 0.f;
#pragma unroll
    for (int w = 0; w < kTileWarps; ++w) total += partial[w][lane];
    tile_log[(int64_t(b) * p.heads + h) * tiles + tile] = total;
  }
}

// 2. In place: tile_log[b, h, tile] becomes the log-decay from the tile's split's start to the
// tile's start (exclusive prefix within the split), and split_decay[b, h, s] the split's total
// decay, for splits 1 .. S - 1. One warp per (b, h, split), sequential over the split's tiles
// by 32, kPrefixLoads such rows' loads in flight at once.
constexpr int kPrefixWarps = 8, kPrefixLoads = 8;
__global__ void __launch_bounds__(kPrefixWarps * 32) split_log_prefix_kernel(const __grid_constant__ SsdKernelParams p,
                                                                              float* tile_log, FixupList list) {
  allow_next_kernel();
  wait_for_previous_kernel();
  const int later_splits = p.num_splits - 1;
  const int64_t item = int64_t(blockIdx.x) * kPrefixWarps + threadIdx.x / 32;  // (b h) * (splits - 1) + s - 1
  const int lane = threadIdx.x % 32;
  if (item >= int64_t(p.batch) * p.heads * later_splits) return;
  const int64_t bh = item / later_splits;
  const int s = 1 + static_cast<int>(item % later_splits);
  const int tiles = (p.seqlen + kQ - 1) / kQ, split_tiles = p.split_len / kQ;
  const int begin = s * split_tiles, end = min(tiles, begin + split_tiles);
  float* row = tile_log + bh * tiles;
  float carry = 0.f;  // (-inf once a sequence starts in the split; no +inf arises, so no NaN)
  unsigned window = 0;  // this lane's tiles inside the window (what the fix-up touches)
  for (int base0 = begin; base0 < end; base0 += 32 * kPrefixLoads) {
    float v[kPrefixLoads];
#pragma unroll
    for (int k = 0; k < kPrefixLoads; ++k) {
      const int t = base0 + 32 * k + lane;
      v[k] = t < end ? row[t] : 0.f;
    }
#pragma unroll
    for (int k = 0; k < kPrefixLoads; ++k) {
      const int t = base0 + 32 * k + lane;
      const float inclusive = warp_inclusive_sum(v[k], lane);
      const float before = __shfl_up_sync(0xffffffffu, inclusive, 1);
      const float exclusive = carry + (lane == 0 ? 0.f : before);
      if (t < end) {
        row[t] = exclusive;
        window += exclusive >= kWindowFloor;
      }
      carry += __shfl_sync(0xffffffffu, inclusive, 31);
    }
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) window += __shfl_xor_sync(0xffffffffu, window, d);
  // The window is a prefix of the split (the log-decay only falls along it: dt >= 0 and A <= 0,
  // or dt >= 0 and A > 0, where the window is the whole split; launch_split_decays' caller
  // takes the fix-up only where dt >= 0): its chunks into the work list.
  const int chunks = static_cast<int>((window + kChunkTiles - 1) / kChunkTiles);
  unsigned long long base = 0;
  if (lane == 0) {
    p.split_decay[bh * p.num_splits + s] = expf(carry);
    if (window) {
      atomicAdd(p.window_tiles, static_cast<unsigned long long>(window));
      base = atomicAdd(list.count, static_cast<unsigned long long>(chunks));
    }
  }
  base = __shfl_sync(0xffffffffu, base, 0);
  for (int c = lane; c < chunks; c += 32)
    list.items[base + c] = make_int4(static_cast<int>(bh), s, c, static_cast<int>(window));
}

// The windowed state pass's windows (split_fixup.h): window_start[b, h, s] for s = 0 .. S - 2,
// the first tile of split s whose log-decay from its end to the split's end is >= kWindowFloor
// (the tiles before it, and the state before them, reach the split's end with weights that are
// 0 in fp32). The last tile always qualifies (no decay after it). One warp per (b, h, split),
// from the split's end backwards 32 tiles a round, kPrefixLoads rounds' loads issued together
// (one round's load at a time made the search a chain of L2 round trips: 6.0-6.5 us at R1 32k,
// whose slowest heads' windows are whole splits of 8 rounds; ncu, session 59; 4.1 us since,
// session 61). With dt >= 0 the log-decay after a tile only falls going back (A <= 0; with
// A > 0 only a reset cuts, and -inf stays -inf in the sums), so the first tile found below the
// floor ends the search; -inf (a packed sequence starts after the tile) cuts, a NaN never does.
constexpr int kWindowWarps = 8;
__global__ void __launch_bounds__(kWindowWarps * 32) state_window_kernel(const __grid_constant__ SsdKernelParams p,
                                                                          const float* tile_log, int* window_start) {
  allow_next_kernel();
  wait_for_previous_kernel();
  const int state_splits = p.num_splits - 1;
  const int64_t item = int64_t(blockIdx.x) * kWindowWarps + threadIdx.x / 32;  // (b h) * (splits - 1) + s
  const int lane = threadIdx.x % 32;
  if (item >= int64_t(p.batch) * p.heads * state_splits) return;
  const int64_t bh = item / state_splits;
  const int s = static_cast<int>(item % state_splits);
  const int tiles = (p.seqlen + kQ - 1) / kQ, split_tiles = p.split_len / kQ;
  const int begin = s * split_tiles, end = min(tiles, begin + split_tiles);
  const float* row = tile_log + bh * tiles;
  float carry = 0.f;  // the log-decay of the tiles after this round's to the split's end
  int first = begin;
  bool found = false;  // (warp-uniform: set from a ballot)
  for (int top0 = end; top0 > begin && !found; top0 -= 32 * kPrefixLoads) {
    float v[kPrefixLoads];
#pragma unroll
    for (int k = 0; k < kPrefixLoads; ++k) {
      const int t = top0 - 32 * k - 1 - lane;  // lane 0 round k's last tile
      v[k] = t >= begin ? row[t] : 0.f;
    }
#pragma unroll
    for (int k = 0; k < kPrefixLoads; ++k) {
      const int top = top0 - 32 * k, t = top - 1 - lane;
      const float inclusive = warp_inclusive_sum(v[k], lane);  // tiles t .. top - 1
      const float before = __shfl_up_sync(0xffffffffu, inclusive, 1);
      const float after = carry + (lane == 0 ? 0.f : before);  // tiles t + 1 .. end - 1
      const unsigned cut = __ballot_sync(0xffffffffu, t >= begin && after < kWindowFloor);
      if (cut) {
        first = top - (__ffs(cut) - 1);  // the tile after the latest one cut
        found = true;
        break;
      }
      carry += __shfl_sync(0xffffffffu, inclusive, 31);  // (rounds past the split's start add 0)
    }
  }
  if (lane == 0) window_start[item] = first;
}

// A thread's 16-byte vectors of a (T, P) row-major operand (y or z): channels slice + 8 q ..
// + 7 of tokens t0 and t1 (zero past T), as stored; word j of a vector is accumulator tile j's
// pair (fixup_layout.h). The sm90 path takes only 16-byte aligned y and z (bases and strides).
template <class T>
__device__ __forceinline__ void load_vectors(const T* base, int64_t stride, int t0, int t1, bool in0, bool in1, int slice,
                                             int q, uint4 (&v)[2]) {
  const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
  v[0] = in0 ? *reinterpret_cast<const uint4*>(base + int64_t(t0) * stride + slice + 8 * q) : zero;
  v[1] = in1 ? *reinterpret_cast<const uint4*>(base + int64_t(t1) * stride + slice + 8 * q) : zero;
}
__device__ __forceinline__ uint32_t& word(uint4& v, int j) { return reinterpret_cast<uint32_t*>(&v)[j]; }

// 4. y_t += g_t exp(cs_t) (C_t h_in^T) over the windows: the work list's entries (a chunk of
// kChunkTiles tiles of one (b, h, split), clipped to the window) over a persistent grid. A CTA
// of four warps: h_in (P x N, its chunks swizzled) and the tile's C (64 x N) in shared memory
// as the element type, warp w tokens 16 w .. 16 w + 15 by mma.sync m16n8k16 (C row-major as A,
// h_in's rows as B's columns in fixup_layout.h's order), kFixupSliceChannels channels at a time.
constexpr int kFixWarps = 4;
// Five CTAs an SM (at most 102 registers, 96 used; shared memory 35 KB each at P = 64, N = 128;
// six spilled at 85): the kernel is latency-bound (session 48 call 6: its instruction count
// is not what holds it), so more tiles in flight than four. 32 channels at a time keep the
// accumulators, y and z in those registers; C goes to shared memory by cp.async. (Session 49,
// H100, ncu with the fix-up forced: 118 -> 112 us at R4 128k, 84 -> 76 at R1 32k.)
constexpr int kFixCtas = 5;

template <class T>
__global__ void __launch_bounds__(kFixWarps * 32, kFixCtas) split_fixup_kernel(const __grid_constant__ SsdKernelParams p,
                                                                      const uint8_t* reset_flags,
                                                                      const float* tile_start_log, FixupList list) {
  using Pack = sm80::HalfPacking<T>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int P = p.headdim, N = p.dstate, row = N + kFixupPad;
  T* s_h = reinterpret_cast<T*>(smem_raw);  // [P][N + kFixupPad]
  T* s_c = s_h + P * row;                   // [kQ][N + kFixupPad]
  float* s_factor = reinterpret_cast<float*>(s_c + kQ * row);  // [kQ]
  float* s_carry = s_factor + kQ;                              // warp 0's token sum, for warp 1
  allow_next_kernel();
  wait_for_previous_kernel();
  if (!fixup_chosen(p.window_tiles, p.fixup_budget)) return;  // (the state pass's scheme)

  constexpr int kThreads = kFixWarps * 32;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
  const int tiles = (p.seqlen + kQ - 1) / kQ, split_tiles = p.split_len / kQ;
  const int64_t plane = int64_t(P) * N;
  const int64_t items = static_cast<int64_t>(*list.count);
  // Each CTA takes a contiguous run of the list's entries (as many as a stride over the grid
  // would give it): a window's chunks are contiguous in the list, so consecutive entries mostly
  // share their (b, h, split), and h_in is loaded once per run of them, not once per chunk.
  const int64_t per_cta = (items + gridDim.x - 1) / gridDim.x;
  const int64_t item_begin = blockIdx.x * per_cta, item_end = min(items, item_begin + per_cta);
  int64_t held_slot = -1;  // the split-state slot whose h_in s_h holds
  for (int64_t item = item_begin; item < item_end; ++item) {
    const int4 entry = list.items[item];
    const int64_t bh = entry.x;
    const int s = entry.y, chunk = entry.z, window = entry.w;
    const int b = static_cast<int>(bh / p.heads), h = static_cast<int>(bh % p.heads);
    const int first = s * split_tiles + chunk * kChunkTiles;
    const int last = min(tiles, min(s * split_tiles + window, first + kChunkTiles));
    const int grp = h / p.heads_per_group;
    const T* C = static_cast<const T*>(p.C) + b * p.C_sb + grp * p.C_sg;
    T* y = static_cast<T*>(p.y) + b * p.y_sb + h * p.y_sh;
    const T* z = p.z ? static_cast<const T*>(p.z) + b * p.z_sb + h * p.z_sh : nullptr;

    // h_in = the state after split s - 1 (the boundary scan's slot s - 1), as T: four float4
    // loads in flight per thread and step; kept while the entries stay in its window.
    const int64_t slot = bh * p.num_splits + s - 1;
    if (slot != held_slot) {
      held_slot = slot;
      __syncthreads();  // the previous item's reads of s_h are done
      const float* h_in = p.split_states + slot * plane;
      constexpr int kLoads = 4;
      const int64_t vectors = plane / 4;
      for (int64_t v0 = tid; v0 < vectors; v0 += kLoads * kThreads) {
        float4 v[kLoads];
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
          const int64_t e = v0 + k * kThreads;
          v[k] = e < vectors ? *reinterpret_cast<const float4*>(h_in + 4 * e) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
          const int64_t e = v0 + k * kThreads;
          if (e >= vectors) continue;
          const int pr = static_cast<int>(4 * e / N), n = static_cast<int>(4 * e % N);
          *reinterpret_cast<uint2*>(s_h + pr * row + fixup_h_column(pr, n)) =
              make_uint2(Pack::pack(v[k].x, v[k].y), Pack::pack(v[k].z, v[k].w));
        }
      }
    }
    const float A_h = p.A[h * p.A_s], bias = p.dt_bias ? p.dt_bias[h * p.dt_bias_s] : 0.f;

    const int r0 = 16 * warp + g, r1 = r0 + 8;  // this thread's two tokens (mma rows) of a tile
    for (int tile = first; tile < last; ++tile) {
      __syncthreads();  // the previous tile's reads of s_c and s_factor are done
      // Every load of the tile is issued before the first wait on any (the fix-up is a chain of
      // dependent loads otherwise: ~7 us a tile and CTA in session 48's fourth form): its C
      // rows into s_c by cp.async (zero past T), this thread's y and z of the first
      // kFixupSliceChannels channels, the tile's start and its tokens' dt (warps 0-1).
      const int t0 = tile * kQ + r0, t1 = tile * kQ + r1;
      const bool in0 = t0 < p.seqlen, in1 = t1 < p.seqlen;
      const int vectors_per_row = N / 8;
      for (int v = tid; v < kQ * vectors_per_row; v += kThreads) {
        const int r = v / vectors_per_row, n = (v % vectors_per_row) * 8, t = tile * kQ + r;
        sm80::cp_async_16(s_c + r * row + n, t < p.seqlen ? C + int64_t(t) * p.C_st + n : C, t < p.seqlen);
      }
      sm80::cp_async_commit();
      uint4 yv[2], zv[2];  // [token t0, t1]
      load_vectors(y, p.y_st, t0, t1, in0, in1, 0, q, yv);
      if (z) load_vectors(z, p.z_st, t0, t1, in0, in1, 0, q, zv);
      const float start = tile_start_log[bh * tiles + tile];
      const int t_dt = tile * kQ + tid;
      const bool dt_token = tid < kQ && t_dt < p.seqlen;
      const uint32_t dt_bits =
          dt_token ? load_dt_bits(p.dt, p.dt_type, b * p.dt_sb + int64_t(t_dt) * p.dt_st + h * p.dt_sh) : 0u;
      const bool dt_reset = dt_token && reset_flags && reset_flags[int64_t(b) * p.seqlen + t_dt];
      // exp(cs_t): cs_t the log-decay from the split's start through token t (inclusive:
      // y_t reads the state after token t's decay; -inf where a packed sequence starts, 0 past
      // T). Warps 0-1, one token per thread.
      if (tid < kQ) {
        const float dt = process_dt(dt_from_bits(dt_bits, p.dt_type), bias, p.dt_softplus, p.dt_lo, p.dt_hi);
        const float inclusive = warp_inclusive_sum(!dt_token ? 0.f : dt_reset ? -INFINITY : dt * A_h, lane);
        if (tid == 31) *s_carry = inclusive;
        s_factor[tid] = inclusive;
      }
      sm80::cp_async_wait<0>();  // (this thread's C copies; the barrier makes everyone's visible)
      __syncthreads();
      if (tid < kQ) {
        const float cs = start + s_factor[tid] + (tid >= 32 ? *s_carry : 0.f);
        s_factor[tid] = dt_token ? expf(cs) : 0.f;
      }
      __syncthreads();

      const float f0 = s_factor[r0], f1 = s_factor[r1];
      if (__all_sync(0xffffffffu, f0 == 0.f && f1 == 0.f)) continue;  // (the warp's tokens all past the window)
      const bool live0 = in0 && f0 != 0.f, live1 = in1 && f1 != 0.f;
      for (int slice = 0; slice < P; slice += kFixupSliceChannels) {
        // Channels kFixupSliceChannels and up: y and z loaded here, after the previous slice's stores.
        if (slice > 0) {
          load_vectors(y, p.y_st, t0, t1, in0, in1, slice, q, yv);
          if (z) load_vectors(z, p.z_st, t0, t1, in0, in1, slice, q, zv);
        }
        float acc[kFixupSliceJ][4];
#pragma unroll
        for (int j = 0; j < kFixupSliceJ; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.f;
        for (int k0 = 0; k0 < N; k0 += 16) {
          uint32_t a[4];
          a[0] = *reinterpret_cast<const uint32_t*>(s_c + r0 * row + k0 + 2 * q);
          a[1] = *reinterpret_cast<const uint32_t*>(s_c + r1 * row + k0 + 2 * q);
          a[2] = *reinterpret_cast<const uint32_t*>(s_c + r0 * row + k0 + 8 + 2 * q);
          a[3] = *reinterpret_cast<const uint32_t*>(s_c + r1 * row + k0 + 8 + 2 * q);
          // (the thread's rows, slice + fixup_channel(g, j), share bits 3-4: one swizzled column)
          const int h_col = fixup_h_column(slice + fixup_channel(g, 0), k0 + 2 * q);
#pragma unroll
          for (int j = 0; j < kFixupSliceJ; ++j) {
            const T* hrow = s_h + (slice + fixup_channel(g, j)) * row + h_col;
            sm80::mma_16816<T>(acc[j], a, *reinterpret_cast<const uint32_t*>(hrow),
                               *reinterpret_cast<const uint32_t*>(hrow + 8));
          }
        }
        // y += g exp(cs) acc (y and z loaded above).
#pragma unroll
        for (int j = 0; j < kFixupSliceJ; ++j) {
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            const float f = half ? f1 : f0;
            float v0 = f * acc[j][2 * half], v1 = f * acc[j][2 * half + 1];
            if (z) {
              const float2 g2 = Pack::unpack(word(zv[half], j));
              v0 *= sm80::silu_fast(g2.x);
              v1 *= sm80::silu_fast(g2.y);
            }
            const float2 old = Pack::unpack(word(yv[half], j));
            word(yv[half], j) = Pack::pack(old.x + v0, old.y + v1);
          }
        }
        if (live0) *reinterpret_cast<uint4*>(y + int64_t(t0) * p.y_st + slice + 8 * q) = yv[0];
        if (live1) *reinterpret_cast<uint4*>(y + int64_t(t1) * p.y_st + slice + 8 * q) = yv[1];
      }
    }
  }
}

// tile_log_decay_kernel over tiles [first_tile, first_tile + tiles) of every (batch, head).
void launch_tile_log_decays(const SsdKernelParams& p, const uint8_t* reset_flags, float* tile_log, int first_tile,
                            int tiles, unsigned long long* list_count, cudaStream_t stream, bool after_previous) {
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>((p.heads + 31) / 32), static_cast<unsigned>(p.batch));
  launch_in_chain(tile_log_decay_kernel, grid, dim3(kTileWarps * 32), 0, stream, after_previous, "tile log-decay launch", p,
                  reset_flags, tile_log, first_tile, list_count);
}

}  // namespace

size_t split_decays_workspace_bytes(const SsdKernelParams& p) {
  // The window count (16 bytes with its padding), the tile log-decays (to 16 bytes), the work
  // list's count (16) and entries.
  return 16 + size_t((total_tiles(p) + 3) / 4 * 4) * sizeof(float) + 16 + size_t(max_list_items(p)) * sizeof(int4);
}

void launch_split_decays(const SsdKernelParams& p, const uint8_t* reset_flags, float* tile_log, cudaStream_t stream,
                         bool after_previous) {
  const int later_tiles = (p.seqlen + kQ - 1) / kQ - p.split_len / kQ;  // (splits 1 ..)
  const FixupList list = fixup_list(p, tile_log);
  launch_tile_log_decays(p, reset_flags, tile_log, p.split_len / kQ, later_tiles, list.count, stream, after_previous);
  const int64_t prefix_items = int64_t(p.batch) * p.heads * (p.num_splits - 1);
  launch_in_chain(split_log_prefix_kernel, dim3(static_cast<unsigned>((prefix_items + kPrefixWarps - 1) / kPrefixWarps)),
                  dim3(kPrefixWarps * 32), 0, stream, true, "split log-prefix launch", p, tile_log, list);
}

size_t state_window_workspace_bytes(const SsdKernelParams& p) {
  const size_t logs = size_t((total_tiles(p) + 3) / 4 * 4) * sizeof(float);
  return logs + size_t(int64_t(p.batch) * p.heads * std::max(0, p.num_splits - 1)) * sizeof(int);
}

const int* launch_state_windows(const SsdKernelParams& p, const uint8_t* reset_flags, void* workspace,
                                cudaStream_t stream, bool after_previous) {
  float* tile_log = static_cast<float*>(workspace);
  int* window_start = reinterpret_cast<int*>(tile_log + (total_tiles(p) + 3) / 4 * 4);
  const int state_tiles = (p.num_splits - 1) * (p.split_len / kQ);  // (splits 0 .. S - 2: whole splits)
  launch_tile_log_decays(p, reset_flags, tile_log, 0, state_tiles, nullptr, stream, after_previous);
  const int64_t items = int64_t(p.batch) * p.heads * (p.num_splits - 1);
  launch_in_chain(state_window_kernel, dim3(static_cast<unsigned>((items + kWindowWarps - 1) / kWindowWarps)),
                  dim3(kWindowWarps * 32), 0, stream, true, "state window launch", p,
                  static_cast<const float*>(tile_log), window_start);
  return window_start;
}

template <class CudaElement>
void launch_split_fixup(const SsdKernelParams& p, const uint8_t* reset_flags, const float* tile_log, int sms,
                        cudaStream_t stream) {
  SsdKernelParams after = p;
  after.split_fixup = true;  // the boundary scan's second launch
  sm80::launch_split_boundary_scan(after, stream, true);
  auto kernel = split_fixup_kernel<CudaElement>;
  const size_t smem = size_t(p.headdim + kQ) * (p.dstate + kFixupPad) * sizeof(CudaElement) + (kQ + 1) * sizeof(float);
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)), "cudaFuncSetAttribute");
  const int64_t items = max_list_items(p);  // (at most: the list holds the windows' chunks only)
  // As many CTAs as fit on the SMs (shared memory: 35 KB at P = 64, N = 128; 101 KB at most), so
  // that their latency chains (dt, C, y and z loads per tile) overlap.
  int per_sm = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kFixWarps * 32, smem), "occupancy query");
  const int64_t ctas = std::max<int64_t>(1, std::min<int64_t>(items, int64_t(std::max(per_sm, 1)) * sms));
  launch_in_chain(kernel, dim3(static_cast<unsigned>(ctas)), dim3(kFixWarps * 32), smem, stream, true,
                  "split fix-up launch", p, reset_flags, tile_log, fixup_list(p, const_cast<float*>(tile_log)));
}

template void launch_split_fixup<__nv_bfloat16>(const SsdKernelParams&, const uint8_t*, const float*, int, cudaStream_t);
template void launch_split_fixup<__half>(const SsdKernelParams&, const uint8_t*, const float*, int, cudaStream_t);

}  // namespace flashssd::sm90
