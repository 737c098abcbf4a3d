// Shared by the sm90 device tests.
#pragma once

#include <cuda_runtime.h>

namespace flashssd::testing {

// True when device 0 is a Hopper (compute capability 9.x) GPU.
inline bool have_sm90() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
  cudaDeviceProp prop;
  return cudaGetDeviceProperties(&prop, 0) == cudaSuccess && prop.major == 9;
}

}  // namespace flashssd::testing
