// Measures the Hopper I/O path of the sm90 forward (src/kernels/sm90/
// tile_stream_sm90.cuh): persistent CTAs, a TMA producer warp and an mbarrier
// pipeline streaming R1's x, B, C tiles, a consumer warpgroup writing y. Checks
// every output against the host, then times it like flashssd_bench (L2 flushed
// before each run, median of --iters), and prints one JSON line.
//
//   flashssd_tile_stream_sm90 [--batch 8] [--seqlen 8192] [--H 64] [--G 1] [--iters 100]
//                             [--stages 4|2] [--ctas-per-sm 1] [--dt-in-pipeline 0|1]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "probe_util.h"
#include "kernels/sm90/tile_stream_sm90.cuh"

namespace {

using flashssd::probe::arg;
using flashssd::probe::time_sorted_ms;

using Element = cutlass::bfloat16_t;

template <class Kernel>
int run(int argc, char** argv) {
  const int batch = arg(argc, argv, "--batch", 8), T = arg(argc, argv, "--seqlen", 8192);
  const int H = arg(argc, argv, "--H", 64), G = arg(argc, argv, "--G", 1);
  const int iters = arg(argc, argv, "--iters", 100), ctas_per_sm = arg(argc, argv, "--ctas-per-sm", 1);
  constexpr int P = Kernel::kP, N = Kernel::kN;
  if (H % G != 0 || T < 1 || batch < 1) {
    std::fprintf(stderr, "bad shape\n");
    return 2;
  }
  cudaDeviceProp prop;
  PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) {
    std::printf("{\"bench\": \"tile_stream_sm90\", \"status\": \"skipped\", \"reason\": \"needs sm_90\"}\n");
    return 0;
  }

  const size_t nx = size_t(batch) * T * H * P, nbc = size_t(batch) * T * G * N, ndt = size_t(batch) * T * H;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> uni(0.005f, 0.2f);
  std::vector<Element> hx(nx), hB(nbc), hC(nbc);
  std::vector<float> hdt(ndt), hD(H);
  for (auto& v : hx) v = Element(normal(rng));
  for (auto& v : hB) v = Element(normal(rng));
  for (auto& v : hC) v = Element(normal(rng));
  for (auto& v : hdt) v = uni(rng);
  for (auto& v : hD) v = normal(rng);

  Element *x, *B, *C, *y;
  float *dt, *D;
  PROBE_CHECK(cudaMalloc(&x, nx * sizeof(Element)));
  PROBE_CHECK(cudaMalloc(&y, nx * sizeof(Element)));
  PROBE_CHECK(cudaMalloc(&B, nbc * sizeof(Element)));
  PROBE_CHECK(cudaMalloc(&C, nbc * sizeof(Element)));
  PROBE_CHECK(cudaMalloc(&dt, ndt * sizeof(float)));
  PROBE_CHECK(cudaMalloc(&D, H * sizeof(float)));
  PROBE_CHECK(cudaMemcpy(x, hx.data(), nx * sizeof(Element), cudaMemcpyHostToDevice));
  PROBE_CHECK(cudaMemcpy(B, hB.data(), nbc * sizeof(Element), cudaMemcpyHostToDevice));
  PROBE_CHECK(cudaMemcpy(C, hC.data(), nbc * sizeof(Element), cudaMemcpyHostToDevice));
  PROBE_CHECK(cudaMemcpy(dt, hdt.data(), ndt * sizeof(float), cudaMemcpyHostToDevice));
  PROBE_CHECK(cudaMemcpy(D, hD.data(), H * sizeof(float), cudaMemcpyHostToDevice));
  PROBE_CHECK(cudaMemset(y, 0xff, nx * sizeof(Element)));  // NaN poison

  const auto params = Kernel::make_params(x, B, C, dt, D, y, batch, T, H, G);
  const size_t smem = sizeof(typename Kernel::SharedStorage);
  auto kernel = flashssd::sm90::tile_stream_kernel<Kernel>;
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  const int grid = std::min(batch * H, prop.multiProcessorCount * ctas_per_sm);
  auto launch = [&] { kernel<<<grid, Kernel::kThreads, smem>>>(params); };
  launch();
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaDeviceSynchronize());

  // Check against the host: the kernel's two half sums, rounded to bf16 like y.
  std::vector<Element> hy(nx);
  PROBE_CHECK(cudaMemcpy(hy.data(), y, nx * sizeof(Element), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  double max_err = 0;
  for (int b = 0; b < batch; ++b)
    for (int t = 0; t < T; ++t)
      for (int h = 0; h < H; ++h) {
        const int g = h / (H / G);
        const Element* br = &hB[((size_t(b) * T + t) * G + g) * N];
        const Element* cr = &hC[((size_t(b) * T + t) * G + g) * N];
        float s0 = 0.f, s1 = 0.f;
        for (int i = 0; i < N / 2; ++i) s0 += float(br[i]) * float(cr[i]);
        for (int i = N / 2; i < N; ++i) s1 += float(br[i]) * float(cr[i]);
        const float add = (s0 + s1) * hdt[(size_t(b) * T + t) * H + h];
        for (int p = 0; p < P; ++p) {
          const size_t k = ((size_t(b) * T + t) * H + h) * P + p;
          const double want = double(float(Element(hD[h] * float(hx[k]) + add)));
          const double got = double(float(hy[k]));
          const double err = std::fabs(got - want) / std::max(1.0, std::fabs(want));
          if (!(err <= 1e-2)) ++bad;  // NaN (unwritten) counts as bad
          if (err > max_err || std::isnan(err)) max_err = std::isnan(err) ? INFINITY : err;
        }
      }

  // Timing: L2 flushed before each run.
  const std::vector<float> ms = time_sorted_ms(launch, iters, 5, size_t(prop.l2CacheSize));
  const double median = ms[iters / 2];
  const double bytes = double(nx) * 2 * sizeof(Element) + double(nbc) * 2 * sizeof(Element) + ndt * 4.0;
  std::printf(
      "{\"bench\": \"tile_stream_sm90\", \"status\": \"%s\", \"device\": \"%s\", \"batch\": %d, \"seqlen\": %d, "
      "\"H\": %d, \"P\": %d, \"N\": %d, \"G\": %d, \"stages\": %d, \"dt_in_pipeline\": %d, \"grid\": %d, \"smem_bytes\": %zu, "
      "\"median_ms\": %.5f, \"min_ms\": %.5f, \"bytes\": %.0f, \"achieved_TBps\": %.4f, \"bad_outputs\": %zu, "
      "\"max_rel_err\": %.3g}\n",
      bad ? "wrong" : "ok", prop.name, batch, T, H, P, N, G, Kernel::kStages, int(Kernel::kDtInPipeline), grid, smem, median, ms[0], bytes,
      bytes / median * 1e-9, bad, max_err);
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // 4 stages (160 KB, one CTA per SM) or 2 stages (80 KB, two CTAs per SM).
  // --dt-in-pipeline 1: the producer warp stages dt and the consumer reads B, C conflict-free.
  const int stages = arg(argc, argv, "--stages", 4);
  const bool dt_in_pipeline = arg(argc, argv, "--dt-in-pipeline", 0) != 0;
  using flashssd::sm90::TileStream;
  if (dt_in_pipeline) {
    if (stages == 2) return run<TileStream<Element, 64, 128, 2, true>>(argc, argv);
    return run<TileStream<Element, 64, 128, 4, true>>(argc, argv);
  }
  if (stages == 2) return run<TileStream<Element, 64, 128, 2>>(argc, argv);
  return run<TileStream<Element, 64, 128, 4>>(argc, argv);
}
