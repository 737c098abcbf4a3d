// flashssd: the project's main job.
//
// With a CUDA GPU: the headline config R1 (H=64, P=64, N=128, G=1, bf16,
// 65536 tokens as batch 8 x seqlen 8192, fp32 dt with softplus and dt_bias)
// through ssd_forward on device memory; the output is checked against the
// float64 reference on a slice, then timed (CUDA events, median) and reported
// as time, achieved bandwidth and fraction of the memory floor (DESIGN.md
// section 5).
// Without a GPU: the CPU reference path of ssd_forward on a small problem,
// checked against the float64 recurrence.
//
// Usage: flashssd [--cpu] [--iters N]
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "flashssd/flashssd.h"
#include "reference/convert.h"
#include "reference/reference.h"

namespace {

using flashssd::DType;

constexpr double kCopyTBps = 4.27;        // H200 device-to-device copy ceiling (DESIGN.md section 5)
constexpr double kGpuCheckTolerance = 2e-2;  // norm-wise, bf16 output vs float64 truth

#define CUDA_CHECK(expr)                                                                       \
  do {                                                                                         \
    const cudaError_t err_ = (expr);                                                           \
    if (err_ != cudaSuccess) {                                                                 \
      throw std::runtime_error(std::string(#expr) + ": " + cudaGetErrorString(err_));          \
    }                                                                                          \
  } while (0)

// ---- GPU: R1 -----------------------------------------------------------------------

// Stateless per-element hash -> uniform in [lo, hi): the inputs are the same on
// every run and cost no host time or transfer.
__device__ float hash_uniform(uint64_t i, uint32_t seed, float lo, float hi) {
  uint64_t h = i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return lo + (hi - lo) * float(h >> 40) * (1.0f / 16777216.0f);
}

__global__ void fill_bf16(__nv_bfloat16* p, int64_t n, uint32_t seed, float lo, float hi) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    p[i] = __float2bfloat16_rn(hash_uniform(uint64_t(i), seed, lo, hi));
  }
}

__global__ void fill_f32(float* p, int64_t n, uint32_t seed, float lo, float hi) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    p[i] = hash_uniform(uint64_t(i), seed, lo, hi);
  }
}

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  explicit DeviceBuffer(int64_t n) { CUDA_CHECK(cudaMalloc(&ptr, std::max<int64_t>(n, 1) * sizeof(T))); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Copies rows [0, tokens) of batch row 0 of a (b, T, ...) device tensor with
// `per_token` elements per token.
template <class T>
std::vector<T> copy_prefix(const T* dev, int64_t tokens, int64_t per_token) {
  std::vector<T> host(tokens * per_token);
  CUDA_CHECK(cudaMemcpy(host.data(), dev, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

std::vector<double> bf16_to_double(const std::vector<__nv_bfloat16>& v) {
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, &v[i], 2);
    out[i] = flashssd::convert::bf16_bits_to_double(bits);
  }
  return out;
}

int run_gpu(int iters) {
  const int64_t b = 8, T = 8192, H = 64, P = 64, N = 128, G = 1;
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("flashssd %s: GPU %s (sm_%d%d)\n", flashssd::version(), prop.name, prop.major, prop.minor);
  std::printf("config R1: batch %lld x seqlen %lld (%lld tokens), H=%lld P=%lld N=%lld G=%lld, bf16, "
              "fp32 dt + dt_bias + softplus\n",
              (long long)b, (long long)T, (long long)(b * T), (long long)H, (long long)P, (long long)N,
              (long long)G);

  DeviceBuffer<__nv_bfloat16> x(b * T * H * P), B(b * T * G * N), C(b * T * G * N), y(b * T * H * P);
  DeviceBuffer<float> dt(b * T * H), A(H), dt_bias(H);
  fill_bf16<<<1024, 256>>>(x.ptr, b * T * H * P, 1, -1.0f, 1.0f);
  fill_bf16<<<1024, 256>>>(B.ptr, b * T * G * N, 2, -1.0f, 1.0f);
  fill_bf16<<<1024, 256>>>(C.ptr, b * T * G * N, 3, -1.0f, 1.0f);
  fill_f32<<<1024, 256>>>(dt.ptr, b * T * H, 4, -1.0f, 1.0f);
  // Mamba-2's initialisation: A in -[1, 16], dt_bias = softplus^-1 of dt in [0.001, 0.1].
  std::vector<float> hA(H), hbias(H);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> ua(1.0f, 16.0f), ulog(std::log(0.001f), std::log(0.1f));
  for (int64_t h = 0; h < H; ++h) {
    hA[h] = -ua(rng);
    const float d = std::exp(ulog(rng));
    hbias[h] = d + std::log(-std::expm1(-d));  // inverse softplus
  }
  CUDA_CHECK(cudaMemcpy(A.ptr, hA.data(), H * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dt_bias.ptr, hbias.data(), H * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  flashssd::SsdParams p;
  p.x = flashssd::make_view(x.ptr, DType::kBFloat16, {b, T, H, P});
  p.dt = flashssd::make_view(dt.ptr, DType::kFloat32, {b, T, H});
  p.A = flashssd::make_view(A.ptr, DType::kFloat32, {H});
  p.B = flashssd::make_view(B.ptr, DType::kBFloat16, {b, T, G, N});
  p.C = flashssd::make_view(C.ptr, DType::kBFloat16, {b, T, G, N});
  p.dt_bias = flashssd::make_view(dt_bias.ptr, DType::kFloat32, {H});
  p.y = flashssd::make_view(y.ptr, DType::kBFloat16, {b, T, H, P});
  p.dt_softplus = true;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  p.stream = stream;

  try {
    flashssd::ssd_forward(p);
  } catch (const flashssd::NotSupported& e) {
    std::printf("GPU path not supported for R1: %s\n", e.what());
    return 2;
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));

  // Check: the first `Tc` tokens of batch row 0 depend on nothing else.
  const int64_t Tc = 256;
  flashssd::ref::Inputs in;
  in.batch = 1;
  in.seqlen = Tc;
  in.heads = H;
  in.headdim = P;
  in.groups = G;
  in.dstate = N;
  in.x = bf16_to_double(copy_prefix(x.ptr, Tc, H * P));
  in.B = bf16_to_double(copy_prefix(B.ptr, Tc, G * N));
  in.C = bf16_to_double(copy_prefix(C.ptr, Tc, G * N));
  const std::vector<float> hdt = copy_prefix(dt.ptr, Tc, H);
  in.dt.assign(hdt.begin(), hdt.end());
  in.A.assign(hA.begin(), hA.end());
  in.dt_bias.assign(hbias.begin(), hbias.end());
  in.dt_softplus = true;
  const std::vector<double> got = bf16_to_double(copy_prefix(y.ptr, Tc, H * P));
  const std::vector<double> want = flashssd::ref::recurrence_forward(in).y;
  const double err = flashssd::ref::rel_error(got, want);
  std::printf("check: y[0, :%lld] vs float64 reference: rel. error %.3e (norm-wise)\n", (long long)Tc, err);
  if (!(err <= kGpuCheckTolerance)) {
    std::printf("FAILED: error above %.1e\n", kGpuCheckTolerance);
    return 1;
  }

  for (int i = 0; i < 5; ++i) flashssd::ssd_forward(p);  // warm-up
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms(iters);
  for (int i = 0; i < iters; ++i) {
    CUDA_CHECK(cudaEventRecord(start, stream));
    flashssd::ssd_forward(p);
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms[i], start, stop));
  }
  CUDA_CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  const double median_ms = ms[iters / 2];

  // Minimum bytes (DESIGN.md section 5): x read + y written (bf16), B and C
  // read (bf16), dt read (fp32): 4HP + 4GN + 4H bytes per token.
  const double bytes = double(b * T) * double(4 * H * P + 4 * G * N + 4 * H);
  const double tbps = bytes / (median_ms * 1e-3) / 1e12;
  const double floor_ms = bytes / (kCopyTBps * 1e12) * 1e3;
  std::printf("time: median %.4f ms over %d runs (min %.4f, max %.4f)\n", median_ms, iters, ms.front(), ms.back());
  std::printf("bandwidth: %.3f TB/s achieved (%.1f MB minimum traffic); %.1f%% of the %.2f TB/s copy ceiling\n",
              tbps, bytes / 1e6, 100.0 * tbps / kCopyTBps, kCopyTBps);
  std::printf("floor: %.4f ms; FlashSSD runs at %.2fx the memory floor\n", floor_ms, median_ms / floor_ms);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  return 0;
}

// ---- CPU: the reference path on a small problem ---------------------------------------------

int run_cpu() {
  flashssd::ref::RandomSpec s;
  s.batch = 2;
  s.seqlen = 256;
  s.heads = 4;
  s.headdim = 16;
  s.dstate = 16;
  s.groups = 2;
  s.D = s.dt_bias = s.dt_softplus = s.initial_states = s.z = true;
  flashssd::ref::Inputs in = flashssd::ref::make_random(s);
  flashssd::ref::round_inputs(in, DType::kBFloat16, DType::kFloat32);
  flashssd::ref::HostTensorOptions opt;
  opt.io = DType::kBFloat16;
  flashssd::ref::HostTensors ht = flashssd::ref::make_host_tensors(in, opt);

  std::printf("flashssd %s: no CUDA GPU here; running the CPU reference path of ssd_forward\n",
              flashssd::version());
  std::printf("problem: b=%lld T=%lld H=%lld P=%lld N=%lld G=%lld, bf16 x/B/C/z/y, fp32 dt, "
              "D, z, dt_bias, softplus, initial and final states\n",
              (long long)s.batch, (long long)s.seqlen, (long long)s.heads, (long long)s.headdim,
              (long long)s.dstate, (long long)s.groups);
  const auto t0 = std::chrono::steady_clock::now();
  flashssd::ssd_forward(ht.params);
  const auto t1 = std::chrono::steady_clock::now();
  const flashssd::ref::Outputs got = flashssd::ref::read_outputs(ht.params);
  const flashssd::ref::Outputs want = flashssd::ref::recurrence_forward(in);
  const flashssd::ref::Outputs chunked = flashssd::ref::chunked_forward(in, 64);
  const double err_y = flashssd::ref::max_rel_error(got.y, want.y);
  const double err_state = flashssd::ref::max_rel_error(got.final_states, want.final_states);
  const double err_forms = std::max(flashssd::ref::rel_error(chunked.y, want.y),
                                    flashssd::ref::rel_error(chunked.final_states, want.final_states));
  std::printf("ssd_forward (host, float64 inside): %.2f ms\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count());
  std::printf("max rel. error vs float64 recurrence: y (bf16) %.2e, final_states (fp32) %.2e\n", err_y, err_state);
  std::printf("chunked (Q=64) vs recurrence reference: rel. error %.2e\n", err_forms);
  std::printf("The GPU path (R1 benchmark) needs a CUDA GPU.\n");
  const bool ok = err_y <= 8e-3 && err_state <= 1e-6 && err_forms <= 1e-12;
  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  bool force_cpu = false;
  int iters = 50;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cpu") {
      force_cpu = true;
    } else if (arg == "--iters" && i + 1 < argc) {
      iters = std::max(20, std::atoi(argv[++i]));
    } else {
      std::printf("usage: flashssd [--cpu] [--iters N (>= 20)]\n");
      return arg == "--help" || arg == "-h" ? 0 : 1;
    }
  }
  try {
    int count = 0;
    const bool have_gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    (void)cudaGetLastError();  // clear the error of a machine without a driver
    return have_gpu && !force_cpu ? run_gpu(iters) : run_cpu();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flashssd: %s\n", e.what());
    return 1;
  }
}
