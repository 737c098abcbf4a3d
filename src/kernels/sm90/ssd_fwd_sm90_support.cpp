// Which problems the Hopper forward serves (ssd_fwd_sm90.h); everything else runs on
// the portable sm80 kernel. Host code only.
#include <cstdint>

#include "kernels/sm90/ssd_fwd_sm90.h"

namespace flashssd::sm90 {

const char* unsupported_reason(const SsdKernelParams& k) {
  if (k.headdim != 64 && k.headdim != 128) return "head dim P not 64 or 128";
  if (k.dstate != 64 && k.dstate != 128 && k.dstate != 256) return "state dim N not 64, 128 or 256";
  // seq_idx and cu_seqlens are served: the resets folded into the decay, the per-sequence
  // final states from the state pass over each sequence.
  if (k.cu_seqlens && k.batch != 1) return "cu_seqlens with batch != 1";  // (the API rejects it)
  // TMA (x, y, B, C and the gate z): 16-byte aligned bases and strides (the API checks both
  // for x/y/B/C dimensions of extent > 1; run_ssd_fwd_sm90 replaces the others).
  auto aligned = [](const void* ptr, int64_t a) { return reinterpret_cast<uintptr_t>(ptr) % a == 0; };
  if (!aligned(k.x, 16) || !aligned(k.y, 16) || !aligned(k.B, 16) || !aligned(k.C, 16)) return "unaligned x/y/B/C";
  // Every dimension of the TMA tensors but the innermost, as (stride, extent): a stride must be
  // a multiple of 16 bytes where the extent exceeds 1.
  const int T = k.seqlen;
  struct Dim {
    int64_t stride;
    int extent;
  };
  const Dim xbc[] = {{k.x_sb, k.batch}, {k.x_st, T}, {k.x_sh, k.heads}, {k.B_sb, k.batch}, {k.B_st, T},
                     {k.B_sg, k.groups}, {k.C_sb, k.batch}, {k.C_st, T}, {k.C_sg, k.groups}};
  const Dim gate[] = {{k.z_sb, k.batch}, {k.z_st, T}, {k.z_sh, k.heads}};
  const Dim out[] = {{k.y_sb, k.batch}, {k.y_st, T}, {k.y_sh, k.heads}};
  auto any = [](const auto& dims, auto test) {
    for (const Dim& d : dims)
      if (test(d)) return true;
    return false;
  };
  auto misaligned = [](const Dim& d) { return d.extent > 1 && d.stride % 8 != 0; };
  if (any(xbc, misaligned) || any(out, misaligned)) return "strides not multiples of 16 bytes";
  if (k.z && (!aligned(k.z, 16) || any(gate, misaligned))) return "z not 16-byte aligned (base or strides)";
  // A broadcast dimension (stride 0, extent > 1, e.g. torch's expand) passes the test above, but
  // no tensor map is built for it here (a descriptor the driver refused would go unnoticed in a
  // release build: CUTLASS only asserts); the sm80 kernel reads it as any other stride. (y
  // cannot have one: the API rejects an output that writes an address twice.)
  auto broadcast = [](const Dim& d) { return d.extent > 1 && d.stride == 0; };
  if (any(xbc, broadcast) || (k.z && any(gate, broadcast))) return "a broadcast (stride 0) dimension of x, B, C or z";
  return nullptr;
}

}  // namespace flashssd::sm90
