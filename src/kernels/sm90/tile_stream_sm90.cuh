// Hopper I/O path of the sm90 forward (issue 5, docs/HOPPER_PLAN.md), on
// its own so that it can be measured before the WGMMA mainloop goes in:
//
//   scheduler  persistent CTAs walk work items (batch, head) in a grid-stride loop;
//   producer   one warp issues TMA loads of the x, B, C tiles of 64 tokens into a
//              kStages-deep mbarrier pipeline (cutlass::PipelineTmaAsync);
//   consumer   one warpgroup reads each stage and writes y with 16-byte stores.
//
// The consumer does the cheapest work that still uses every byte loaded, so the
// result can be checked exactly and the timing is the I/O floor of this tiling:
//   y[t, p] = D_h * x[t, p] + dt[t, h] * <B_t, C_t>
// kDtInPipeline = false (measured, docs/HOPPER_PLAN.md): one producer thread; the
// consumer reads dt from global memory and B, C with two threads per token (bank
// conflicts). kDtInPipeline = true (measured 0.71 ms vs 1.15 ms for R1 at 8k): the
// producer warp also stages dt into the pipeline, and the consumer reads B, C rows
// conflict-free.
// bench/tile_stream_sm90.cu times and verifies it. Shared-memory tiles are row-major
// without swizzle here; the WGMMA mainloop will need 128-byte swizzled tiles, which
// TMA writes at the same rate.
#pragma once

#include <cuda_runtime.h>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/arch/reg_reconfig.h>
#include <cutlass/cutlass.h>
#include <cutlass/pipeline/sm90_pipeline.hpp>

namespace flashssd::sm90 {

using namespace cute;

template <class Element_, int kP_, int kN_, int kStages_, bool kDtInPipeline_ = false>
struct TileStream {
  using Element = Element_;
  static constexpr int kP = kP_, kN = kN_, kStages = kStages_;
  static constexpr bool kDtInPipeline = kDtInPipeline_;
  static constexpr int kQ = 64;  // tokens per tile
  static constexpr int kConsumerThreads = 128;
  static constexpr int kThreads = 128 + kConsumerThreads;  // producer warpgroup + consumer warpgroup

  using SmemLayoutX = Layout<Shape<Int<kQ>, Int<kP>>, Stride<Int<kP>, _1>>;
  using SmemLayoutBC = Layout<Shape<Int<kQ>, Int<kN>>, Stride<Int<kN>, _1>>;
  // Global views (token, column, head-or-group, batch); column stride 1.
  using GmemStride = Stride<int64_t, _1, int64_t, int64_t>;
  using GmemLayout = Layout<Shape<int, int, int, int>, GmemStride>;
  using GmemTensor = decltype(make_tensor(make_gmem_ptr(static_cast<const Element*>(nullptr)), GmemLayout{}));
  using TmaX = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemTensor{}, SmemLayoutX{}));
  using TmaBC = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemTensor{}, SmemLayoutBC{}));

  using Pipeline = cutlass::PipelineTmaAsync<kStages>;
  using PipelineState = cutlass::PipelineState<kStages>;
  static constexpr uint32_t kTxBytes = sizeof(Element) * (kQ * kP + 2 * kQ * kN);

  struct SharedStorage {
    alignas(128) Element x[kStages][kQ * kP];
    alignas(128) Element b[kStages][kQ * kN];
    alignas(128) Element c[kStages][kQ * kN];
    alignas(16) float dt[kDtInPipeline ? kStages : 1][kQ];  // dt of the stage's tokens (0 past T)
    alignas(16) float bc[kQ];  // dt_t * <B_t, C_t> of the current tile
    typename Pipeline::SharedStorage pipeline;
  };

  struct Params {
    TmaX tma_x;
    TmaBC tma_b, tma_c;
    int batch, seqlen, heads, groups;
    const float* dt;  // (b, T, H) contiguous
    const float* D;   // (H)
    Element* y;       // (b, T, H, P) contiguous
  };

  static Params make_params(const Element* x, const Element* B, const Element* C, const float* dt, const float* D,
                            Element* y, int batch, int seqlen, int heads, int groups) {
    auto view = [&](const Element* p, int cols, int outer) {
      return make_tensor(make_gmem_ptr(p),
                         make_layout(make_shape(seqlen, cols, outer, batch),
                                     make_stride(int64_t(outer) * cols, _1{}, int64_t(cols), int64_t(seqlen) * outer * cols)));
    };
    return {make_tma_copy(SM90_TMA_LOAD{}, view(x, kP, heads), SmemLayoutX{}),
            make_tma_copy(SM90_TMA_LOAD{}, view(B, kN, groups), SmemLayoutBC{}),
            make_tma_copy(SM90_TMA_LOAD{}, view(C, kN, groups), SmemLayoutBC{}),
            batch, seqlen, heads, groups, dt, D, y};
  }
};

template <class K>
__global__ void __launch_bounds__(K::kThreads, 1) tile_stream_kernel(const __grid_constant__ typename K::Params p) {
  using Element = typename K::Element;
  extern __shared__ __align__(128) unsigned char smem_raw[];
  auto& smem = *reinterpret_cast<typename K::SharedStorage*>(smem_raw);
  const int warp_group = threadIdx.x / 128;
  const int tiles = (p.seqlen + K::kQ - 1) / K::kQ;
  const int work_items = p.batch * p.heads;

  typename K::Pipeline::Params pp;
  pp.transaction_bytes = K::kTxBytes;
  pp.role = warp_group == 0 ? K::Pipeline::ThreadCategory::Producer : K::Pipeline::ThreadCategory::Consumer;
  // With dt in the pipeline the producer warp arrives on the full barrier itself, after
  // its lanes have stored dt (the arrive releases those stores to the consumers).
  pp.is_leader = !K::kDtInPipeline && threadIdx.x == 0;
  pp.num_consumers = K::kConsumerThreads;
  typename K::Pipeline pipeline(smem.pipeline, pp, Shape<_1, _1, _1>{});
  __syncthreads();  // barriers initialised before anyone waits on them

  if (warp_group == 0) {  // ---- producer: one thread issues every TMA load (+ warp 0 stages dt)
    cutlass::arch::warpgroup_reg_dealloc<40>();
    const int lane = threadIdx.x % 32;
    if (K::kDtInPipeline ? threadIdx.x >= 32 : threadIdx.x != 0) return;
    typename K::PipelineState state = cutlass::make_producer_start_state<typename K::Pipeline>();
    Tensor mX = p.tma_x.get_tma_tensor(make_shape(p.seqlen, int(K::kP), p.heads, p.batch));
    Tensor mB = p.tma_b.get_tma_tensor(make_shape(p.seqlen, int(K::kN), p.groups, p.batch));
    Tensor mC = p.tma_c.get_tma_tensor(make_shape(p.seqlen, int(K::kN), p.groups, p.batch));
    for (int w = blockIdx.x; w < work_items; w += gridDim.x) {
      const int h = w % p.heads, b = w / p.heads, g = h / (p.heads / p.groups);
      Tensor gX = local_tile(mX(_, _, h, b), Shape<Int<K::kQ>, Int<K::kP>>{}, make_coord(_, 0));  // (Q, P, tile)
      Tensor gB = local_tile(mB(_, _, g, b), Shape<Int<K::kQ>, Int<K::kN>>{}, make_coord(_, 0));
      Tensor gC = local_tile(mC(_, _, g, b), Shape<Int<K::kQ>, Int<K::kN>>{}, make_coord(_, 0));
      for (int t = 0; t < tiles; ++t) {
        float dt_regs[K::kQ / 32];  // loaded before waiting for the stage: the latency overlaps the wait
        if constexpr (K::kDtInPipeline) {
#pragma unroll
          for (int i = 0; i < K::kQ / 32; ++i) {
            const int tok = t * K::kQ + lane + 32 * i;
            dt_regs[i] = tok < p.seqlen ? p.dt[(int64_t(b) * p.seqlen + tok) * p.heads + h] : 0.f;
          }
        }
        pipeline.producer_acquire(state);
        auto* bar = pipeline.producer_get_barrier(state);
        const int s = state.index();
        if constexpr (K::kDtInPipeline) {
#pragma unroll
          for (int i = 0; i < K::kQ / 32; ++i) smem.dt[s][lane + 32 * i] = dt_regs[i];
          __syncwarp();
          if (lane != 0) {
            ++state;
            continue;
          }
          cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(bar, K::kTxBytes);
        }
        Tensor sX = make_tensor(make_smem_ptr(smem.x[s]), typename K::SmemLayoutX{});
        Tensor sB = make_tensor(make_smem_ptr(smem.b[s]), typename K::SmemLayoutBC{});
        Tensor sC = make_tensor(make_smem_ptr(smem.c[s]), typename K::SmemLayoutBC{});
        auto [gx, sx] = tma_partition(p.tma_x, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sX), group_modes<0, 2>(gX));
        auto [gb, sb] = tma_partition(p.tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
        auto [gc, sc] = tma_partition(p.tma_c, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sC), group_modes<0, 2>(gC));
        copy(p.tma_x.with(*bar), gx(_, t), sx);  // rows past T are zero-filled and still count
        copy(p.tma_b.with(*bar), gb(_, t), sb);  // towards the transaction bytes
        copy(p.tma_c.with(*bar), gc(_, t), sc);
        ++state;
      }
    }
    pipeline.producer_tail(state);  // do not exit while loads are in flight
    return;
  }

  // ---- consumer warpgroup
  cutlass::arch::warpgroup_reg_alloc<232>();
  const int tid = threadIdx.x - 128;
  typename K::PipelineState state;
  constexpr int kVec = 16 / sizeof(Element);
  for (int w = blockIdx.x; w < work_items; w += gridDim.x) {
    const int h = w % p.heads, b = w / p.heads;
    const float d = p.D[h];
    for (int t = 0; t < tiles; ++t) {
      pipeline.consumer_wait(state);
      const int s = state.index();
      const int t0 = t * K::kQ;
      if constexpr (K::kDtInPipeline) {
        // 16-byte chunk (tid % kRowChunks) of rows tid / kRowChunks + kRowStep * i: a warp
        // reads whole contiguous rows (no bank conflicts); shuffles reduce a row.
        constexpr int kRowChunks = K::kN / kVec, kRowStep = K::kConsumerThreads / kRowChunks;
        static_assert(kRowChunks <= 32 && 32 % kRowChunks == 0, "a row's chunks within one warp");
        const int chunk = tid % kRowChunks;
#pragma unroll
        for (int row = tid / kRowChunks; row < K::kQ; row += kRowStep) {
          const uint4 bv = *reinterpret_cast<const uint4*>(smem.b[s] + row * K::kN + chunk * kVec);
          const uint4 cv = *reinterpret_cast<const uint4*>(smem.c[s] + row * K::kN + chunk * kVec);
          const Element* be = reinterpret_cast<const Element*>(&bv);
          const Element* ce = reinterpret_cast<const Element*>(&cv);
          float acc = 0.f;
#pragma unroll
          for (int i = 0; i < kVec; ++i) acc += float(be[i]) * float(ce[i]);
#pragma unroll
          for (int m = kRowChunks / 2; m > 0; m /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, m);
          if (chunk == 0) smem.bc[row] = acc * smem.dt[s][row];  // dt is 0 past T
        }
      } else {  // two threads per token: half of <B_t, C_t> each
        const int row = tid / 2, half = tid % 2;
        const Element* br = smem.b[s] + row * K::kN + half * (K::kN / 2);
        const Element* cr = smem.c[s] + row * K::kN + half * (K::kN / 2);
        float acc = 0.f;
#pragma unroll
        for (int i = 0; i < K::kN / 2; ++i) acc += float(br[i]) * float(cr[i]);
        acc += __shfl_xor_sync(0xffffffffu, acc, 1);
        if (half == 0)
          smem.bc[row] = t0 + row < p.seqlen ? acc * p.dt[(int64_t(b) * p.seqlen + t0 + row) * p.heads + h] : 0.f;
      }
      cutlass::arch::NamedBarrier::sync(K::kConsumerThreads, 1);
      constexpr int kChunks = K::kQ * K::kP / kVec;
#pragma unroll
      for (int c = tid; c < kChunks; c += K::kConsumerThreads) {
        const int row = c / (K::kP / kVec), col = (c % (K::kP / kVec)) * kVec;
        if (t0 + row >= p.seqlen) continue;
        const uint4 xv = *reinterpret_cast<const uint4*>(smem.x[s] + row * K::kP + col);
        const Element* xe = reinterpret_cast<const Element*>(&xv);
        uint4 yv;
        Element* ye = reinterpret_cast<Element*>(&yv);
        const float add = smem.bc[row];
#pragma unroll
        for (int i = 0; i < kVec; ++i) ye[i] = Element(d * float(xe[i]) + add);
        *reinterpret_cast<uint4*>(p.y + ((int64_t(b) * p.seqlen + t0 + row) * p.heads + h) * K::kP + col) = yv;
      }
      cutlass::arch::NamedBarrier::sync(K::kConsumerThreads, 1);  // bc and the stage are read
      pipeline.consumer_release(state);
      ++state;
    }
  }
}

}  // namespace flashssd::sm90
