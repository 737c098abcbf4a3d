// Device test of the first sm90 compute step (src/kernels/sm90/scores_sm90.cuh):
// TMA into swizzled tiles, S = C B^T with WGMMA, the hierarchical decay mask on the
// WGMMA accumulator. Against float64 on the host; outputs poisoned first. Skips
// without a GPU of compute capability 9.0.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gpu_test_util.h"
#include "kernels/sm90/scores_sm90.cuh"

namespace {


using flashssd::testing::have_sm90;

template <int kN>
void run_scores_case(int seqlen, uint32_t seed) {
  if (!have_sm90()) GTEST_SKIP() << "no sm_90 GPU: sm90 test skipped";
  using K = flashssd::sm90::ScoresSm90<kN>;
  using Element = typename K::Element;
  constexpr int kQ = K::kQ;
  const int tiles = (seqlen + kQ - 1) / kQ;

  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> uni(0.f, 1.f);
  std::vector<Element> hC(size_t(seqlen) * kN), hB(size_t(seqlen) * kN);
  for (auto& v : hC) v = Element(normal(rng));
  for (auto& v : hB) v = Element(normal(rng));
  std::vector<float> ha(seqlen), hdt(seqlen);
  for (int t = 0; t < seqlen; ++t) {
    hdt[t] = 0.01f + uni(rng);
    ha[t] = -hdt[t] * (0.5f + 3.5f * uni(rng));  // dt * A, A in [-4, -0.5]
  }

  Element *C, *B;
  float *a, *dt, *scores;
  const size_t nbc = hC.size() * sizeof(Element), nscores = size_t(tiles) * kQ * kQ;
  CUDA_OK(cudaMalloc(&C, nbc));
  CUDA_OK(cudaMalloc(&B, nbc));
  CUDA_OK(cudaMalloc(&a, seqlen * sizeof(float)));
  CUDA_OK(cudaMalloc(&dt, seqlen * sizeof(float)));
  CUDA_OK(cudaMalloc(&scores, nscores * sizeof(float)));
  CUDA_OK(cudaMemcpy(C, hC.data(), nbc, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(B, hB.data(), nbc, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(a, ha.data(), seqlen * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dt, hdt.data(), seqlen * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(scores, 0xff, nscores * sizeof(float)));  // NaN poison

  const auto params = K::make_params(C, B, seqlen, a, dt, scores);
  auto kernel = flashssd::sm90::scores_sm90_kernel<K>;
  const int smem = int(K::kSmemBytes);
  CUDA_OK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<tiles, K::kThreads, smem>>>(params);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());

  std::vector<float> got(nscores);
  CUDA_OK(cudaMemcpy(got.data(), scores, nscores * sizeof(float), cudaMemcpyDeviceToHost));

  // Every entry: float64 (C_i . B_j) exp(a_{j+1} + ... + a_i) dt_j for j <= i, exactly 0
  // above the diagonal (the forward's RS GEMM reads all 64 columns of S').
  double err2 = 0, ref2 = 0;
  size_t nonfinite = 0, nonzero_above = 0;
  for (int tile = 0; tile < tiles; ++tile)
    for (int i = 0; i < kQ; ++i)
      for (int j = 0; j < kQ; ++j) {
        const int ti = tile * kQ + i, tj = tile * kQ + j;
        double want = 0;
        if (j <= i && ti < seqlen) {
          double dot = 0, seg = 0;
          for (int n = 0; n < kN; ++n) dot += double(float(hC[size_t(ti) * kN + n])) * double(float(hB[size_t(tj) * kN + n]));
          for (int k = tj + 1; k <= ti; ++k) seg += ha[k];
          want = dot * std::exp(seg) * hdt[tj];
        }
        const double v = got[(size_t(tile) * kQ + i) * kQ + j];
        if (!std::isfinite(v)) ++nonfinite;
        if (j > i && v != 0.0) ++nonzero_above;
        err2 += (v - want) * (v - want);
        ref2 += want * want;
      }
  EXPECT_EQ(nonfinite, 0u);
  EXPECT_EQ(nonzero_above, 0u) << "S' must be exactly 0 above the diagonal";
  const double rel = std::sqrt(err2 / ref2);
  EXPECT_LE(rel, 1e-5) << "masked scores rel err " << rel;
  std::printf("sm90 scores N=%d T=%d: rel err %.3g\n", kN, seqlen, rel);

  cudaFree(C); cudaFree(B); cudaFree(a); cudaFree(dt); cudaFree(scores);
}

TEST(Sm90ScoresSmall, WgmmaScoresWithHierarchicalMaskN128) { run_scores_case<128>(200, 1); }
TEST(Sm90ScoresSmall, WgmmaScoresWithHierarchicalMaskN64) { run_scores_case<64>(64, 2); }
TEST(Sm90ScoresSmall, WgmmaScoresWithHierarchicalMaskN256) { run_scores_case<256>(130, 3); }

}  // namespace
