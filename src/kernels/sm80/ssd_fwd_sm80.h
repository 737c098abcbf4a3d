// Entry points of the portable (sm_80+) forward, one explicit instantiation per
// .cu file in this folder: element type x padded state dim x head-dim block x segsum variant.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "flashssd/flashssd.h"
#include "kernels/common/kernel_params.h"

namespace flashssd::sm80 {

// Padded state dims with a kernel instantiation; N is zero-filled up to the next one.
constexpr int kStateDimBuckets[] = {64, 128, 256};

// Boundary scan of the split-sequence scheme (launch_split_boundary_scan: each split's
// incoming state from the state pass's local states) and the states of empty sequences
// (split_scan.cu); launched by launch_ssd_fwd_sm80 and run_ssd_fwd_sm90, the latter
// programmatically after its state pass (after_previous; programmatic_launch.cuh).
__global__ void split_boundary_scan_kernel(const __grid_constant__ SsdKernelParams p);
void launch_split_boundary_scan(const SsdKernelParams& p, cudaStream_t stream, bool after_previous = false);
__global__ void empty_sequence_states_kernel(const __grid_constant__ SsdKernelParams p);
// flags (b, T) contiguous: 1 where token t starts a sequence (seq_idx changes at t > 0, a
// cu_seqlens sequence starts at t > 0, or t = 0 when cu_seqlens' first sequence is empty, so
// that the initial state, which belongs to it, does not apply), else 0. One thread per token.
__global__ void reset_flags_kernel(const __grid_constant__ SsdKernelParams p, uint8_t* flags);

// Head-dim block of one CTA (channels of P): the default keeps the register-resident state at
// 64 floats per thread (16-bit) or 32 (fp32, whose split operands need twice the fragment
// registers and whose tiles twice the shared memory).
constexpr int default_head_block(size_t element_bytes, int n) {
  return element_bytes == 4 ? (n > 128 ? 16 : 32) : (n > 128 ? 32 : 64);
}
// Half that block, for GPUs without the shared memory for the default (per block: 16-bit
// N <= 128 111 584 -> 94 560 bytes, fp32 N <= 128 103 392 -> 90 528, within sm_86 / sm_89's
// 101 376; 16-bit N <= 256 168 288 -> 155 680, within the A100's 166 912). Compiled only for
// these and the default segsum; 0 where none is. The launch takes it where the default does not
// fit, or where FLASHSSD_SM80_HALF_HEAD_BLOCK=1 (tests reach it on larger GPUs so).
constexpr int half_head_block(size_t element_bytes, int n, SegsumVariant variant) {
  if (variant != SegsumVariant::kHierarchical) return 0;
  if (element_bytes == 4) return n == 128 ? 16 : 0;
  return n == 128 ? 32 : n == 256 ? 16 : 0;
}

// One explicit instantiation per .cu file (the default block of each dtype x N bucket x
// variant the dispatch needs, and the half blocks above). With describe_only set, the launch
// takes its decisions (the head-dim block, NotSupported where none fits) and writes the kernel
// it would run there instead of launching (flashssd::ssd_forward_path).
template <class Element, int kN, int kBP, SegsumVariant kVariant>
void launch_ssd_fwd_sm80(SsdKernelParams params, cudaStream_t stream, std::string* describe_only);

template <class Element, int kN, SegsumVariant kVariant>
void run_ssd_fwd_sm80(SsdKernelParams params, cudaStream_t stream, std::string* describe_only = nullptr) {
  launch_ssd_fwd_sm80<Element, kN, default_head_block(sizeof(Element), kN), kVariant>(params, stream, describe_only);
}

}  // namespace flashssd::sm80
