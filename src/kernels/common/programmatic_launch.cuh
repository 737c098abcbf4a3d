// Programmatic dependent launch (sm_90+) for the chain of kernels one forward call queues
// (state pass -> boundary scan -> main pass; with splits the chunk scores run on a side stream
// beside the window kernels and the state pass, joined before the scan; without splits, before
// the main pass): each kernel after the chain's first is launched with programmatic stream
// serialisation, so that its CTAs can start (and run their prologue) while the previous
// kernel's last CTAs finish, instead of after it has completed and the launch has gone through
// the front end. Every kernel of the chain calls wait_for_previous_kernel() before it touches
// global memory that the previous ones write or read (in practice: before any global access but
// its own parameters), which returns once they have completed and their writes are visible; so
// the order of the chain holds transitively. Kernels launched without the attribute (the
// chain's first, the first after a side stream's fork or join, the fallback path,
// FLASHSSD_DISABLE_PDL=1) see both calls as no-ops.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "kernels/common/env_knobs.h"
#include "kernels/common/launch_util.h"

namespace flashssd {

// Blocks until the kernels this one was launched after (programmatically) have completed.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next kernel of the chain be scheduled once every CTA of this one has called it
// (or exited); its CTAs then take SMs as this kernel's CTAs leave them.
__device__ __forceinline__ void allow_next_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

// Whether the chain's kernels after its first are launched programmatically:
// FLASHSSD_DISABLE_PDL=1 turns it off, to time the difference (env_knobs.h).
inline bool programmatic_launch_enabled() { return !env_flag("FLASHSSD_DISABLE_PDL"); }

// Queues kernel<<<grid, block, smem, stream>>>(args...), programmatically after the stream's
// previous kernel when `after_previous` (that kernel one of the same chain) and PDL is on.
template <class... Params, class... Args>
void launch_in_chain(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                     bool after_previous, const char* what, Args&&... args) {
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = after_previous && programmatic_launch_enabled() ? 1 : 0;
  check_cuda(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), what);
}

}  // namespace flashssd
