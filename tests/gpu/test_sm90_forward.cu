// Device test of the Hopper forward's kernel, launched directly (src/kernels/sm90/ssd_fwd_sm90.cuh)
// against the float64 recurrence: y and final states by relative norm error at the
// bf16 tolerance, fresh random inputs, outputs NaN-poisoned first; plus the fragment
// layout facts the kernel relies on. Skips without an sm_90 GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu_test_util.h"
#include "kernels/sm90/ssd_fwd_sm90.cuh"
#include "reference/reference.h"

namespace {


using flashssd::testing::have_sm90;

using flashssd::DType;
namespace ref = flashssd::ref;

template <class K>
void layout_facts() {
  if (!have_sm90()) GTEST_SKIP() << "no sm_90 GPU: sm90 test skipped";
  int* bad;
  CUDA_OK(cudaMalloc(&bad, sizeof(int)));
  CUDA_OK(cudaMemset(bad, 0, sizeof(int)));
  flashssd::sm90::ssd_fwd_sm90_layout_check<K><<<1, K::kWarpgroupThreads>>>(bad);
  CUDA_OK(cudaDeviceSynchronize());
  int h = -1;
  CUDA_OK(cudaMemcpy(&h, bad, sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(bad);
  EXPECT_EQ(h, 0) << "WGMMA fragment coordinates differ from what the kernel assumes";
}

// Options beyond the shape: packed sequences (seq_idx) and D per channel.
struct CaseOptions {
  int64_t packed_seqs = 0;  // > 1: random seq_idx with this many sequences per row
  bool D_per_channel = false;
  // Resets forced onto these tokens of every row (on top of packed_seqs): tile starts and
  // one-token sequences are the boundary cases of the folded reset.
  std::vector<int64_t> forced_starts;
  // Multiplies x, B and C (so the state by input_scale^2, its readout by ^3): large but finite
  // states, for the range the state fold leaves (K::kFoldFloor).
  double input_scale = 1.0;
};

// Packed sequences (seqs per row, random boundaries) with D per channel, plus resets forced
// onto `starts` of every row.
CaseOptions packed_with_channel_d(int64_t seqs, std::vector<int64_t> starts = {}) {
  CaseOptions opt;
  opt.packed_seqs = seqs;
  opt.D_per_channel = true;
  opt.forced_starts = std::move(starts);
  return opt;
}

template <class K>
// a_scale multiplies A (the decay rates; 1 = make_random's -U(0.05, 1.5)); P: the head dim, a
// multiple of K::kP (each consumer computes a 64-channel slice of a head).
void forward_case(int64_t batch, int64_t T, int64_t H, int64_t G, bool with_z, uint64_t seed, double a_scale = 1.0,
                  int64_t P = K::kP, const CaseOptions& opt = {}) {
  if (!have_sm90()) GTEST_SKIP() << "no sm_90 GPU: sm90 test skipped";
  using Element = typename K::Element;
  ref::RandomSpec spec;
  spec.batch = batch; spec.seqlen = T; spec.heads = H; spec.groups = G;
  spec.headdim = P; spec.dstate = K::kN;
  spec.D = true; spec.z = with_z; spec.seed = seed;
  spec.D_per_channel = opt.D_per_channel;
  spec.packed_seqs = opt.packed_seqs;
  ref::Inputs in = ref::make_random(spec);
  for (double& a : in.A) a *= a_scale;
  for (auto* v : {&in.x, &in.B, &in.C})
    for (double& e : *v) e *= opt.input_scale;
  if (!opt.forced_starts.empty()) {
    if (in.seq_idx.empty()) in.seq_idx.assign(size_t(batch * T), 0);
    for (int64_t bi = 0; bi < batch; ++bi) {
      int32_t* row = &in.seq_idx[size_t(bi * T)];
      int32_t bump = 0;  // keeps the row non-decreasing: every later token moves up with it
      std::vector<int32_t> orig(row, row + T);
      for (int64_t t = 0; t < T; ++t) {
        if (std::find(opt.forced_starts.begin(), opt.forced_starts.end(), t) != opt.forced_starts.end()) ++bump;
        row[t] = orig[t] + bump;
      }
    }
  }
  constexpr DType kIo = std::is_same_v<Element, cutlass::half_t> ? DType::kFloat16 : DType::kBFloat16;
  ref::round_inputs(in, kIo, DType::kFloat32);
  const ref::Outputs truth = ref::recurrence_forward(in);

  auto to_element = [](const std::vector<double>& v) {
    std::vector<Element> o(v.size());
    for (size_t i = 0; i < v.size(); ++i) o[i] = Element(float(v[i]));
    return o;
  };
  auto to_f32 = [](const std::vector<double>& v) {
    std::vector<float> o(v.size());
    for (size_t i = 0; i < v.size(); ++i) o[i] = float(v[i]);
    return o;
  };
  const auto hx = to_element(in.x), hB = to_element(in.B), hC = to_element(in.C), hz = to_element(in.z);
  const auto hdt = to_f32(in.dt), hA = to_f32(in.A), hD = to_f32(in.D);
  std::vector<void*> allocs;
  auto upload = [&](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    void* d = nullptr;
    if (v.empty()) return static_cast<T*>(nullptr);
    EXPECT_EQ(cudaMalloc(&d, v.size() * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    allocs.push_back(d);
    return static_cast<T*>(d);
  };
  const Element *x = upload(hx), *B = upload(hB), *C = upload(hC), *z = upload(hz);
  const float *dt = upload(hdt), *A = upload(hA), *D = upload(hD);
  // The kernel takes reset flags (the launcher builds them from seq_idx / cu_seqlens).
  std::vector<uint8_t> flags;
  if (!in.seq_idx.empty()) {
    flags.assign(in.seq_idx.size(), 0);
    for (int64_t bi = 0; bi < batch; ++bi)
      for (int64_t t = 1; t < T; ++t) flags[bi * T + t] = in.seq_idx[bi * T + t] != in.seq_idx[bi * T + t - 1];
  }
  const uint8_t* reset_flags = upload(flags);
  Element* y;
  float* fin;
  const size_t ny = hx.size(), nfin = size_t(batch) * H * P * K::kN;
  CUDA_OK(cudaMalloc(&y, ny * sizeof(Element)));
  CUDA_OK(cudaMalloc(&fin, nfin * sizeof(float)));
  allocs.push_back(y);
  allocs.push_back(fin);
  CUDA_OK(cudaMemset(y, 0xff, ny * sizeof(Element)));  // NaN poison
  CUDA_OK(cudaMemset(fin, 0xff, nfin * sizeof(float)));

  const int64_t x_s[3] = {T * H * P, H * P, P};
  const int64_t bc_s[3] = {T * G * K::kN, G * K::kN, K::kN};
  auto p = K::make_params(x, x_s, B, bc_s, C, bc_s, y, x_s, int(batch), int(T), int(H), int(G), int(P));
  p.dt = dt; p.dt_sb = T * H; p.dt_st = H; p.dt_sh = 1;
  p.A = A; p.A_s = 1; p.D = D;
  p.D_sh = opt.D_per_channel ? P : 1;
  p.D_sp = opt.D_per_channel ? 1 : 0;
  p.reset_flags = reset_flags;
  if (with_z) K::set_gate(p, z, x_s);
  p.final_states = fin; p.fin_sb = H * P * K::kN; p.fin_sh = P * K::kN; p.fin_sp = K::kN;
  // The chunk scores the main pass reads (the launcher's step before it; N = 128, 256).
  if constexpr (K::kChunkScores) {
    void* scores;
    const size_t score_bytes = flashssd::sm90::chunk_scores_bytes(int(batch), int(T), int(G));
    CUDA_OK(cudaMalloc(&scores, score_bytes));
    allocs.push_back(scores);
    CUDA_OK(cudaMemset(scores, 0xff, score_bytes));  // NaN poison: every tile and scale must be written
    float* inv_scales = flashssd::sm90::chunk_score_inv_scales(scores, int(batch), int(T), int(G));
    flashssd::sm90::launch_chunk_scores<typename K::CudaElement, K::kN, typename K::CudaScoreElement>(
        {B, C, bc_s[0], bc_s[1], bc_s[2], bc_s[0], bc_s[1], bc_s[2], int(batch), int(T), int(G), scores, inv_scales}, nullptr);
    K::set_chunk_scores(p, reinterpret_cast<const typename K::ScoreElement*>(scores), inv_scales);
  }
  const size_t kSmem = with_z ? K::template kSmemBytes<false, true> : K::template kSmemBytes<false, false>;  // the main pass
  auto kernel = with_z ? flashssd::sm90::ssd_fwd_sm90_kernel<K, true> : flashssd::sm90::ssd_fwd_sm90_kernel<K, false>;
  CUDA_OK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
  // Fewer CTAs than work items: the persistent loop walks several items per CTA.
  const int64_t items = batch * p.head_sets;
  kernel<<<unsigned(std::max<int64_t>(1, items / 3)), K::kThreads, kSmem>>>(p);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());

  std::vector<Element> gy(ny);
  std::vector<float> gfin(nfin);
  CUDA_OK(cudaMemcpy(gy.data(), y, ny * sizeof(Element), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(gfin.data(), fin, nfin * sizeof(float), cudaMemcpyDeviceToHost));
  for (void* d : allocs) cudaFree(d);
  std::vector<double> dy(ny), dfin(nfin);
  for (size_t i = 0; i < ny; ++i) dy[i] = float(gy[i]);
  for (size_t i = 0; i < nfin; ++i) dfin[i] = gfin[i];
  const double ey = ref::rel_error(dy, truth.y), es = ref::rel_error(dfin, truth.final_states);
  std::printf("sm90 forward b=%lld T=%lld H=%lld G=%lld P=%lld N=%d z=%d seq_idx=%d D/channel=%d: y rel err %.3g, "
              "state rel err %.3g\n", (long long)batch, (long long)T, (long long)H, (long long)G, (long long)P, K::kN,
              int(with_z), int(!in.seq_idx.empty()), int(opt.D_per_channel), ey, es);
  EXPECT_LE(ey, 1e-2);  // NaN (unwritten) fails
  EXPECT_LE(es, 1e-2);
}

// The chunk scores (chunk_scores_sm90.cuh) against float64 C B^T per tile: each tile's Out
// values times its inverse scale, by relative norm error at Out's rounding (fp16 scaled, bf16
// unscaled: inverse scales exactly 1); exact zeros right of the diagonal and in the rows and
// columns past T; every value and scale written (the output NaN-poisoned first). B and C with
// padded token strides and different layouts; `magnitude` scales the inputs (S far beyond
// fp16's range must come back finite and exact to Out's precision). max_ctas > 0 caps the
// persistent grid, so that each CTA walks many tiles through its stages (the launch's default
// grid has up to ChunkScoresSm90::kCtasPerSm CTAs per SM, so small problems give every CTA one
// tile); the output must then be the default grid's bit for bit (a tile's arithmetic does not
// depend on which CTA computes it), so that a stale or early-read piece of a stage, which would
// move a few entries by less than the norm tolerance, fails too.
template <class T, int kN, class Out = __half>
void chunk_scores_case(int batch, int seqlen, int groups, uint64_t seed, double magnitude = 1.0, int max_ctas = 0) {
  if (!have_sm90()) GTEST_SKIP() << "no sm_90 GPU: sm90 test skipped";
  constexpr int kQ = flashssd::sm90::kChunkScoresQ;
  const int64_t b_st = int64_t(groups) * kN + 64, c_st = int64_t(groups) * kN + 8;  // (multiples of 8)
  const int64_t b_sb = seqlen * b_st, c_sb = seqlen * c_st;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<T> hB(size_t(batch) * b_sb), hC(size_t(batch) * c_sb);
  std::vector<double> rB(hB.size()), rC(hC.size());  // the rounded values
  auto fill = [&](std::vector<T>& h, std::vector<double>& r) {
    for (size_t i = 0; i < h.size(); ++i) {
      h[i] = T(float(magnitude * normal(rng)));
      r[i] = double(float(h[i]));
    }
  };
  fill(hB, rB);
  fill(hC, rC);
  const int tiles = (seqlen + kQ - 1) / kQ;
  const size_t n = flashssd::sm90::chunk_scores_elements(batch, seqlen, groups);
  const size_t ntiles = flashssd::sm90::chunk_scores_tiles(batch, seqlen, groups);
  const size_t bytes = flashssd::sm90::chunk_scores_bytes(batch, seqlen, groups);
  ASSERT_EQ(n, size_t(batch) * groups * tiles * kQ * kQ);
  ASSERT_EQ(bytes, n * 2 + ntiles * 4);
  T *dB, *dC;
  void* dS;
  CUDA_OK(cudaMalloc(&dB, hB.size() * sizeof(T)));
  CUDA_OK(cudaMalloc(&dC, hC.size() * sizeof(T)));
  CUDA_OK(cudaMalloc(&dS, bytes));
  float* dInv = flashssd::sm90::chunk_score_inv_scales(dS, batch, seqlen, groups);
  ASSERT_EQ(reinterpret_cast<char*>(dInv), reinterpret_cast<char*>(dS) + n * 2);
  CUDA_OK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dC, hC.data(), hC.size() * sizeof(T), cudaMemcpyHostToDevice));
  auto run = [&](int ctas, std::vector<unsigned char>& out) {  // (CUDA_OK returns on failure)
    out.assign(bytes, 0);
    CUDA_OK(cudaMemset(dS, 0xff, bytes));  // NaN poison
    flashssd::sm90::launch_chunk_scores<T, kN, Out>({dB, dC, b_sb, b_st, kN, c_sb, c_st, kN, batch, seqlen, groups, dS, dInv},
                                                    nullptr, false, ctas);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(out.data(), dS, bytes, cudaMemcpyDeviceToHost));
  };
  std::vector<unsigned char> out, default_grid;
  run(max_ctas, out);
  if (max_ctas > 0) {
    run(0, default_grid);
    size_t differ = 0;
    for (size_t i = 0; i < bytes; ++i) differ += out[i] != default_grid[i];
    EXPECT_EQ(differ, 0u) << "bytes that differ from the default grid's output (CTAs <= " << max_ctas << ")";
  }
  std::vector<Out> hS(n);
  std::vector<float> hInv(ntiles);
  std::memcpy(hS.data(), out.data(), n * 2);
  std::memcpy(hInv.data(), out.data() + n * 2, ntiles * 4);
  cudaFree(dB);
  cudaFree(dC);
  cudaFree(dS);
  std::vector<double> got(n), want(n, 0.0);
  int64_t nonzero_outside = 0, non_finite = 0;
  for (int b = 0; b < batch; ++b)
    for (int g = 0; g < groups; ++g)
      for (int t = 0; t < tiles; ++t) {
        const size_t tile = size_t(b * groups + g) * tiles + t;
        for (int i = 0; i < kQ; ++i)
          for (int j = 0; j < kQ; ++j) {
            const size_t at = (tile * kQ + i) * kQ + j;
            const double v = double(float(hS[at]));
            got[at] = v * double(hInv[tile]);
            non_finite += !std::isfinite(got[at]);
            const int ti = t * kQ + i, tj = t * kQ + j;
            if (ti >= seqlen || tj >= seqlen || j > i) {
              nonzero_outside += v != 0.0;  // (NaN counts)
              continue;
            }
            double sum = 0;
            for (int k = 0; k < kN; ++k) sum += rC[b * c_sb + ti * c_st + g * kN + k] * rB[b * b_sb + tj * b_st + g * kN + k];
            want[at] = sum;
          }
      }
  const double err = ref::rel_error(got, want);
  constexpr bool kScaled = std::is_same_v<Out, __half>;
  std::printf("chunk scores b=%d T=%d G=%d N=%d %s magnitude %g, CTAs <= %d: rel err %.3g\n", batch, seqlen, groups, kN,
              kScaled ? "fp16" : "bf16", magnitude, max_ctas, err);
  EXPECT_LE(err, kScaled ? 1e-3 : 4e-3);  // fp16 rounding of each scaled score, bf16's (~1.7e-3); NaN (unwritten) fails
  if (!kScaled) {
    int64_t not_one = 0;
    for (float inv : hInv) not_one += inv != 1.f;
    EXPECT_EQ(not_one, 0) << "bf16 chunk scores are unscaled";
  }
  EXPECT_EQ(non_finite, 0);
  EXPECT_EQ(nonzero_outside, 0) << "entries right of the diagonal and rows / columns past T must be zero";
}

TEST(Sm90ChunkScores, Bf16N128PartialTile) { chunk_scores_case<__nv_bfloat16, 128>(2, 200, 2, 31); }
// The bf16 kernels at N = 128 read them in bf16, unscaled (SsdFwdSm90::kFactoredScores).
TEST(Sm90ChunkScores, Bf16OutN128PartialTile) { chunk_scores_case<__nv_bfloat16, 128, __nv_bfloat16>(2, 200, 2, 34); }
TEST(Sm90ChunkScores, Bf16N64) { chunk_scores_case<__nv_bfloat16, 64>(1, 128, 3, 32); }
TEST(Sm90ChunkScores, Fp16N256PartialTile) { chunk_scores_case<__half, 256>(2, 70, 1, 33); }
// |S| ~ 1e7, far past fp16's 65504 (bf16 inputs hold it), and ~1e-7: the tile scale keeps both.
TEST(Sm90ChunkScores, Bf16LargeAndSmallMagnitudes) {
  chunk_scores_case<__nv_bfloat16, 128>(1, 130, 1, 34, 300.0);
  chunk_scores_case<__nv_bfloat16, 128>(1, 130, 1, 35, 3e-5);
  chunk_scores_case<__nv_bfloat16, 128, __nv_bfloat16>(1, 130, 1, 36, 300.0);
  chunk_scores_case<__nv_bfloat16, 128, __nv_bfloat16>(1, 130, 1, 37, 3e-5);
}
// A few CTAs for many tiles: each walks 11-32 tiles through its 3-6 stages (the stage ring wraps
// several times, the CTAs' counts differ, the partial last tile of a sequence comes mid-walk).
TEST(Sm90ChunkScores, ManyTilesPerCtaSmall) {
  chunk_scores_case<__nv_bfloat16, 128>(3, 1000, 2, 38, 1.0, 5);
  chunk_scores_case<__nv_bfloat16, 128, __nv_bfloat16>(3, 1000, 2, 39, 1.0, 7);
  chunk_scores_case<__half, 256>(2, 700, 1, 40, 1.0, 2);
  chunk_scores_case<__nv_bfloat16, 64>(1, 2000, 3, 41, 1.0, 3);
}

using K128 = flashssd::sm90::SsdFwdSm90<64, 128>;
static_assert(K128::kFactoredScores && std::is_same_v<K128::CudaScoreElement, __nv_bfloat16>,
              "the bf16 N = 128 kernel factors the intra-tile term (bf16 chunk scores)");
using K64 = flashssd::sm90::SsdFwdSm90<64, 64>;

TEST(Sm90ForwardSmall, FragmentLayoutFacts) { layout_facts<K128>(); }
TEST(Sm90ForwardSmall, OneTileNoGate) { forward_case<K128>(1, 64, 2, 1, false, 11); }
TEST(Sm90ForwardSmall, PartialTilesWithGateAndGroups) { forward_case<K128>(2, 200, 4, 2, true, 12); }
TEST(Sm90ForwardSmall, StateDim64) { forward_case<K64>(2, 130, 4, 1, true, 13); }
// Heads per group not a multiple of the CTA's two: the last item of each group has a spare
// consumer (3 heads per group; one head per group, every CTA with a spare).
TEST(Sm90ForwardSmall, OddHeadsPerGroup) { forward_case<K128>(2, 190, 6, 2, true, 16); }
TEST(Sm90ForwardSmall, OneHeadPerGroup) { forward_case<K64>(1, 129, 3, 3, false, 17); }
// A single head: one work item per batch (the launcher's grid was once sized 0 for it).
TEST(Sm90ForwardSmall, SingleHead) { forward_case<K128>(2, 100, 1, 1, true, 18); }
TEST(Sm90ForwardSmall, OneHeadPerCta) { forward_case<flashssd::sm90::SsdFwdSm90<64, 128, 1>>(2, 150, 3, 3, true, 15); }
// Head dim 128: each head's two 64-channel slices go to the two consumers of one CTA (or to
// two CTAs with one consumer), sharing the head's decay; the state's rows and y's columns
// are offset by the slice.
TEST(Sm90ForwardSmall, HeadDim128) { forward_case<K64>(2, 200, 3, 1, true, 20, 1.0, 128); }
// Without the gate at N = 64 (S from C in registers, the balanced rows), with fewer CTAs than
// items and items of 1-4 tiles.
TEST(Sm90ForwardSmall, HeadDim128NoGate) {
  forward_case<K64>(2, 200, 3, 1, false, 26, 1.0, 128);
  forward_case<K64>(3, 130, 4, 2, false, 27, 1.0, 128);
  forward_case<K64>(1, 64, 2, 1, false, 28, 1.0, 128);
}
TEST(Sm90ForwardSmall, HeadDim128OneHeadPerGroup) { forward_case<K128>(1, 129, 3, 3, false, 21, 1.0, 128); }
TEST(Sm90ForwardSmall, HeadDim128OneSlicePerCta) {
  forward_case<flashssd::sm90::SsdFwdSm90<64, 128, 1>>(2, 150, 2, 1, true, 22, 1.0, 128);
}
// The N = 64 z kernel prepares a head's decay once when an item's two slots are slices of one
// head (kOneHeadDecay: head dim 128, or a group's odd last head with its spare slot), and both
// consumers read slot 0's record: with packed sequences and D per channel, with a spare slot,
// and over many tiles with mid-item refolds of the state, in bf16 and fp16.
TEST(Sm90ForwardSmall, GatedStateDim64OneHeadDecay) {
  const CaseOptions opt = packed_with_channel_d(3, {0, 64, 70, 71, 191});
  forward_case<K64>(2, 260, 3, 1, true, 45, 0.01, 128, opt);
  forward_case<K64>(2, 190, 6, 2, true, 46);  // 3 heads per group: each group's last item has a spare slot
  forward_case<K64>(1, 1500, 2, 1, true, 47, 0.1, 128);  // refolds within the item
  forward_case<flashssd::sm90::SsdFwdSm90<64, 64, 2, cutlass::half_t>>(2, 200, 3, 1, true, 48, 1.0, 128, opt);
}
// Packed sequences: random boundaries, plus resets on a tile's first token (64, 128), on
// consecutive tokens (one-token sequences 70, 71) and on the last token of a tile (191).
TEST(Sm90ForwardSmall, PackedSequencesAndDPerChannel) {
  CaseOptions opt = packed_with_channel_d(4, {64, 70, 71, 128, 191});
  forward_case<K128>(2, 260, 4, 1, true, 23, 1.0, 64, opt);
  forward_case<K64>(2, 260, 3, 1, false, 24, 0.01, 128, opt);  // weak decay: the reset alone cuts the memory
  forward_case<K128>(2, 260, 4, 2, false, 31, 1.0, 64, opt);  // no gate (the flags are loaded a tile ahead in every kernel)
  opt.forced_starts = {0, 1, 63, 64, 65, 259};  // also on an item's first and last tokens
  forward_case<K128>(1, 260, 2, 1, false, 32, 0.01, 64, opt);
  // With the gate (the z kernels load the flags ahead since session 34; the N = 64 one also
  // asks L2 for dt ahead). First run on a GPU in session 35 (calls 1, 2 and 6: pass).
  forward_case<K128>(1, 260, 2, 1, true, 33, 0.01, 64, opt);
  forward_case<K64>(1, 260, 2, 1, true, 34, 0.01, 64, opt);
}
// fp16 inputs (the same kernel with cutlass::half_t operands).
using K128Half = flashssd::sm90::SsdFwdSm90<64, 128, 2, cutlass::half_t>;
static_assert(!K128Half::kFactoredScores, "fp16 keeps the plain recurrence, so the masked S' and scaled fp16 scores");
using K64Half = flashssd::sm90::SsdFwdSm90<64, 64, 2, cutlass::half_t>;
TEST(Sm90ForwardSmall, Float16) {
  forward_case<K128Half>(2, 200, 4, 2, true, 25);
  forward_case<K64Half>(2, 150, 3, 3, false, 26, 1.0, 128, packed_with_channel_d(3));
}
// N = 256: one head slice per CTA and the lean schedule (fewer GEMMs in flight).
using K256 = flashssd::sm90::SsdFwdSm90<64, 256, 1>;
TEST(Sm90ForwardSmall, StateDim256) {
  forward_case<K256>(2, 200, 4, 2, true, 27);
  forward_case<K256>(1, 129, 3, 3, false, 28, 1.0, 128);  // head dim 128: two slices
  forward_case<flashssd::sm90::SsdFwdSm90<64, 256, 1, cutlass::half_t>>(2, 260, 2, 1, true, 29, 1.0, 64,
                                                                         packed_with_channel_d(3, {64, 70, 71, 191}));
}
TEST(Sm90Forward, ManyTilesStateDim256) { forward_case<K256>(1, 4096, 4, 1, true, 30, 0.01); }
TEST(Sm90Forward, ManyTiles) { forward_case<K128>(1, 4096, 8, 1, true, 14); }
// Long memory: decay rates 100x smaller than the default (a tile decays the state by ~e^-0.4
// instead of ~e^-30), so the state carries every earlier tile's contribution.
TEST(Sm90Forward, ManyTilesWeakDecay) { forward_case<K128>(1, 4096, 8, 1, true, 19, 0.01); }
// Strong decay (rates 4x the default: ~e^-120 per tile on average, 0.2-6 nats per token): at
// N = 128 most tiles refold, those within kFactoredTileDecay (~66 nats) in the factored form
// (readout factors up to 2^96, weights down to dt 2^-96), the others exact, in the same items;
// y must stay finite and exact. At 2x the tiles straddle that bound, and the states of inputs
// 1000x larger (readout ~1e10) pass through the factored refold tiles' scalars too.
TEST(Sm90Forward, ManyTilesStrongDecay) {
  forward_case<K128>(1, 2048, 8, 1, true, 45, 4.0);
  forward_case<K128>(2, 1000, 6, 2, false, 46, 4.0);
  forward_case<K128>(1, 2048, 8, 1, false, 47, 2.0);
  CaseOptions large;
  large.input_scale = 1000.0;
  forward_case<K128>(1, 2048, 8, 1, true, 48, 2.0, 64, large);
  forward_case<K256>(1, 2048, 2, 1, true, 49, 4.0);  // N = 256: the plain recurrence, gated
}
// The state fold (K::kFoldFloor): decays 10x smaller than the default (~e^-3 per tile), so
// that the running decay G crosses the floor a few times within the item and the state is
// refolded mid-sequence (the default refolds every 2-3 tiles, the weak decay above only on
// the last); N = 64 folds too, N = 256 keeps the plain recurrence.
TEST(Sm90Forward, ManyTilesStateRefolds) {
  forward_case<K128>(1, 4096, 8, 1, false, 40, 0.1);
  forward_case<K64>(1, 4096, 4, 1, true, 41, 0.1);
  forward_case<K256>(1, 4096, 2, 1, false, 42, 0.1);
}
// The same with x, B and C 1000x larger: the state's readout h C^T reaches ~1e10, which the
// folded state holds as h C^T / G with G down to the floor. At a floor of 2^-100 that passed
// fp32's 3.4e38 (Inf in y where the plain recurrence is finite); at 2^-64 it stays ~1e29.
TEST(Sm90Forward, LargeStatesWithRefolds) {
  CaseOptions opt;
  opt.input_scale = 1000.0;
  forward_case<K128>(1, 4096, 8, 1, false, 43, 0.1, 64, opt);
  forward_case<K64>(1, 4096, 4, 1, true, 44, 0.1, 64, opt);
  forward_case<K256>(1, 4096, 2, 1, true, 50, 0.1, 64, opt);  // (N = 256 keeps the plain recurrence)
}

}  // namespace
