// The problem as the validator resolved it: dims shared by every tensor, and
// where the data lives. Passed from validation to the host or device path.
#pragma once
#include <cstdint>
#include <string>

#include "flashssd/flashssd.h"

namespace flashssd {

struct Problem {
  int64_t batch = 0;     // b
  int64_t seqlen = 0;    // T
  int64_t heads = 0;     // H
  int64_t headdim = 0;   // P
  int64_t groups = 0;    // G
  int64_t dstate = 0;    // N
  int64_t num_seqs = 0;  // cu_seqlens.numel() - 1, or 0 without cu_seqlens
  bool on_device = false;
  int device = -1;       // CUDA device ordinal of the data when on_device
  bool D_per_channel = false;  // D has shape (H, P) rather than (H)
};

// Throws flashssd::Error naming the argument on any bad input and, on the device path,
// flashssd::NotSupported for dims the GPU kernels do not serve (after every argument check).
// Touches no output.
Problem validate(const SsdParams& params);

// validate() as if every pointer were memory of CUDA device 0, without asking
// the CUDA runtime: lets CPU-only tests exercise the GPU path's alignment rule.
// Skips the host-only checks of seq_idx / cu_seqlens contents.
Problem validate_as_device(const SsdParams& params);

// validate() as if every pointer were host memory, without asking the CUDA runtime and
// without reading the index tensors (torch's fake tensors of a CPU call).
Problem validate_as_host(const SsdParams& params);

// Host path: float64 reference on host memory, any supported dtype in/out.
void host_forward(const SsdParams& params, const Problem& problem);

// Device path (src/kernels): dispatch by arch / dtype / dims, launch on params.stream. With
// describe_only set: the same decisions (and their NotSupported), the chosen kernel written
// there, nothing launched (ssd_forward_path).
void device_forward(const SsdParams& params, const Problem& problem, std::string* describe_only = nullptr);

// Device path of an empty problem (b == 0 or T == 0; src/api): no kernel, only
// the states: final_states = initial_states or zeros, varlen_states[0] =
// initial_states[0] or zeros, the other varlen_states zeros. Async on params.stream.
// ssd_forward calls this instead of device_forward when there is no token.
void device_forward_empty(const SsdParams& params, const Problem& problem);

}  // namespace flashssd
