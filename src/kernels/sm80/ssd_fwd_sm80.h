// Entry points of the portable (sm_80+) forward, one explicit instantiation per
// .cu file in this folder: element type x padded state dim x segsum variant.
#pragma once

#include <cuda_runtime.h>

#include "flashssd/flashssd.h"
#include "kernels/common/kernel_params.h"

namespace flashssd::sm80 {

// Padded state dims with a kernel instantiation; N is zero-filled up to the next one.
constexpr int kStateDimBuckets[] = {64, 128, 256};

// Boundary scan of the split-sequence scheme (launch_split_boundary_scan: each split's
// incoming state from the state pass's local states) and the states of empty sequences
// (split_scan.cu); launched by run_ssd_fwd_sm80 and run_ssd_fwd_sm90, the latter
// programmatically after its state pass (after_previous; programmatic_launch.cuh).
__global__ void split_boundary_scan_kernel(const __grid_constant__ SsdKernelParams p);
void launch_split_boundary_scan(const SsdKernelParams& p, cudaStream_t stream, bool after_previous = false);
__global__ void empty_sequence_states_kernel(const __grid_constant__ SsdKernelParams p);
// flags (b, T) contiguous: 1 where token t starts a sequence (seq_idx changes at t > 0, a
// cu_seqlens sequence starts at t > 0, or t = 0 when cu_seqlens' first sequence is empty, so
// that the initial state, which belongs to it, does not apply), else 0. One thread per token.
__global__ void reset_flags_kernel(const __grid_constant__ SsdKernelParams p, uint8_t* flags);

template <class Element, int kN, SegsumVariant kVariant>
void run_ssd_fwd_sm80(SsdKernelParams params, cudaStream_t stream);

}  // namespace flashssd::sm80
