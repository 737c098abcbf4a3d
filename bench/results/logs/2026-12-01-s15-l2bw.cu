// L2-resident read bandwidth: every SM streams over one buffer that fits in L2
// (16-byte loads, grid-stride), timed with events after a warm-up. Prints GB/s.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void read_kernel(const int4* __restrict__ buf, size_t n, int reps, int* out) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (int r = 0; r < reps; ++r)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
      int4 v = __ldcg(buf + i);
      acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678) out[0] = 1;
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (size_t mb : {8, 16, 32, 4096}) {
    size_t bytes = mb << 20, n = bytes / 16;
    int4* buf; int* out; cudaMalloc(&buf, bytes); cudaMalloc(&out, 4);
    cudaMemset(buf, 1, bytes);
    int reps = mb >= 1024 ? 2 : 64;
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    read_kernel<<<sms * 4, 512>>>(buf, n, reps, out);
    cudaEventRecord(a);
    for (int k = 0; k < 5; ++k) read_kernel<<<sms * 4, 512>>>(buf, n, reps, out);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    printf("{\"buffer_mb\": %zu, \"read_GBps\": %.0f}\n", mb, 5.0 * reps * bytes / (ms * 1e-3) / 1e9);
    cudaFree(buf); cudaFree(out);
  }
  printf("err=%s\n", cudaGetErrorString(cudaGetLastError()));
}
