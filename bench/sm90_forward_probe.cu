// Times the Hopper forward's kernel (src/kernels/sm90/ssd_fwd_sm90.cuh, issue 5)
// launched directly, without the API (flashssd_bench times ssd_forward): R1-like shapes,
// random inputs generated on the device, no dt bias/softplus unless --softplus 1, L2 flushed before each
// run, median of --iters, one JSON line. Correctness is tests/gpu/test_sm90_forward.cu's job.
//
//   flashssd_sm90_forward_probe [--batch 8] [--seqlen 8192] [--H 64] [--G 1] [--P 64|128] [--N 64|128|256] [--z 0|1] [--iters 50]
//                               [--persistent 1|0]  (0: one CTA per work item)
//                               [--packed k]  (seq_idx: k packed sequences per row)
//                               [--softplus 1]  (dt raw + dt_bias through softplus, as flashssd_bench)
//                               [--dt-bf16 1]  (dt in bf16)
//                               [--dt-transposed 1]  (dt laid out (b, H, T): a head's tokens contiguous)
//                               [--final-states 0]  (no final states, as the benchmark; default 1)
//                               [--a-scale k]  (A in [-8 k, -k] instead of [-8, -1]: faster decays)
//                               [--carveout pct]  (cudaFuncAttributePreferredSharedMemoryCarveout, 0-100;
//                                                  default: the driver's choice for the kernel's shared memory)
//                               [--warm-l2 1]  (no L2 flush between runs: on a shape whose inputs fit in L2,
//                                               the kernel's rate with its reads hitting L2)
//                               [--state-pass s]  (s >= 2: time the split scheme's state pass instead, for s
//                                                  splits, with the API's runs per split unless --runs r;
//                                                  R4: --batch 1 --seqlen 131072 --state-pass 4;
//                                                  R1 32k: --batch 2 --seqlen 32768 --state-pass 2)
//                               [--scores-only 1]  (N = 128 / 256: time the chunk scores pass alone)
//                               [--grid g]         (at most g CTAs in the persistent grid; default: the SMs)
//                               [--main-splits s]  (s >= 2: the main pass of s splits, each split's incoming
//                                                   state from the split workspace, filled with values in
//                                                   [-1, 1]; R4: --batch 1 --seqlen 131072 --main-splits 4)
//   flashssd_sm90_forward_probe --read-bw MB | --copy-bw MB | --gate-bw MB
//                               (the references for those: the device's read-only bandwidth on MB
//                                megabytes, 16-byte loads; a device-to-device cudaMemcpyAsync of MB;
//                                two MB streams read and one written, the gated main pass's mix)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "probe_util.h"
#include "kernels/common/launch_util.h"
#include "kernels/sm90/ssd_fwd_sm90.cuh"

namespace {

using flashssd::probe::arg;
using flashssd::probe::time_sorted_ms;

// Uniform values in [lo, hi) from a hash of the index (no zeros, no host traffic).
template <class T>
__global__ void fill_uniform(T* out, size_t n, float lo, float hi, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed ^ uint32_t(i >> 32) * 40503u;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
    out[i] = T(lo + (hi - lo) * (float(h >> 8) * (1.f / 16777216.f)));
  }
}

__global__ void to_bf16(const float* in, __nv_bfloat16* out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = __float2bfloat16(in[i]);
}

// Reads n 16-byte words, four in flight per thread, and keeps them live by a never-true store.
__global__ void read_words(const uint4* in, size_t n, uint32_t* sink) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  uint32_t acc = 0;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < 4; ++k) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  for (; i < n; i += stride) acc ^= in[i].x ^ in[i].w;
  if (acc == 0x9e3779b9u) *sink = acc;
}

// Two streams read, one written (out = a ^ b, 16-byte words, four in flight per thread): the
// gated main pass's mix of DRAM traffic (x and z read, y written).
__global__ void gate_words(const uint4* a, const uint4* b, uint4* out, size_t n) {
  auto mix = [](uint4 u, uint4 v) { return make_uint4(u.x ^ v.x, u.y ^ v.y, u.z ^ v.z, u.w ^ v.w); };
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    uint4 u[4], v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) u[k] = a[i + k * stride], v[k] = b[i + k * stride];
#pragma unroll
    for (int k = 0; k < 4; ++k) out[i + k * stride] = mix(u[k], v[k]);
  }
  for (; i < n; i += stride) out[i] = mix(a[i], b[i]);
}

// --read-bw MB / --copy-bw MB / --gate-bw MB (two MB streams read, one written): one JSON line
// with the bandwidth (bytes moved / median).
int run_bandwidth(int argc, char** argv) {
  const int read_mb = arg(argc, argv, "--read-bw", 0), copy_mb = arg(argc, argv, "--copy-bw", 0);
  const int gate_mb = arg(argc, argv, "--gate-bw", 0);
  const char* mode = gate_mb > 0 ? "gate" : copy_mb > 0 ? "copy" : "read";
  const int mb = gate_mb > 0 ? gate_mb : copy_mb > 0 ? copy_mb : read_mb;
  const size_t bytes = size_t(mb) << 20;
  const int iters = arg(argc, argv, "--iters", 50);
  cudaDeviceProp prop;
  PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
  uint8_t *src, *src2 = nullptr, *dst = nullptr;
  uint32_t* sink;
  PROBE_CHECK(cudaMalloc(&src, bytes));
  PROBE_CHECK(cudaMalloc(&sink, 4));
  fill_uniform<<<1024, 256>>>(reinterpret_cast<float*>(src), bytes / 4, -1.f, 1.f, 9);
  if (gate_mb > 0) {
    PROBE_CHECK(cudaMalloc(&src2, bytes));
    fill_uniform<<<1024, 256>>>(reinterpret_cast<float*>(src2), bytes / 4, -1.f, 1.f, 10);
  }
  if (gate_mb > 0 || copy_mb > 0) PROBE_CHECK(cudaMalloc(&dst, bytes));
  PROBE_CHECK(cudaGetLastError());
  auto launch = [&] {
    if (gate_mb > 0)
      gate_words<<<prop.multiProcessorCount * 4, 512>>>(reinterpret_cast<const uint4*>(src), reinterpret_cast<const uint4*>(src2),
                                                        reinterpret_cast<uint4*>(dst), bytes / 16);
    else if (copy_mb > 0) PROBE_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
    else read_words<<<prop.multiProcessorCount * 4, 512>>>(reinterpret_cast<const uint4*>(src), bytes / 16, sink);
  };
  const std::vector<float> ms = time_sorted_ms(launch, iters, 3, size_t(prop.l2CacheSize));
  const double moved = double(bytes) * (gate_mb > 0 ? 3 : copy_mb > 0 ? 2 : 1);
  std::printf("{\"bench\": \"sm90_forward_probe\", \"status\": \"ok\", \"%s_MB\": %d, \"median_ms\": %.5f, \"min_ms\": %.5f, "
              "\"bytes\": %.0f, \"achieved_TBps\": %.4f}\n",
              mode, mb, ms[iters / 2], ms[0], moved, moved / ms[iters / 2] * 1e-9);
  return 0;
}

template <class K>
int run(int argc, char** argv) {
  using Element = typename K::Element;
  const int batch = arg(argc, argv, "--batch", 8), T = arg(argc, argv, "--seqlen", 8192);
  const int H = arg(argc, argv, "--H", 64), G = arg(argc, argv, "--G", 1), iters = arg(argc, argv, "--iters", 50);
  const bool with_z = arg(argc, argv, "--z", 0) != 0;
  if (H % G != 0 || T < 1 || batch < 1) return std::fprintf(stderr, "bad shape\n"), 2;
  cudaDeviceProp prop;
  PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) return std::printf("{\"bench\": \"sm90_forward_probe\", \"status\": \"skipped\"}\n"), 0;
  constexpr int N = K::kN;
  const int P = arg(argc, argv, "--P", K::kP);  // the head dim: slices of K::kP channels
  if (P % K::kP != 0) return std::fprintf(stderr, "--P must be a multiple of %d\n", K::kP), 2;
  const size_t nx = size_t(batch) * T * H * P, nbc = size_t(batch) * T * G * N, ndt = size_t(batch) * T * H;
  Element *x, *B, *C, *z, *y;
  float *dt, *A, *D, *fin;
  PROBE_CHECK(cudaMalloc(&x, nx * 2)); PROBE_CHECK(cudaMalloc(&z, nx * 2)); PROBE_CHECK(cudaMalloc(&y, nx * 2));
  PROBE_CHECK(cudaMalloc(&B, nbc * 2)); PROBE_CHECK(cudaMalloc(&C, nbc * 2));
  PROBE_CHECK(cudaMalloc(&dt, ndt * 4)); PROBE_CHECK(cudaMalloc(&A, H * 4)); PROBE_CHECK(cudaMalloc(&D, H * 4));
  PROBE_CHECK(cudaMalloc(&fin, size_t(batch) * H * P * N * 4));
  fill_uniform<<<1024, 256>>>(x, nx, -1.f, 1.f, 1); fill_uniform<<<1024, 256>>>(z, nx, -2.f, 2.f, 2);
  fill_uniform<<<1024, 256>>>(B, nbc, -1.f, 1.f, 3); fill_uniform<<<1024, 256>>>(C, nbc, -1.f, 1.f, 4);
  // --a-scale k: decay rates k times larger (A in [-8 k, -k]), for the tiles the fast decays of
  // real heads make: k = 4 puts most tiles past the factored form's range (the exact form).
  const float a_scale = float(arg(argc, argv, "--a-scale", 1));
  fill_uniform<<<1024, 256>>>(dt, ndt, 0.001f, 0.1f, 5); fill_uniform<<<1, 256>>>(A, H, -8.f * a_scale, -1.f * a_scale, 6);
  fill_uniform<<<1, 256>>>(D, H, 0.5f, 1.5f, 7);
  PROBE_CHECK(cudaGetLastError());

  const int64_t x_s[3] = {int64_t(T) * H * P, int64_t(H) * P, P};
  const int64_t bc_s[3] = {int64_t(T) * G * N, int64_t(G) * N, N};
  auto p = K::make_params(x, x_s, B, bc_s, C, bc_s, y, x_s, batch, T, H, G, P);
  p.dt = dt; p.dt_sb = int64_t(T) * H; p.dt_st = H; p.dt_sh = 1;
  p.A = A; p.A_s = 1; p.D = D; p.D_sh = 1; if (with_z) K::set_gate(p, z, x_s);
  // --softplus 1: dt as flashssd_bench gives it (raw in [-3, 0], dt_bias in [-4, -2], softplus:
  // dt in ~[0.001, 0.13]), so that the producer does the API's dt work.
  if (arg(argc, argv, "--softplus", 0)) {
    float* dt_bias;
    PROBE_CHECK(cudaMalloc(&dt_bias, H * 4));
    fill_uniform<<<1024, 256>>>(dt, ndt, -3.f, 0.f, 5);
    fill_uniform<<<1, 256>>>(dt_bias, H, -4.f, -2.f, 8);
    PROBE_CHECK(cudaGetLastError());
    p.dt_bias = dt_bias; p.dt_bias_s = 1; p.dt_softplus = true;
  }
  // --dt-bf16 1: dt handed over in bf16 (the same values rounded), as models often keep it.
  if (arg(argc, argv, "--dt-bf16", 0)) {
    __nv_bfloat16* dt16;
    PROBE_CHECK(cudaMalloc(&dt16, ndt * 2));
    to_bf16<<<1024, 256>>>(dt, dt16, ndt);
    PROBE_CHECK(cudaGetLastError());
    p.dt = dt16; p.dt_type = flashssd::ScalarType::kBF16;
  }
  // --dt-transposed 1: the same buffer read as (b, H, T), so that the producer warp's 32 tokens of
  // one head are 128 contiguous bytes (the API's (b, T, H) puts them H * 4 bytes apart).
  if (arg(argc, argv, "--dt-transposed", 0)) { p.dt_sb = int64_t(T) * H; p.dt_st = 1; p.dt_sh = T; }
  // --final-states 0: no final states, as the benchmark's rows (bench/compare.py) time it. The
  // default (1) is every earlier probe log's: at 512 tokens x 128 sequences the states are 268 MB
  // of fp32 writes beside x and y's 1.07 GB: likely much of why that row reads 0.62 ms in the probe
  // and 0.50 through the benchmark (not yet measured with 0).
  if (arg(argc, argv, "--final-states", 1)) { p.final_states = fin; p.fin_sb = int64_t(H) * P * N; p.fin_sh = P * N; p.fin_sp = N; }
  // The chunk scores the main pass reads, computed once (the probe times the main pass;
  // flashssd_bench times both).
  const bool scores_only = arg(argc, argv, "--scores-only", 0) != 0;
  if (scores_only && !K::kChunkScores) return std::fprintf(stderr, "--scores-only: N = %d has no chunk scores pass\n", N), 2;
  if constexpr (K::kChunkScores) {
    __half* scores;
    PROBE_CHECK(cudaMalloc(&scores, flashssd::sm90::chunk_scores_bytes(batch, T, G)));
    float* inv_scales = flashssd::sm90::chunk_score_inv_scales(scores, batch, T, G);
    const flashssd::sm90::ChunkScoresArgs sargs{B, C, bc_s[0], bc_s[1], bc_s[2], bc_s[0], bc_s[1], bc_s[2], batch, T, G, scores, inv_scales};
    flashssd::sm90::launch_chunk_scores<typename K::CudaElement, N, typename K::CudaScoreElement>(sargs, nullptr);
    K::set_chunk_scores(p, reinterpret_cast<const typename K::ScoreElement*>(scores), inv_scales);
    // --scores-only 1: times the chunk scores pass alone (B and C read, S written).
    if (scores_only) {
      auto launch = [&] {
        flashssd::sm90::launch_chunk_scores<typename K::CudaElement, N, typename K::CudaScoreElement>(sargs, nullptr);
      };
      const std::vector<float> ms = time_sorted_ms(launch, iters, 3, size_t(prop.l2CacheSize));
      const double bytes = double(nbc) * 2 * 2 + double(flashssd::sm90::chunk_scores_bytes(batch, T, G));
      std::printf("{\"bench\": \"sm90_forward_probe\", \"status\": \"ok\", \"pass\": \"chunk_scores\", \"batch\": %d, "
                  "\"seqlen\": %d, \"G\": %d, \"N\": %d, \"median_ms\": %.5f, \"min_ms\": %.5f, \"bytes\": %.0f, "
                  "\"achieved_TBps\": %.4f}\n",
                  batch, T, G, N, ms[iters / 2], ms[0], bytes, bytes / ms[iters / 2] * 1e-9);
      return 0;
    }
  }
  // --packed k: seq_idx with k packed sequences per row (boundaries off the tile grid).
  const int packed = arg(argc, argv, "--packed", 0);
  uint8_t* flags = nullptr;
  if (packed > 1) {
    auto seq = [&](int t) { return std::min<int64_t>(packed - 1, (int64_t(t) + 37) * packed / T); };
    std::vector<uint8_t> h(size_t(batch) * T);
    for (int b = 0; b < batch; ++b)
      for (int t = 1; t < T; ++t) h[size_t(b) * T + t] = seq(t) != seq(t - 1);
    PROBE_CHECK(cudaMalloc(&flags, h.size()));
    PROBE_CHECK(cudaMemcpy(flags, h.data(), h.size(), cudaMemcpyHostToDevice));
    p.reset_flags = flags;  // the kernel's form of seq_idx
  }
  // --state-pass s: the state pass of s splits (each split's local state and decay, all but the
  // last; ssd_fwd_sm90_launch.cuh's step 1) with the launcher's runs per split, into buffers of
  // the launcher's layout (allocate_split_workspace). Its stages have no z and no final states.
  // --main-splits s: the main pass of s splits, as the launcher runs it after the state pass
  // and the boundary scan (their output, the incoming states, is filled here).
  const int state_splits = arg(argc, argv, "--state-pass", 0), main_splits = arg(argc, argv, "--main-splits", 0);
  flashssd::Workspace split_workspace(nullptr);
  const bool state_pass = state_splits > 1;
  if (state_pass && main_splits > 1) return std::fprintf(stderr, "--main-splits and --state-pass time different passes: give one\n"), 2;
  if (state_pass && with_z) return std::fprintf(stderr, "--state-pass takes no --z\n"), 2;
  if (const int splits = state_pass ? state_splits : main_splits; splits > 1) {
    if (packed > 1) return std::fprintf(stderr, "--state-pass and --main-splits take no --packed\n"), 2;
    const int split_len = ((T + splits - 1) / splits + K::kQ - 1) / K::kQ * K::kQ;
    const int num_splits = (T + split_len - 1) / split_len;
    if (num_splits < 2) return std::fprintf(stderr, "%d tokens make one split\n", T), 2;
    const int split_tiles = split_len / K::kQ;
    int runs = 1;
    if (state_pass) {
      const int64_t state_ctas = int64_t(batch) * p.head_sets * (num_splits - 1);
      runs = arg(argc, argv, "--runs", flashssd::state_runs_per_split(state_ctas, split_tiles, prop.multiProcessorCount));
      while (runs > 1 && split_tiles % runs != 0) --runs;
    }
    K::set_splits(p, num_splits, split_len, std::max(1, runs));
    // The launcher's own allocation (its layout), from the library's pool; freed at run()'s end.
    flashssd::SsdKernelParams split{};
    split.batch = batch; split.heads = H; split.headdim = P; split.dstate = N;
    split.num_splits = p.num_splits; split.state_runs = p.state_runs;
    flashssd::allocate_split_workspace(split, split_workspace);
    p.split_states = split.split_states; p.split_decay = split.split_decay;
    p.run_states = split.run_states; p.run_decay = split.run_decay;
    if (state_pass) {
      p.final_states = nullptr;
    } else {
      fill_uniform<<<1024, 256>>>(split.split_states, size_t(batch) * H * num_splits * P * N, -1.f, 1.f, 8);
      PROBE_CHECK(cudaGetLastError());
    }
    std::fprintf(stderr, "%s pass: %d splits of %d tokens, %d state runs each\n", state_pass ? "state" : "main",
                 p.num_splits, p.split_len, p.state_runs);
  }
  const size_t kSmem = state_pass ? K::template kSmemBytes<true, false>
                       : with_z   ? K::template kSmemBytes<false, true>
                                  : K::template kSmemBytes<false, false>;
  auto kernel = state_pass ? flashssd::sm90::ssd_fwd_sm90_kernel<K, false, true>
                : with_z   ? flashssd::sm90::ssd_fwd_sm90_kernel<K, true>
                           : flashssd::sm90::ssd_fwd_sm90_kernel<K, false>;
  PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
  // A question left by session 16 (docs/HOPPER_PLAN.md): is a kernel with less shared memory
  // slower because the driver then leaves more of the SM's 256 KB to L1?
  const int carveout = arg(argc, argv, "--carveout", -1);
  if (carveout > 100) return std::fprintf(stderr, "--carveout must be 0..100\n"), 2;
  if (carveout >= 0) PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  int per_sm = 0;
  PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, K::kThreads, kSmem));
  const int items = batch * p.head_sets * (state_pass ? (p.num_splits - 1) * p.state_runs : main_splits > 1 ? p.num_splits : 1);
  // --grid g: at most g CTAs (the persistent grid walks the items with its own stride), e.g. 128
  // at R1's shapes: as many waves as 132 but no partial last wave.
  const int max_grid = arg(argc, argv, "--grid", prop.multiProcessorCount);
  const int grid = arg(argc, argv, "--persistent", 1) ? std::min(items, std::max(1, max_grid)) : items;
  auto launch = [&] { kernel<<<unsigned(grid), K::kThreads, kSmem>>>(p); };

  const bool warm_l2 = arg(argc, argv, "--warm-l2", 0) != 0;
  const std::vector<float> ms = time_sorted_ms(launch, iters, 3, warm_l2 ? 0 : size_t(prop.l2CacheSize));
  // Bytes that must move: x, y (and z) in bf16, B and C, dt in fp32; the state pass reads x, B
  // and dt of the tokens before the last split.
  const double dt_bytes = double(ndt) * (p.dt_type == flashssd::ScalarType::kBF16 ? 2 : 4);
  const double bytes = state_pass ? (double(nx) * 2 + double(nbc) * 2 + dt_bytes) * (p.num_splits - 1) * p.split_len / T
                                  : double(nx) * 2 * (with_z ? 3 : 2) + double(nbc) * 2 * 2 + dt_bytes;
  std::printf("{\"bench\": \"sm90_forward_probe\", \"status\": \"ok\", \"batch\": %d, \"seqlen\": %d, \"H\": %d, "
              "\"G\": %d, \"P\": %d, \"N\": %d, \"dt_bf16\": %d, \"z\": %d, \"packed\": %d, \"state_pass_splits\": %d, \"state_runs\": %d, \"main_splits\": %d, "
              "\"warm_l2\": %d, \"ctas_per_sm\": %d, \"grid\": %d, \"smem_bytes\": %zu, \"carveout\": %d, \"median_ms\": %.5f, "
              "\"min_ms\": %.5f, \"bytes\": %.0f, \"achieved_TBps\": %.4f}\n",
              batch, T, H, G, P, N, int(p.dt_type == flashssd::ScalarType::kBF16), int(with_z), packed,
              state_pass ? p.num_splits : 0, state_pass ? p.state_runs : 0, main_splits > 1 ? p.num_splits : 0, int(warm_l2), per_sm, grid, size_t(kSmem), carveout, ms[iters / 2], ms[0], bytes,
              bytes / ms[iters / 2] * 1e-9);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (arg(argc, argv, "--read-bw", 0) > 0 || arg(argc, argv, "--copy-bw", 0) > 0 || arg(argc, argv, "--gate-bw", 0) > 0)
    return run_bandwidth(argc, argv);
  const int n = arg(argc, argv, "--N", 128);
  if (n == 64) return run<flashssd::sm90::SsdFwdSm90<64, 64>>(argc, argv);
  if (n == 128) return run<flashssd::sm90::SsdFwdSm90<64, 128>>(argc, argv);
  if (n == 256) return run<flashssd::sm90::SsdFwdSm90<64, 256, 1>>(argc, argv);  // as the dispatch
  std::fprintf(stderr, "--N must be 64, 128 or 256\n");
  return 2;
}
