// Shared by the GPU test files.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

// Asserts that a CUDA runtime call succeeded, naming the call and the error. The call is
// evaluated once.
#define CUDA_OK(expr)                                                                  \
  do {                                                                                 \
    const cudaError_t cuda_ok_err_ = (expr);                                           \
    ASSERT_EQ(cuda_ok_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(cuda_ok_err_); \
  } while (0)

namespace flashssd::testing {

// True when device 0 is a Hopper (compute capability 9.x) GPU.
inline bool have_sm90() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
  cudaDeviceProp prop;
  return cudaGetDeviceProperties(&prop, 0) == cudaSuccess && prop.major == 9;
}

}  // namespace flashssd::testing
