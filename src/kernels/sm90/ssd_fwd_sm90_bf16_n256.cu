// One instantiation per file (see ssd_fwd_sm90.h).
#include "kernels/sm90/ssd_fwd_sm90_launch.cuh"

namespace flashssd::sm90 {
template void run_ssd_fwd_sm90<__nv_bfloat16, 256>(SsdKernelParams, cudaStream_t);
}  // namespace flashssd::sm90
