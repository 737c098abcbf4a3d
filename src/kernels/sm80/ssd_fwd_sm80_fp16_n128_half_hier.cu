// Generated pattern: one instantiation per file (see ssd_fwd_sm80.h): the half head-dim block,
// for GPUs without the shared memory for the default one.
#include "kernels/sm80/ssd_fwd_launch.cuh"

namespace flashssd::sm80 {
template void FLASHSSD_SM80_HALF_BLOCK_LAUNCH(__half, 128);
}  // namespace flashssd::sm80
