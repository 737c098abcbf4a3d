// Public entry points: small helpers of flashssd.h and the ssd_forward dispatch.
#include <string>

#include "api/problem.h"

#ifndef FLASHSSD_VERSION_STRING
#define FLASHSSD_VERSION_STRING "unknown"
#endif

namespace flashssd {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::kFloat32: return "float32";
    case DType::kBFloat16: return "bfloat16";
    case DType::kFloat16: return "float16";
    case DType::kInt32: return "int32";
    case DType::kInt64: return "int64";
  }
  return "unknown dtype";
}

int dtype_size(DType t) {
  switch (t) {
    case DType::kFloat32: return 4;
    case DType::kBFloat16: return 2;
    case DType::kFloat16: return 2;
    case DType::kInt32: return 4;
    case DType::kInt64: return 8;
  }
  return 0;
}

TensorView make_view(void* data, DType dtype, std::initializer_list<int64_t> shape) {
  if (shape.size() == 0 || shape.size() > size_t(kMaxRank)) {
    throw Error("flashssd: make_view: expected a rank between 1 and " + std::to_string(kMaxRank) +
                ", got " + std::to_string(shape.size()));
  }
  TensorView v;
  v.data = data;
  v.dtype = dtype;
  v.ndim = int(shape.size());
  int k = 0;
  for (int64_t s : shape) v.shape[k++] = s;
  int64_t stride = 1;
  for (k = v.ndim - 1; k >= 0; --k) {
    v.stride[k] = stride;
    stride *= v.shape[k] > 0 ? v.shape[k] : 1;  // empty dims keep the strides sensible
  }
  return v;
}

const char* segsum_variant_name(SegsumVariant v) {
  switch (v) {
    case SegsumVariant::kHierarchical: return "hierarchical";
    case SegsumVariant::kDiff: return "diff";
    case SegsumVariant::kDirect: return "direct";
  }
  return "unknown segsum variant";
}

const char* version() { return FLASHSSD_VERSION_STRING; }

void ssd_validate(const SsdParams& params) { (void)validate(params); }

void ssd_forward(const SsdParams& params) {
  const Problem problem = validate(params);
  if (problem.on_device) {
    // No token: nothing for a kernel to do, only states to copy or zero.
    if (problem.batch == 0 || problem.seqlen == 0) {
      device_forward_empty(params, problem);
    } else {
      device_forward(params, problem);
    }
  } else {
    host_forward(params, problem);
  }
}

std::string ssd_forward_path(const SsdParams& params) {
  const Problem problem = validate(params);
  if (!problem.on_device) return "host: float64 reference";
  if (problem.batch == 0 || problem.seqlen == 0) return "device: no tokens, states only (no kernel)";
  std::string path;
  device_forward(params, problem, &path);
  return path;
}

}  // namespace flashssd
