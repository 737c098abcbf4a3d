// flashssd_bench: times flashssd::ssd_forward on device memory (DESIGN.md
// sections 5 and 6) and prints one JSON line on stdout (human notes on stderr).
//
//   flashssd_bench [--config R1|R2|R3|R4] [--H 64] [--P 64] [--N 128] [--G 1]
//                  [--batch 32] [--seqlen 2048] [--dtype bf16|fp16|fp32] [--dt-dtype fp32|bf16|fp16] [--z]
//                  [--no-D] [--segsum hierarchical|diff|direct] [--chunk 0]
//                  [--iters 100] [--warmup 10] [--no-verify] [--seed 1]
//
// Protocol: random inputs (never zeros; dt fp32 raw values with dt_bias and
// softplus, A negative), y poisoned with NaN before the first run and checked
// finite after the last; the first tokens of batch row 0 checked against the
// float64 host reference (causality makes a prefix an independent problem);
// warm-up runs; then `iters` timed runs, each preceded by an L2 flush (a write
// of a buffer twice the L2 size, outside the timed events); median reported.
// Achieved bandwidth = minimum bytes (x, B, C, dt read, y written, z read when
// gated) / median time.
//
// Exit codes: 0 ok, 1 error, 2 NotSupported, 3 wrong result (non-finite or
// reference mismatch), 4 bad command line.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "flashssd/flashssd.h"

namespace {

// ---------------------------------------------------------------- utilities
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define CUDA_CHECK(expr)                                                               \
  do {                                                                                 \
    cudaError_t err_ = (expr);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::ostringstream os_;                                                          \
      os_ << "CUDA error " << cudaGetErrorName(err_) << " (" << cudaGetErrorString(err_) \
          << ") at " << __FILE__ << ":" << __LINE__ << ": " << #expr;                 \
      throw CudaError(os_.str());                                                      \
    }                                                                                  \
  } while (0)

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

// A tiny ordered JSON object writer (flat values only).
class JsonLine {
 public:
  JsonLine& str(const char* k, const std::string& v) {
    add(k, "\"" + json_escape(v) + "\"");
    return *this;
  }
  JsonLine& num(const char* k, double v) {
    if (!std::isfinite(v)) {
      add(k, "null");
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6g", v);
      add(k, buf);
    }
    return *this;
  }
  JsonLine& integer(const char* k, long long v) {
    add(k, std::to_string(v));
    return *this;
  }
  JsonLine& boolean(const char* k, bool v) {
    add(k, v ? "true" : "false");
    return *this;
  }
  JsonLine& null(const char* k) {
    add(k, "null");
    return *this;
  }
  std::string done() const { return "{" + body_ + "}"; }

 private:
  void add(const char* k, const std::string& v) {
    if (!body_.empty()) body_ += ", ";
    body_ += "\"";
    body_ += k;
    body_ += "\": ";
    body_ += v;
  }
  std::string body_;
};

// ---------------------------------------------------------------- arguments
struct Args {
  std::string config = "R1";
  int64_t H = 64, P = 64, N = 128, G = 1;
  int64_t batch = -1, seqlen = 2048;  // batch -1: 65536 / seqlen (at least 1)
  std::string dtype = "bf16";
  std::string dt_dtype = "fp32";  // dt's own type (models keep it in fp32 or in the input type)
  bool z = false;
  bool D = true;
  double a_scale = 1.0;  // A ~ -U(0.5, 8) a_scale: < 1 for slow decays (long memory)
  std::string segsum = "hierarchical";
  int64_t chunk = 0;
  int iters = 100;
  int warmup = 10;
  bool verify = true;
  int64_t verify_tokens = 256;
  unsigned long long seed = 1;
  int device = 0;
};

[[noreturn]] void usage(const char* msg) {
  if (msg) std::fprintf(stderr, "flashssd_bench: %s\n", msg);
  std::fprintf(stderr,
               "usage: flashssd_bench [--config R1|R2|R3|R4] [--H n] [--P n] [--N n] [--G n]\n"
               "                      [--batch n] [--seqlen n] [--dtype bf16|fp16|fp32] [--dt-dtype fp32|bf16|fp16] [--z]\n"
               "                      [--no-D] [--segsum hierarchical|diff|direct] [--chunk n]\n"
               "                      [--iters n] [--warmup n] [--no-verify] [--verify-tokens n]\n"
               "                      [--seed n] [--device n] [--A-scale x]\n"
               "  --config sets H, P, N, G (and T/batch for R4) to DESIGN.md section 5's reference\n"
               "  configs; explicit --H/--P/--N/--G/--batch/--seqlen given after it override.\n"
               "  --batch defaults to 65536 / seqlen (65 536 tokens in a batch).\n");
  std::exit(msg ? 4 : 0);
}

int64_t parse_int(const std::string& flag, const char* v) {
  char* end = nullptr;
  long long r = std::strtoll(v, &end, 10);
  if (end == v || *end != '\0') usage(("bad integer for " + flag + ": " + v).c_str());
  return r;
}

void apply_config(Args& a, const std::string& name) {
  a.config = name;
  if (name == "R1" || name == "R4") {
    a.H = 64; a.P = 64; a.N = 128; a.G = 1;
    if (name == "R4") { a.batch = 1; a.seqlen = 131072; }
  } else if (name == "R2") {
    a.H = 128; a.P = 64; a.N = 128; a.G = 8;
  } else if (name == "R3") {
    a.H = 32; a.P = 128; a.N = 64; a.G = 1;
  } else if (name == "custom") {
  } else {
    usage(("unknown --config " + name + " (R1, R2, R3, R4 or custom)").c_str());
  }
}

Args parse_args(int argc, char** argv) {
  Args a;
  bool custom_dims = false;
  for (int i = 1; i < argc; ++i) {
    std::string f = argv[i];
    auto need = [&]() -> const char* {
      if (i + 1 >= argc) usage(("missing value after " + f).c_str());
      return argv[++i];
    };
    if (f == "-h" || f == "--help") usage(nullptr);
    else if (f == "--config") apply_config(a, need());
    else if (f == "--H") { a.H = parse_int(f, need()); custom_dims = true; }
    else if (f == "--P") { a.P = parse_int(f, need()); custom_dims = true; }
    else if (f == "--N") { a.N = parse_int(f, need()); custom_dims = true; }
    else if (f == "--G") { a.G = parse_int(f, need()); custom_dims = true; }
    else if (f == "--batch") a.batch = parse_int(f, need());
    else if (f == "--seqlen" || f == "--T") a.seqlen = parse_int(f, need());
    else if (f == "--dtype") a.dtype = need();
    else if (f == "--dt-dtype") a.dt_dtype = need();
    else if (f == "--z") a.z = true;
    else if (f == "--no-D") a.D = false;
    else if (f == "--segsum") a.segsum = need();
    else if (f == "--chunk") a.chunk = parse_int(f, need());
    else if (f == "--iters") a.iters = static_cast<int>(parse_int(f, need()));
    else if (f == "--warmup") a.warmup = static_cast<int>(parse_int(f, need()));
    else if (f == "--no-verify") a.verify = false;
    else if (f == "--verify-tokens") a.verify_tokens = parse_int(f, need());
    else if (f == "--seed") a.seed = static_cast<unsigned long long>(parse_int(f, need()));
    else if (f == "--device") a.device = static_cast<int>(parse_int(f, need()));
    else if (f == "--A-scale") {
      const char* v = need();
      char* end = nullptr;
      a.a_scale = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(a.a_scale > 0.0)) usage("--A-scale needs a positive number");
    }
    else usage(("unknown argument " + f).c_str());
  }
  if (custom_dims && a.config != "custom") a.config += "*";  // modified reference config
  if (a.dtype != "bf16" && a.dtype != "fp16" && a.dtype != "fp32")
    usage(("--dtype must be bf16, fp16 or fp32, not " + a.dtype).c_str());
  if (a.dt_dtype != "bf16" && a.dt_dtype != "fp16" && a.dt_dtype != "fp32")
    usage(("--dt-dtype must be bf16, fp16 or fp32, not " + a.dt_dtype).c_str());
  if (a.segsum != "hierarchical" && a.segsum != "diff" && a.segsum != "direct")
    usage(("--segsum must be hierarchical, diff or direct, not " + a.segsum).c_str());
  if (a.H <= 0 || a.P <= 0 || a.N <= 0 || a.G <= 0 || a.seqlen <= 0)
    usage("H, P, N, G and seqlen must be positive");
  if (a.H % a.G != 0) usage("G must divide H");
  if (a.batch < 0) a.batch = std::max<int64_t>(1, 65536 / a.seqlen);
  if (a.batch <= 0) usage("batch must be positive");
  if (a.iters < 1) usage("--iters must be >= 1");
  if (a.warmup < 0) usage("--warmup must be >= 0");
  if (a.verify_tokens < 1) usage("--verify-tokens must be >= 1");
  return a;
}

// ---------------------------------------------------------------- device helpers
__host__ __device__ inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <typename T>
__device__ inline T from_float(float v);
template <>
__device__ inline float from_float<float>(float v) { return v; }
template <>
__device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <>
__device__ inline __half from_float<__half>(float v) { return __float2half(v); }

template <typename T>
__device__ inline float to_float(T v);
template <>
__device__ inline float to_float<float>(float v) { return v; }
template <>
__device__ inline float to_float<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <>
__device__ inline float to_float<__half>(__half v) { return __half2float(v); }

// Uniform in [lo, hi), never exactly zero when lo/hi straddle it (nudged).
template <typename T>
__global__ void fill_uniform_kernel(T* p, int64_t n, float lo, float hi, uint64_t seed) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    uint64_t r = splitmix64(seed ^ splitmix64(static_cast<uint64_t>(i)));
    float u = static_cast<float>(r >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    float v = lo + (hi - lo) * u;
    if (v == 0.0f) v = 1e-3f;
    p[i] = from_float<T>(v);
  }
}

template <typename T>
__global__ void count_nonfinite_kernel(const T* p, int64_t n, unsigned long long* count) {
  unsigned long long local = 0;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    if (!isfinite(to_float<T>(p[i]))) ++local;
  }
  if (local) atomicAdd(count, local);
}

int grid_for(int64_t n) {
  int64_t blocks = (n + 255) / 256;
  return static_cast<int>(std::min<int64_t>(std::max<int64_t>(blocks, 1), 65535 * 8));
}

flashssd::DType dtype_of(const std::string& s) {
  if (s == "bf16") return flashssd::DType::kBFloat16;
  if (s == "fp16") return flashssd::DType::kFloat16;
  return flashssd::DType::kFloat32;
}

flashssd::SegsumVariant segsum_of(const std::string& s) {
  if (s == "diff") return flashssd::SegsumVariant::kDiff;
  if (s == "direct") return flashssd::SegsumVariant::kDirect;
  return flashssd::SegsumVariant::kHierarchical;
}

void fill_uniform(void* p, flashssd::DType t, int64_t n, float lo, float hi, uint64_t seed) {
  switch (t) {
    case flashssd::DType::kBFloat16:
      fill_uniform_kernel<<<grid_for(n), 256>>>(static_cast<__nv_bfloat16*>(p), n, lo, hi, seed);
      break;
    case flashssd::DType::kFloat16:
      fill_uniform_kernel<<<grid_for(n), 256>>>(static_cast<__half*>(p), n, lo, hi, seed);
      break;
    default:
      fill_uniform_kernel<<<grid_for(n), 256>>>(static_cast<float*>(p), n, lo, hi, seed);
  }
  CUDA_CHECK(cudaGetLastError());
}

unsigned long long count_nonfinite(const void* p, flashssd::DType t, int64_t n) {
  unsigned long long* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, sizeof *d));
  CUDA_CHECK(cudaMemset(d, 0, sizeof *d));
  switch (t) {
    case flashssd::DType::kBFloat16:
      count_nonfinite_kernel<<<grid_for(n), 256>>>(static_cast<const __nv_bfloat16*>(p), n, d);
      break;
    case flashssd::DType::kFloat16:
      count_nonfinite_kernel<<<grid_for(n), 256>>>(static_cast<const __half*>(p), n, d);
      break;
    default:
      count_nonfinite_kernel<<<grid_for(n), 256>>>(static_cast<const float*>(p), n, d);
  }
  CUDA_CHECK(cudaGetLastError());
  unsigned long long h = 0;
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
  return h;
}

double host_to_double(const void* p, flashssd::DType t, int64_t i) {
  switch (t) {
    case flashssd::DType::kBFloat16: {
      uint16_t bits;
      std::memcpy(&bits, static_cast<const char*>(p) + 2 * i, 2);
      uint32_t f = static_cast<uint32_t>(bits) << 16;
      float v;
      std::memcpy(&v, &f, 4);
      return v;
    }
    case flashssd::DType::kFloat16: {
      __half h;
      std::memcpy(&h, static_cast<const char*>(p) + 2 * i, 2);
      return static_cast<double>(__half2float(h));
    }
    default: {
      float v;
      std::memcpy(&v, static_cast<const char*>(p) + 4 * i, 4);
      return v;
    }
  }
}

// Owns device allocations, frees them on scope exit.
struct DeviceBuffers {
  std::vector<void*> ptrs;
  void* alloc(size_t bytes, const char* what) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, std::max<size_t>(bytes, 1));
    if (e != cudaSuccess) {
      cudaGetLastError();
      std::ostringstream os;
      os << "cudaMalloc of " << bytes << " bytes for " << what << " failed: " << cudaGetErrorString(e);
      throw CudaError(os.str());
    }
    ptrs.push_back(p);
    return p;
  }
  ~DeviceBuffers() {
    for (void* p : ptrs) cudaFree(p);
  }
};

struct Result {
  std::string status = "ok";  // ok | not_supported | invalid_argument | wrong_result | error
  std::string error;
  std::vector<float> times_ms;
  double verify_rel_err = NAN;
  int64_t verify_tokens = 0;
  unsigned long long nonfinite = 0;
};

// Copies the first `t` tokens of batch row 0 of a (b, T, ...) contiguous device
// tensor whose per-token size is `row` elements, into a host buffer.
std::vector<char> prefix_to_host(const void* d, flashssd::DType t, int64_t tokens, int64_t row) {
  size_t bytes = static_cast<size_t>(tokens * row) * flashssd::dtype_size(t);
  std::vector<char> h(bytes);
  CUDA_CHECK(cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost));
  return h;
}

void run(const Args& a, Result& res, cudaDeviceProp& prop) {
  using flashssd::DType;
  const DType xt = dtype_of(a.dtype);
  const int esz = flashssd::dtype_size(xt);
  const int64_t b = a.batch, T = a.seqlen, H = a.H, P = a.P, G = a.G, N = a.N;
  const int64_t n_x = b * T * H * P, n_bc = b * T * G * N, n_dt = b * T * H;
  const DType dtt = dtype_of(a.dt_dtype);
  const int dt_size = flashssd::dtype_size(dtt);

  size_t l2 = prop.l2CacheSize > 0 ? static_cast<size_t>(prop.l2CacheSize) : (64u << 20);
  size_t flush_bytes = 2 * l2;

  size_t need = static_cast<size_t>(n_x) * esz * (a.z ? 3 : 2) + 2 * n_bc * esz + dt_size * n_dt +
                flush_bytes + 16 * H * P;
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (need > free_b) {
    std::ostringstream os;
    os << "needs " << need / (1 << 20) << " MiB of device memory, only " << free_b / (1 << 20)
       << " MiB free";
    throw CudaError(os.str());
  }

  DeviceBuffers buf;
  void* x = buf.alloc(n_x * esz, "x");
  void* y = buf.alloc(n_x * esz, "y");
  void* z = a.z ? buf.alloc(n_x * esz, "z") : nullptr;
  void* B = buf.alloc(n_bc * esz, "B");
  void* C = buf.alloc(n_bc * esz, "C");
  void* dt = buf.alloc(n_dt * dt_size, "dt");
  float* A = static_cast<float*>(buf.alloc(H * 4, "A"));
  float* dt_bias = static_cast<float*>(buf.alloc(H * 4, "dt_bias"));
  float* D = a.D ? static_cast<float*>(buf.alloc(H * 4, "D")) : nullptr;
  void* flush = buf.alloc(flush_bytes, "L2 flush buffer");

  const uint64_t s = a.seed * 0x100000001B3ull;
  fill_uniform(x, xt, n_x, -1.0f, 1.0f, s + 1);
  fill_uniform(B, xt, n_bc, -1.0f, 1.0f, s + 2);
  fill_uniform(C, xt, n_bc, -1.0f, 1.0f, s + 3);
  if (z) fill_uniform(z, xt, n_x, -2.0f, 2.0f, s + 4);
  // dt raw in [-3, 0], dt_bias in [-4, -2]: softplus(dt + bias) in ~[0.001, 0.13].
  fill_uniform(dt, dtt, n_dt, -3.0f, 0.0f, s + 5);
  fill_uniform(dt_bias, DType::kFloat32, H, -4.0f, -2.0f, s + 6);
  fill_uniform(A, DType::kFloat32, H, -8.0f * float(a.a_scale), -0.5f * float(a.a_scale), s + 7);  // negative
  if (D) fill_uniform(D, DType::kFloat32, H, 0.5f, 1.5f, s + 8);
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  struct StreamGuard {
    cudaStream_t s;
    ~StreamGuard() { cudaStreamDestroy(s); }
  } sg{stream};

  flashssd::SsdParams p;
  p.x = flashssd::make_view(x, xt, {b, T, H, P});
  p.dt = flashssd::make_view(dt, dtt, {b, T, H});
  p.A = flashssd::make_view(A, DType::kFloat32, {H});
  p.B = flashssd::make_view(B, xt, {b, T, G, N});
  p.C = flashssd::make_view(C, xt, {b, T, G, N});
  if (D) p.D = flashssd::make_view(D, DType::kFloat32, {H});
  if (z) p.z = flashssd::make_view(z, xt, {b, T, H, P});
  p.dt_bias = flashssd::make_view(dt_bias, DType::kFloat32, {H});
  p.y = flashssd::make_view(y, xt, {b, T, H, P});
  p.dt_softplus = true;
  p.chunk_size = a.chunk;
  p.segsum = segsum_of(a.segsum);
  p.stream = stream;

  flashssd::ssd_validate(p);

  // Poison y so that a kernel that skips a tile cannot pass the finite check.
  CUDA_CHECK(cudaMemsetAsync(y, 0xFF, n_x * esz, stream));

  // Warm-up (also the run whose output is checked).
  for (int i = 0; i < std::max(1, a.warmup); ++i) flashssd::ssd_forward(p);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaGetLastError());

  res.nonfinite = count_nonfinite(y, xt, n_x);
  if (res.nonfinite) {
    res.status = "wrong_result";
    res.error = std::to_string(res.nonfinite) + " non-finite values in y (of " + std::to_string(n_x) + ")";
  }

  if (a.verify) {
    // Prefix of batch row 0 on the host through the float64 reference.
    const int64_t t = std::min(a.verify_tokens, T);
    res.verify_tokens = t;
    auto hx = prefix_to_host(x, xt, t, H * P);
    auto hB = prefix_to_host(B, xt, t, G * N);
    auto hC = prefix_to_host(C, xt, t, G * N);
    auto hdt = prefix_to_host(dt, dtt, t, H);
    auto hz = z ? prefix_to_host(z, xt, t, H * P) : std::vector<char>();
    auto hy_dev = prefix_to_host(y, xt, t, H * P);
    std::vector<float> hA(H), hbias(H), hD(H);
    CUDA_CHECK(cudaMemcpy(hA.data(), A, H * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hbias.data(), dt_bias, H * 4, cudaMemcpyDeviceToHost));
    if (D) CUDA_CHECK(cudaMemcpy(hD.data(), D, H * 4, cudaMemcpyDeviceToHost));
    std::vector<char> hy(hy_dev.size());

    flashssd::SsdParams q;
    q.x = flashssd::make_view(hx.data(), xt, {1, t, H, P});
    q.dt = flashssd::make_view(hdt.data(), dtt, {1, t, H});
    q.A = flashssd::make_view(hA.data(), DType::kFloat32, {H});
    q.B = flashssd::make_view(hB.data(), xt, {1, t, G, N});
    q.C = flashssd::make_view(hC.data(), xt, {1, t, G, N});
    if (D) q.D = flashssd::make_view(hD.data(), DType::kFloat32, {H});
    if (z) q.z = flashssd::make_view(hz.data(), xt, {1, t, H, P});
    q.dt_bias = flashssd::make_view(hbias.data(), DType::kFloat32, {H});
    q.y = flashssd::make_view(hy.data(), xt, {1, t, H, P});
    q.dt_softplus = true;
    flashssd::ssd_forward(q);

    double num = 0, den = 0;
    const int64_t n = t * H * P;
    for (int64_t i = 0; i < n; ++i) {
      double r = host_to_double(hy.data(), xt, i), g = host_to_double(hy_dev.data(), xt, i);
      num += (g - r) * (g - r);
      den += r * r;
    }
    res.verify_rel_err = std::sqrt(num / std::max(den, 1e-300));
    const double tol = xt == DType::kBFloat16 ? 1e-2 : xt == DType::kFloat16 ? 5e-3 : 1e-4;
    if (!(res.verify_rel_err <= tol) && res.status == "ok") {
      res.status = "wrong_result";
      std::ostringstream os;
      os << "y of the first " << t << " tokens of batch row 0 differs from the float64 reference: "
         << "relative norm error " << res.verify_rel_err << " > " << tol;
      res.error = os.str();
    }
  }

  // Timed runs: flush L2 (outside the events), then events around ssd_forward.
  cudaEvent_t ev0, ev1;
  CUDA_CHECK(cudaEventCreate(&ev0));
  CUDA_CHECK(cudaEventCreate(&ev1));
  res.times_ms.reserve(a.iters);
  for (int i = 0; i < a.iters; ++i) {
    CUDA_CHECK(cudaMemsetAsync(flush, i & 0xFF, flush_bytes, stream));
    CUDA_CHECK(cudaEventRecord(ev0, stream));
    flashssd::ssd_forward(p);
    CUDA_CHECK(cudaEventRecord(ev1, stream));
    CUDA_CHECK(cudaEventSynchronize(ev1));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
    res.times_ms.push_back(ms);
  }
  CUDA_CHECK(cudaGetLastError());
  cudaEventDestroy(ev0);
  cudaEventDestroy(ev1);
}

double median(std::vector<float> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  Args a = parse_args(argc, argv);
  const int esz = a.dtype == "fp32" ? 4 : 2;
  // Minimum bytes (DESIGN.md section 5): x read + y written + B, C read + dt
  // read (fp32 unless --dt-dtype), + z read when gated. For bf16: 4HP + 4GN + 4H per token.
  const double tokens = static_cast<double>(a.batch) * a.seqlen;
  const double min_bytes =
      tokens * (esz * (2.0 * a.H * a.P + 2.0 * a.G * a.N + (a.z ? a.H * a.P : 0)) + (a.dt_dtype == "fp32" ? 4.0 : 2.0) * a.H);
  const double kDesignCopyBW = 4.27e12;  // DESIGN.md section 5, H200 copy bandwidth

  Result res;
  cudaDeviceProp prop{};
  std::string device = "unknown";
  try {
    int ndev = 0;
    CUDA_CHECK(cudaGetDeviceCount(&ndev));
    if (a.device >= ndev) throw CudaError("no CUDA device " + std::to_string(a.device));
    CUDA_CHECK(cudaSetDevice(a.device));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, a.device));
    device = prop.name;
    run(a, res, prop);
  } catch (const flashssd::NotSupported& e) {
    res.status = "not_supported";
    res.error = e.what();
  } catch (const flashssd::Error& e) {
    res.status = "invalid_argument";
    res.error = e.what();
  } catch (const std::exception& e) {
    res.status = "error";
    res.error = e.what();
  }

  const double med = median(res.times_ms);
  double mn = NAN, mean = NAN;
  if (!res.times_ms.empty()) {
    mn = *std::min_element(res.times_ms.begin(), res.times_ms.end());
    double s = 0;
    for (float t : res.times_ms) s += t;
    mean = s / res.times_ms.size();
  }
  const double floor_ms = min_bytes / kDesignCopyBW * 1e3;

  JsonLine j;
  j.str("bench", "flashssd_forward").str("status", res.status).str("device", device)
      .integer("sm", prop.major * 10 + prop.minor)
      .str("config", a.config).integer("batch", a.batch).integer("seqlen", a.seqlen)
      .integer("H", a.H).integer("P", a.P).integer("N", a.N).integer("G", a.G)
      .str("dtype", a.dtype).str("dt_dtype", a.dt_dtype).boolean("z", a.z).boolean("D", a.D).str("segsum", a.segsum)
      .integer("chunk_size", a.chunk).integer("iters", static_cast<long long>(res.times_ms.size()))
      .num("median_ms", med).num("min_ms", mn).num("mean_ms", mean)
      .integer("min_bytes", static_cast<long long>(min_bytes)).num("achieved_TBps", min_bytes / (med * 1e-3) / 1e12)
      .num("floor_ms", floor_ms).num("pct_of_floor", floor_ms / med * 100.0)
      .num("verify_rel_err", res.verify_rel_err).integer("verify_tokens", res.verify_tokens)
      .integer("nonfinite", static_cast<long long>(res.nonfinite));
  if (res.error.empty()) j.null("error"); else j.str("error", res.error);
  std::printf("%s\n", j.done().c_str());
  std::fflush(stdout);

  if (res.status == "ok") {
    std::fprintf(stderr,
                 "flashssd_bench: %s %s b=%lld T=%lld H=%lld P=%lld N=%lld G=%lld %s z=%d: "
                 "median %.4f ms, %.3f TB/s (floor %.4f ms at 4.27 TB/s, %.0f%%)\n",
                 device.c_str(), a.config.c_str(), (long long)a.batch, (long long)a.seqlen,
                 (long long)a.H, (long long)a.P, (long long)a.N, (long long)a.G, a.dtype.c_str(),
                 (int)a.z, med, min_bytes / (med * 1e-3) / 1e12, floor_ms, floor_ms / med * 100.0);
    return 0;
  }
  const char* label = res.status == "not_supported" ? "NotSupported" : res.status.c_str();
  std::fprintf(stderr, "flashssd_bench: %s: %s\n", label, res.error.c_str());
  if (res.status == "not_supported") return 2;
  if (res.status == "wrong_result") return 3;
  return 1;
}
