// cu_seqlens[k], the first token of packed sequence k (int32 or int64 offsets with stride
// cu_s, SsdKernelParams), as every GPU kernel reads it.
#pragma once

#include <cstdint>

namespace flashssd {

__device__ __forceinline__ int64_t cu_seqlens_at(const void* cu_seqlens, bool is_64, int64_t stride, int k) {
  return is_64 ? static_cast<const int64_t*>(cu_seqlens)[k * stride]
               : static_cast<int64_t>(static_cast<const int32_t*>(cu_seqlens)[k * stride]);
}

}  // namespace flashssd
