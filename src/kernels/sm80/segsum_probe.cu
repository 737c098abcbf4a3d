// Probe of the decay-mask device code; see segsum_probe.h.
#include "kernels/sm80/segsum_probe.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/common/segsum.cuh"

namespace flashssd::sm80 {
namespace {

constexpr int kQ = kSegsumProbeQ;
constexpr int kThreads = 128;  // 4 warps, one 16-row block of the tile each, as in the forward kernel
static_assert(kQ == (kThreads / 32) * 16, "one 16-row mma block per warp");
static_assert(kThreads == 2 * kQ, "prepare_tile_decay uses two threads per token");

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("flashssd segsum_probe: ") + what + ": " + cudaGetErrorString(e));
}

// kWrite: write mask, to_end and readout of every tile. Otherwise (timing)
// write one checksum per thread of the CTA's tiles into sink.
template <SegsumVariant kVariant, bool kWrite>
__global__ void __launch_bounds__(kThreads)
    segsum_probe_kernel(const float* __restrict__ a, int64_t tiles, float* __restrict__ mask,
                        float* __restrict__ e, float* __restrict__ p, float* __restrict__ sink) {
  __shared__ TileDecay<kQ> td;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int g = lane / 4, q = lane % 4;
  float checksum = 0.f;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    // As the forward kernel: every thread calls prepare_tile_decay (it may
    // synchronise the CTA); the token threads tid < kQ pass their token's a and
    // dt = 1, the others what the kernel's load_dt gives past a tile: dt = 0.
    const float dt = tid < kQ ? 1.f : 0.f;
    const float a_t = tid < kQ ? a[tile * kQ + tid] : 0.f;
    const float w = prepare_tile_decay<kVariant, kQ>(td, tid, a_t, dt);
    if constexpr (!kWrite) checksum += w;
    __syncthreads();
    if constexpr (kWrite) {
      if (tid < kQ) {
        e[tile * kQ + tid] = td.to_end[tid];  // dt_j * e_j with dt = 1
        p[tile * kQ + tid] = td.readout[tid];
      }
    }

    float s[kQ / 8][4];  // the C B^T accumulator fragment of this warp, all ones
#pragma unroll
    for (int nt = 0; nt < kQ / 8; ++nt) s[nt][0] = s[nt][1] = s[nt][2] = s[nt][3] = 1.f;
    apply_decay_mask<kVariant, kQ>(s, td, warp, lane);

    if constexpr (kWrite) {
      // Element (nt, r) is row 16 warp + g + 8 (r / 2), column 8 nt + 2 q + r % 2.
      // N-tiles right of the warp's diagonal (nt > 2 warp + 1) are never touched
      // by apply_decay_mask (the kernel never reads them): written as 0.
      float* m = mask + tile * kQ * kQ;
#pragma unroll
      for (int nt = 0; nt < kQ / 8; ++nt) {
        const bool touched = nt <= 2 * warp + 1;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const int row = 16 * warp + g + 8 * half, col = 8 * nt + 2 * q;
          const float2 v = touched ? make_float2(s[nt][2 * half], s[nt][2 * half + 1]) : make_float2(0.f, 0.f);
          *reinterpret_cast<float2*>(m + row * kQ + col) = v;
        }
      }
    } else {
#pragma unroll
      for (int nt = 0; nt < kQ / 8; ++nt)
        if (nt <= 2 * warp + 1) checksum += (s[nt][0] + s[nt][1]) + (s[nt][2] + s[nt][3]);
    }
    __syncthreads();  // td is rewritten by the next tile
  }
  if constexpr (!kWrite) sink[int64_t(blockIdx.x) * kThreads + tid] = checksum;
}

template <bool kWrite>
auto kernel_for(SegsumVariant v) {
  switch (v) {
    case SegsumVariant::kDiff: return segsum_probe_kernel<SegsumVariant::kDiff, kWrite>;
    case SegsumVariant::kDirect: return segsum_probe_kernel<SegsumVariant::kDirect, kWrite>;
    case SegsumVariant::kHierarchical: break;
  }
  return segsum_probe_kernel<SegsumVariant::kHierarchical, kWrite>;
}

}  // namespace

void segsum_probe(SegsumVariant v, const float* a_dev, int64_t tiles, float* mask_dev, float* e_dev,
                  float* p_dev, cudaStream_t stream) {
  if (tiles <= 0) return;
  const int64_t grid = std::min<int64_t>(tiles, int64_t(1) << 20);
  kernel_for<true>(v)<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(a_dev, tiles, mask_dev, e_dev,
                                                                            p_dev, nullptr);
  check(cudaGetLastError(), "launch");
}

float segsum_probe_time_ms(SegsumVariant v, const float* a_dev, int64_t tiles, int iters) {
  if (tiles <= 0 || iters <= 0) return 0.f;
  auto kernel = kernel_for<false>(v);
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0), "occupancy");
  const int64_t grid = std::max<int64_t>(1, std::min<int64_t>(tiles, int64_t(sms) * std::max(per_sm, 1)));

  float* sink = nullptr;
  check(cudaMalloc(&sink, grid * kThreads * sizeof(float)), "cudaMalloc");
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<float> ms;
  try {
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    kernel<<<static_cast<unsigned>(grid), kThreads>>>(a_dev, tiles, nullptr, nullptr, nullptr, sink);  // warm-up
    check(cudaGetLastError(), "launch");
    for (int it = 0; it < iters; ++it) {
      check(cudaEventRecord(start), "cudaEventRecord");
      kernel<<<static_cast<unsigned>(grid), kThreads>>>(a_dev, tiles, nullptr, nullptr, nullptr, sink);
      check(cudaGetLastError(), "launch");
      check(cudaEventRecord(stop), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float t = 0.f;
      check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
      ms.push_back(t);
    }
  } catch (...) {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    cudaFree(sink);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(sink);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace flashssd::sm80
