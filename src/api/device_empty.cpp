// The device path of a problem without tokens (b == 0 or T == 0): y has no
// elements, and the states are copies of initial_states or zeros (the rule of
// docs/API.md, as in the float64 reference). Plain async copies and memsets on
// the caller's stream, no kernel.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "api/problem.h"

namespace flashssd {

namespace {

void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("flashssd: ") + what + ": " + cudaGetErrorString(err));
  }
}

// Byte pitch between the P rows of an N-wide fp32 state (validated: innermost
// stride 1); a single row has no pitch to speak of.
size_t row_pitch(const TensorView& v, int64_t P, int64_t N) {
  return P > 1 ? size_t(v.stride[2]) * sizeof(float) : size_t(N) * sizeof(float);
}

// dst[i, h] := src[j, h] (src == nullptr: zeros) for all heads, one P x N
// matrix at a time so that any validated strides work.
void set_state(const TensorView& dst, int64_t i, const TensorView* src, int64_t j, const Problem& pr,
               cudaStream_t stream) {
  const int64_t P = pr.headdim, N = pr.dstate;
  for (int64_t h = 0; h < pr.heads; ++h) {
    char* d = static_cast<char*>(dst.data) + (i * dst.stride[0] + h * dst.stride[1]) * int64_t(sizeof(float));
    if (src) {
      const char* s =
          static_cast<const char*>(src->data) + (j * src->stride[0] + h * src->stride[1]) * int64_t(sizeof(float));
      if (row_pitch(*src, P, N) >= size_t(N) * sizeof(float)) {
        check_cuda(cudaMemcpy2DAsync(d, row_pitch(dst, P, N), s, row_pitch(*src, P, N), size_t(N) * sizeof(float),
                                     size_t(P), cudaMemcpyDeviceToDevice, stream),
                   "copying initial_states");
      } else {  // an input may repeat rows (stride below N): copy row by row
        for (int64_t p = 0; p < P; ++p) {
          check_cuda(cudaMemcpyAsync(d + p * dst.stride[2] * int64_t(sizeof(float)),
                                     s + p * src->stride[2] * int64_t(sizeof(float)), size_t(N) * sizeof(float),
                                     cudaMemcpyDeviceToDevice, stream),
                     "copying initial_states");
        }
      }
    } else {
      check_cuda(cudaMemset2DAsync(d, row_pitch(dst, P, N), 0, size_t(N) * sizeof(float), size_t(P), stream),
                 "zeroing states");
    }
  }
}

// Runs on the device that holds the data, restoring the caller's device.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) {
      check_cuda(cudaSetDevice(device), "cudaSetDevice");
    } else {
      previous_ = -1;
    }
  }
  ~DeviceScope() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace

void device_forward_empty(const SsdParams& params, const Problem& problem) {
  // b == 0: every tensor with a batch dim is empty, and cu_seqlens needs b == 1.
  if (problem.batch == 0) return;
  const DeviceScope scope(problem.device);
  const TensorView* initial = params.initial_states.defined() ? &params.initial_states : nullptr;
  if (params.final_states.defined()) {
    for (int64_t b = 0; b < problem.batch; ++b) set_state(params.final_states, b, initial, b, problem, params.stream);
  }
  if (params.varlen_states.defined()) {
    for (int64_t k = 0; k < problem.num_seqs; ++k) {
      set_state(params.varlen_states, k, k == 0 ? initial : nullptr, 0, problem, params.stream);
    }
  }
}

}  // namespace flashssd
