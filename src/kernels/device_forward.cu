// Device dispatch: validated SsdParams -> kernel arguments -> the instantiation
// for (architecture, element type, state dim bucket, segsum variant).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "api/problem.h"
#include "kernels/common/env_knobs.h"
#include "kernels/common/kernel_params.h"
#include "kernels/sm80/ssd_fwd_sm80.h"
#if FLASHSSD_WITH_SM90
#include "kernels/sm90/ssd_fwd_sm90.h"
#endif

namespace flashssd {
namespace {

ScalarType scalar_type(DType t) {
  switch (t) {
    case DType::kBFloat16: return ScalarType::kBF16;
    case DType::kFloat16: return ScalarType::kF16;
    default: return ScalarType::kF32;
  }
}

SsdKernelParams make_kernel_params(const SsdParams& a, const Problem& pr) {
  SsdKernelParams k;
  k.x = a.x.data;
  k.x_sb = a.x.stride[0]; k.x_st = a.x.stride[1]; k.x_sh = a.x.stride[2];
  if (a.z.defined()) {
    k.z = a.z.data;
    k.z_sb = a.z.stride[0]; k.z_st = a.z.stride[1]; k.z_sh = a.z.stride[2];
  }
  k.B = a.B.data;
  k.B_sb = a.B.stride[0]; k.B_st = a.B.stride[1]; k.B_sg = a.B.stride[2];
  k.C = a.C.data;
  k.C_sb = a.C.stride[0]; k.C_st = a.C.stride[1]; k.C_sg = a.C.stride[2];
  k.dt = a.dt.data;
  k.dt_type = scalar_type(a.dt.dtype);
  k.dt_sb = a.dt.stride[0]; k.dt_st = a.dt.stride[1]; k.dt_sh = a.dt.stride[2];
  k.A = static_cast<const float*>(a.A.data);
  k.A_s = a.A.stride[0];
  if (a.D.defined()) {
    k.D = static_cast<const float*>(a.D.data);
    k.D_sh = a.D.stride[0];
    k.D_sp = pr.D_per_channel ? a.D.stride[1] : 0;
  }
  if (a.dt_bias.defined()) {
    k.dt_bias = static_cast<const float*>(a.dt_bias.data);
    k.dt_bias_s = a.dt_bias.stride[0];
  }
  if (a.initial_states.defined()) {
    k.initial_states = static_cast<const float*>(a.initial_states.data);
    k.init_sb = a.initial_states.stride[0]; k.init_sh = a.initial_states.stride[1];
    k.init_sp = a.initial_states.stride[2];
  }
  if (a.seq_idx.defined()) {
    k.seq_idx = static_cast<const int32_t*>(a.seq_idx.data);
    k.seq_sb = a.seq_idx.stride[0]; k.seq_st = a.seq_idx.stride[1];
  }
  if (a.cu_seqlens.defined()) {
    k.cu_seqlens = a.cu_seqlens.data;
    k.cu_seqlens_64 = a.cu_seqlens.dtype == DType::kInt64;
    k.cu_s = a.cu_seqlens.stride[0];
    k.num_seqs = static_cast<int>(pr.num_seqs);
  }
  k.y = a.y.data;
  k.y_sb = a.y.stride[0]; k.y_st = a.y.stride[1]; k.y_sh = a.y.stride[2];
  if (a.final_states.defined()) {
    k.final_states = static_cast<float*>(a.final_states.data);
    k.fin_sb = a.final_states.stride[0]; k.fin_sh = a.final_states.stride[1];
    k.fin_sp = a.final_states.stride[2];
  }
  if (a.varlen_states.defined()) {
    k.varlen_states = static_cast<float*>(a.varlen_states.data);
    k.var_ss = a.varlen_states.stride[0]; k.var_sh = a.varlen_states.stride[1];
    k.var_sp = a.varlen_states.stride[2];
  }
  k.batch = static_cast<int>(pr.batch);
  k.seqlen = static_cast<int>(pr.seqlen);
  k.heads = static_cast<int>(pr.heads);
  k.headdim = static_cast<int>(pr.headdim);
  k.groups = static_cast<int>(pr.groups);
  k.dstate = static_cast<int>(pr.dstate);
  k.heads_per_group = static_cast<int>(pr.heads / pr.groups);
  k.dt_softplus = a.dt_softplus;
  k.dt_lo = a.dt_limit_lo;
  k.dt_hi = a.dt_limit_hi;
  return k;
}

template <class Element>
void dispatch_state_dim(const SsdKernelParams& k, SegsumVariant variant, cudaStream_t stream, std::string* describe_only) {
  using sm80::run_ssd_fwd_sm80;
  if (variant != SegsumVariant::kHierarchical) {
    // diff / direct exist for the segsum comparison (issue: bf16, N in (64, 128]).
    if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
      if (k.dstate > 64 && k.dstate <= 128) {
        if (variant == SegsumVariant::kDiff) return run_ssd_fwd_sm80<Element, 128, SegsumVariant::kDiff>(k, stream, describe_only);
        return run_ssd_fwd_sm80<Element, 128, SegsumVariant::kDirect>(k, stream, describe_only);
      }
    }
    throw NotSupported(std::string("flashssd: segsum variant '") + segsum_variant_name(variant) +
                       "' is only built for bf16 inputs with 64 < N <= 128 on the GPU; use the default "
                       "'hierarchical'");
  }
  if (k.dstate <= 64) return run_ssd_fwd_sm80<Element, 64, SegsumVariant::kHierarchical>(k, stream, describe_only);
  if (k.dstate <= 128) return run_ssd_fwd_sm80<Element, 128, SegsumVariant::kHierarchical>(k, stream, describe_only);
  return run_ssd_fwd_sm80<Element, 256, SegsumVariant::kHierarchical>(k, stream, describe_only);
}

// The Hopper kernel (TMA + WGMMA, warp-specialised) serves bf16 and fp16 problems with
// P in {64, 128}, N in {64, 128, 256}, any number of heads per group and the default segsum
// (sm90::unsupported_reason has the rest of its rules); the rest,
// and every problem when FLASHSSD_DISABLE_SM90=1, runs on the portable kernel.
bool try_sm90(const SsdKernelParams& k, const SsdParams& a, int major, std::string* describe_only) {
#if FLASHSSD_WITH_SM90
  if (major != 9 || env_flag("FLASHSSD_DISABLE_SM90")) return false;  // (env_knobs.h)
  const bool bf16 = a.x.dtype == DType::kBFloat16;
  if ((!bf16 && a.x.dtype != DType::kFloat16) || a.segsum != SegsumVariant::kHierarchical) return false;
  if (sm90::unsupported_reason(k) != nullptr) return false;
  if (describe_only != nullptr) {
    *describe_only = std::string("sm90: Hopper kernel (TMA + WGMMA), ") + dtype_name(a.x.dtype) +
                     ", N=" + std::to_string(k.dstate);
    return true;
  }
  auto run = [&](auto element) {
    using CudaElement = decltype(element);
    if (k.dstate == 64) sm90::run_ssd_fwd_sm90<CudaElement, 64>(k, a.stream);
    else if (k.dstate == 128) sm90::run_ssd_fwd_sm90<CudaElement, 128>(k, a.stream);
    else sm90::run_ssd_fwd_sm90<CudaElement, 256>(k, a.stream);  // unsupported_reason: 64, 128 or 256
  };
  if (bf16) run(__nv_bfloat16{});
  else run(__half{});
  return true;
#else
  (void)k; (void)a; (void)major; (void)describe_only;
  return false;
#endif
}

// Runs the launch on the device that holds the data, restoring the caller's.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess || previous_ == device) {
      previous_ = -1;
      return;
    }
    const cudaError_t e = cudaSetDevice(device);
    if (e != cudaSuccess) {
      previous_ = -1;
      throw std::runtime_error(std::string("flashssd: cudaSetDevice: ") + cudaGetErrorString(e));
    }
  }
  ~DeviceGuard() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }

 private:
  int previous_ = -1;
};

}  // namespace

void device_forward(const SsdParams& params, const Problem& problem, std::string* describe_only) {
  if (problem.batch == 0 || problem.seqlen == 0)
    throw std::logic_error("flashssd: device_forward called on an empty problem");  // api handles these

  int major = 0;
  cudaError_t err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, problem.device);
  if (err != cudaSuccess) throw std::runtime_error(std::string("flashssd: ") + cudaGetErrorString(err));
  if (major < 8 || major > 9)
    throw NotSupported("flashssd: the GPU kernels are built for compute capability 8.x and 9.x (sm_80, sm_90a); "
                       "this device is sm_" + std::to_string(major) + "x");
  // (the dims served, P and N multiples of 8, N <= 256, sizes: checked by validation, src/api)

  const DeviceGuard guard(problem.device);
  const SsdKernelParams k = make_kernel_params(params, problem);
  if (try_sm90(k, params, major, describe_only)) return;
  if (describe_only != nullptr)  // (the launch appends its block)
    *describe_only = std::string("sm80: portable kernel (mma.sync), ") + dtype_name(params.x.dtype) + ", ";
  switch (params.x.dtype) {
    case DType::kBFloat16: return dispatch_state_dim<__nv_bfloat16>(k, params.segsum, params.stream, describe_only);
    case DType::kFloat16: return dispatch_state_dim<__half>(k, params.segsum, params.stream, describe_only);
    default: return dispatch_state_dim<float>(k, params.segsum, params.stream, describe_only);  // validated: fp32
  }
}

}  // namespace flashssd
