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
  auto unit = [](int64_t stride, int extent) { return extent <= 1 || stride % 8 == 0; };
  const int T = k.seqlen;
  if (!unit(k.x_sb, k.batch) || !unit(k.x_st, T) || !unit(k.x_sh, k.heads) || !unit(k.y_sb, k.batch) ||
      !unit(k.y_st, T) || !unit(k.y_sh, k.heads) || !unit(k.B_sb, k.batch) || !unit(k.B_st, T) ||
      !unit(k.B_sg, k.groups) || !unit(k.C_sb, k.batch) || !unit(k.C_st, T) || !unit(k.C_sg, k.groups))
    return "strides not multiples of 16 bytes";
  if (k.z && (!aligned(k.z, 16) || !unit(k.z_sb, k.batch) || !unit(k.z_st, T) || !unit(k.z_sh, k.heads)))
    return "z not 16-byte aligned (base or strides)";
  // A broadcast dimension (stride 0, extent > 1, e.g. torch's expand) passes the test above, but
  // no tensor map is built for it here (a descriptor the driver refused would go unnoticed in a
  // release build: CUTLASS only asserts); the sm80 kernel reads it as any other stride. (y
  // cannot have one: the API rejects an output that writes an address twice.)
  auto broadcast = [](int64_t stride, int extent) { return extent > 1 && stride == 0; };
  if (broadcast(k.x_sb, k.batch) || broadcast(k.x_st, T) || broadcast(k.x_sh, k.heads) ||
      broadcast(k.B_sb, k.batch) || broadcast(k.B_st, T) || broadcast(k.B_sg, k.groups) ||
      broadcast(k.C_sb, k.batch) || broadcast(k.C_st, T) || broadcast(k.C_sg, k.groups) ||
      (k.z && (broadcast(k.z_sb, k.batch) || broadcast(k.z_st, T) || broadcast(k.z_sh, k.heads))))
    return "a broadcast (stride 0) dimension of x, B, C or z";
  return nullptr;
}

}  // namespace flashssd::sm90
