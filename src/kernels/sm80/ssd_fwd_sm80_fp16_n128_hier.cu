// Generated pattern: one instantiation per file (see ssd_fwd_sm80.h).
#include "kernels/sm80/ssd_fwd_launch.cuh"

namespace flashssd::sm80 {
template void launch_ssd_fwd_sm80<__half, 128, default_head_block(sizeof(__half), 128), SegsumVariant::kHierarchical>(
    SsdKernelParams, cudaStream_t, std::string*);
}  // namespace flashssd::sm80
