// The host path of ssd_forward: gather the (validated) strided host views into
// float64, run the sequential recurrence (on FLASHSSD_HOST_THREADS threads, by default the
// hardware's count), scatter the outputs in their dtypes.
#include "api/problem.h"
#include "kernels/common/env_knobs.h"
#include "reference/convert.h"
#include "reference/reference.h"

namespace flashssd {

void host_forward(const SsdParams& params, const Problem& problem) {
  ref::Inputs in;
  in.batch = problem.batch;
  in.seqlen = problem.seqlen;
  in.heads = problem.heads;
  in.headdim = problem.headdim;
  in.groups = problem.groups;
  in.dstate = problem.dstate;
  in.x = ref::read_view(params.x);
  in.dt = ref::read_view(params.dt);
  in.A = ref::read_view(params.A);
  in.B = ref::read_view(params.B);
  in.C = ref::read_view(params.C);
  in.D = ref::read_view(params.D);
  in.z = ref::read_view(params.z);
  in.dt_bias = ref::read_view(params.dt_bias);
  in.initial_states = ref::read_view(params.initial_states);
  if (params.seq_idx.defined()) {
    const auto& v = params.seq_idx;
    in.seq_idx.resize(problem.batch * problem.seqlen);
    for (int64_t b = 0; b < problem.batch; ++b) {
      for (int64_t t = 0; t < problem.seqlen; ++t) {
        in.seq_idx[b * problem.seqlen + t] =
            static_cast<int32_t>(convert::load_int(v.data, v.dtype, b * v.stride[0] + t * v.stride[1]));
      }
    }
  }
  if (params.cu_seqlens.defined()) {
    const auto& v = params.cu_seqlens;
    in.cu_seqlens.resize(v.shape[0]);
    for (int64_t k = 0; k < v.shape[0]; ++k) in.cu_seqlens[k] = convert::load_int(v.data, v.dtype, k * v.stride[0]);
  }
  in.dt_softplus = params.dt_softplus;
  in.dt_limit_lo = params.dt_limit_lo;
  in.dt_limit_hi = params.dt_limit_hi;

  const ref::Outputs out = ref::recurrence_forward(in, env_count("FLASHSSD_HOST_THREADS", 4096));
  ref::write_view(params.y, out.y);
  if (params.final_states.defined()) ref::write_view(params.final_states, out.final_states);
  if (params.varlen_states.defined()) ref::write_view(params.varlen_states, out.varlen_states);
}

}  // namespace flashssd
