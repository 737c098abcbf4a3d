// The split-sequence scheme without a state pass (FLASHSSD_SPLIT_SCHEME=fixup; DESIGN.md
// section 3: boundary states pass between splits without a second HBM read of x).
//
// The main pass runs every split from a zero state (split 0 from the initial state) and
// writes each split's local final state; then, on the caller's stream:
//   1. tile_log_decay:   each 64-token tile's summed log-decay sum(dt A) (-inf where a
//                        packed sequence starts);
//   2. split_log_prefix: per split, each tile's log-decay from the split's start to the
//                        tile's start, and the split's total decay (for the boundary scan);
//   3. the boundary scan (split_scan.cu, its fix-up mode): each split's incoming state h_in,
//                        and the final state;
//   4. split_fixup:      y_t += silu(z_t) exp(cs_t) C_t h_in^T for the tokens t of splits
//                        1 .. S - 1 whose decay from the split's start cs_t (log) has not
//                        underflowed: y is linear in the incoming state, and the term is
//                        exactly 0 in fp32 beyond that window (exp(cs) < 2^-149).
// What it costs instead of the state pass's read of x (all splits but the last): a
// read-modify-write of y (and a read of z) over each split's window, whose length depends on
// the decays (a head whose decay is slow keeps its whole split).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/common/kernel_params.h"

namespace flashssd::sm90 {

// Tiles of the fix-up's token axis (the main pass's compute tile).
constexpr int kFixupTile = 64;

// Bytes of the per-tile log-decay workspace (b, H, tiles).
inline size_t split_fixup_workspace_bytes(const SsdKernelParams& p) {
  const int64_t tiles = (int64_t(p.seqlen) + kFixupTile - 1) / kFixupTile;
  return size_t(int64_t(p.batch) * p.heads * tiles) * sizeof(float);
}

// Queues kernels 1-4 above, each programmatically after the previous kernel of the chain
// (the first after the main pass). reset_flags: (b, T) bytes or null. CudaElement: __nv_bfloat16
// or __half (x, y, z, C).
template <class CudaElement>
void launch_split_fixup(const SsdKernelParams& p, const uint8_t* reset_flags, float* tile_log, int sms,
                        cudaStream_t stream);

// Whether calls with more than one split take this scheme: FLASHSSD_SPLIT_SCHEME=fixup
// (read per call, for benchmarking); otherwise the state pass.
bool split_fixup_enabled();

}  // namespace flashssd::sm90
