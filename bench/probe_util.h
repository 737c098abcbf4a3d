// Shared pieces of the kernel probes (tile_stream_sm90.cu, sm90_forward_probe.cu):
// error check, integer flags, and the timing protocol of flashssd_bench (L2 flushed
// outside the timed events before every run, warm-up first, times sorted).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define PROBE_CHECK(e)                                                                    \
  do {                                                                                    \
    cudaError_t err_ = (e);                                                               \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

namespace flashssd::probe {

inline int arg(int argc, char** argv, const char* name, int def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
  return def;
}

// Keeps the GPU busy for about `ns` nanoseconds, so that a launch queued behind it starts as
// soon as it ends, not after the host's launch latency.
static __global__ void busy_wait_kernel(unsigned ns) {  // (static: a header)
  for (unsigned waited = 0; waited < ns; waited += 1000) __nanosleep(1000);
}

// Milliseconds of `iters` launches, sorted ascending (median = ms[iters / 2]). L2 is flushed before
// each launch (2x its size written) unless l2_bytes is 0; then a 50 us wait runs before the
// first event instead, as the flush does, so that the host's launch latency stays untimed.
template <class Launch>
std::vector<float> time_sorted_ms(Launch&& launch, int iters, int warmup, size_t l2_bytes) {
  void* flush = nullptr;
  const size_t flush_bytes = 2 * l2_bytes;
  if (flush_bytes > 0) PROBE_CHECK(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  for (int i = 0; i < warmup; ++i) launch();
  PROBE_CHECK(cudaGetLastError());
  std::vector<float> ms(iters);
  for (int i = 0; i < iters; ++i) {
    if (flush_bytes > 0) PROBE_CHECK(cudaMemsetAsync(flush, i & 0xff, flush_bytes));
    else busy_wait_kernel<<<1, 1>>>(50000);
    PROBE_CHECK(cudaEventRecord(e0));
    launch();
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaEventSynchronize(e1));
    PROBE_CHECK(cudaEventElapsedTime(&ms[i], e0, e1));
  }
  PROBE_CHECK(cudaGetLastError());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (flush) cudaFree(flush);
  std::sort(ms.begin(), ms.end());
  return ms;
}

}  // namespace flashssd::probe
