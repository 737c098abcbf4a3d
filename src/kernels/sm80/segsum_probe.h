// Internal probe of the decay-mask device code (src/kernels/common/segsum.cuh):
// runs prepare_tile_decay + apply_decay_mask exactly as the sm80 forward kernel
// does (kQ = 64 tokens per tile, 128 threads = 4 warps, one 16-row mma block
// per warp) on an all-ones accumulator, so that the mask the kernel multiplies
// C B^T by can be read back and measured (tests/gpu/test_segsum_gpu.cpp,
// segsum_gpu_report). Not part of the public API.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "flashssd/flashssd.h"

namespace flashssd::sm80 {

constexpr int kSegsumProbeQ = 64;  // tokens per tile, the forward kernel's kQ

// For each tile k < tiles of kSegsumProbeQ log-decays a_dev[64 k .. 64 k + 63]
// (<= 0, device memory), with dt = 1 (so a is the log-decay itself):
//   mask_dev[k * 64 * 64 + i * 64 + j]  the factor the kernel multiplies S_ij by
//                                       (L_ij; 0 above the diagonal, including the
//                                       n-tiles apply_decay_mask never touches)
//   e_dev[k * 64 + j]                   to_end_j = exp(a_{j+1} + ... + a_63)
//   p_dev[k * 64 + i]                   readout_i = exp(a_0 + ... + a_i)
// Asynchronous on `stream`; throws std::runtime_error on a launch failure.
void segsum_probe(SegsumVariant v, const float* a_dev, int64_t tiles, float* mask_dev, float* e_dev,
                  float* p_dev, cudaStream_t stream);

// Mask-only microbenchmark: the same per-tile work (prepare_tile_decay, one CTA
// barrier, apply_decay_mask on every warp) over `tiles` tiles of a_dev with a
// persistent grid, nothing written but a per-thread checksum. Returns the
// median over `iters` timed launches (CUDA events, after one warm-up launch)
// in milliseconds. Synchronous; throws std::runtime_error on a CUDA error.
float segsum_probe_time_ms(SegsumVariant v, const float* a_dev, int64_t tiles, int iters);

}  // namespace flashssd::sm80
