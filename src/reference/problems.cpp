// Test helpers around the reference: random problems, rounding to storage
// dtypes, typed host buffers wired into an SsdParams, strided gather/scatter,
// error norms.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "reference/convert.h"
#include "reference/reference.h"

namespace flashssd {
namespace ref {

// ---- random problems ----------------------------------------------------------

namespace {

std::vector<double> uniform(std::mt19937_64& rng, int64_t n, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (auto& e : v) e = dist(rng);
  return v;
}

// `count - 1` sorted cut points in [lo, hi]; distinct when `distinct`.
std::vector<int64_t> cut_points(std::mt19937_64& rng, int64_t count, int64_t lo, int64_t hi, bool distinct) {
  std::vector<int64_t> cuts;
  if (count <= 1 || hi < lo) return cuts;
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  if (distinct) {
    const int64_t want = std::min(count - 1, hi - lo + 1);
    while (int64_t(cuts.size()) < want) {
      const int64_t c = dist(rng);
      if (std::find(cuts.begin(), cuts.end(), c) == cuts.end()) cuts.push_back(c);
    }
  } else {
    for (int64_t i = 0; i + 1 < count; ++i) cuts.push_back(dist(rng));
  }
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

}  // namespace

Inputs make_random(const RandomSpec& s) {
  std::mt19937_64 rng(s.seed);
  Inputs in;
  in.batch = s.batch;
  in.seqlen = s.seqlen;
  in.heads = s.heads;
  in.headdim = s.headdim;
  in.groups = s.groups;
  in.dstate = s.dstate;
  const int64_t bT = s.batch * s.seqlen;
  in.x = uniform(rng, bT * s.heads * s.headdim, -1, 1);
  in.B = uniform(rng, bT * s.groups * s.dstate, -1, 1);
  in.C = uniform(rng, bT * s.groups * s.dstate, -1, 1);
  in.A = uniform(rng, s.heads, -1.5, -0.05);
  // Raw dt: around softplus^-1 of (0.02, 1.3) with softplus; without it, some
  // negative values so that the lower clamp is exercised.
  in.dt = s.dt_softplus ? uniform(rng, bT * s.heads, -4.0, 1.0) : uniform(rng, bT * s.heads, -0.1, 0.8);
  if (s.large_dt_fraction > 0) {
    std::bernoulli_distribution pick(s.large_dt_fraction);
    std::uniform_real_distribution<double> around20(19.0, 22.0);
    for (auto& v : in.dt) {
      if (pick(rng)) v = around20(rng);
    }
  }
  if (s.dt_bias) in.dt_bias = uniform(rng, s.heads, -0.5, 0.5);
  if (s.D) in.D = uniform(rng, s.D_per_channel ? s.heads * s.headdim : s.heads, -1, 1);
  if (s.z) in.z = uniform(rng, bT * s.heads * s.headdim, -2, 2);
  if (s.initial_states) in.initial_states = uniform(rng, s.batch * s.heads * s.headdim * s.dstate, -1, 1);
  in.dt_softplus = s.dt_softplus;
  in.dt_limit_lo = s.dt_limit_lo;
  in.dt_limit_hi = s.dt_limit_hi;

  if (s.packed_seqs > 1) {
    // Values need not be consecutive; rows start at an arbitrary value.
    in.seq_idx.resize(bT);
    std::uniform_int_distribution<int32_t> step(1, 3), start(0, 2);
    for (int64_t bi = 0; bi < s.batch; ++bi) {
      const auto cuts = cut_points(rng, s.packed_seqs, 1, s.seqlen - 1, true);
      int32_t value = start(rng);
      size_t next = 0;
      for (int64_t t = 0; t < s.seqlen; ++t) {
        if (next < cuts.size() && cuts[next] == t) {
          value += step(rng);
          ++next;
        }
        in.seq_idx[bi * s.seqlen + t] = value;
      }
    }
  }
  if (s.varlen_seqs > 0) {
    if (s.batch != 1) throw std::invalid_argument("flashssd::ref::make_random: varlen_seqs needs batch == 1");
    const auto cuts = s.varlen_allow_empty ? cut_points(rng, s.varlen_seqs, 0, s.seqlen, false)
                                           : cut_points(rng, s.varlen_seqs, 1, s.seqlen - 1, true);
    in.cu_seqlens.push_back(0);
    in.cu_seqlens.insert(in.cu_seqlens.end(), cuts.begin(), cuts.end());
    // Short of distinct cut points (T too small): pad with empty sequences at the end.
    while (int64_t(in.cu_seqlens.size()) < s.varlen_seqs) in.cu_seqlens.push_back(s.seqlen);
    in.cu_seqlens.push_back(s.seqlen);
  }
  check(in);
  return in;
}

void round_inputs(Inputs& in, DType io, DType dt_dtype) {
  auto round_all = [](std::vector<double>& v, DType t) {
    for (auto& e : v) e = convert::round_to(t, e);
  };
  round_all(in.x, io);
  round_all(in.B, io);
  round_all(in.C, io);
  round_all(in.z, io);
  round_all(in.dt, dt_dtype);
  round_all(in.A, DType::kFloat32);
  round_all(in.D, DType::kFloat32);
  round_all(in.dt_bias, DType::kFloat32);
  round_all(in.initial_states, DType::kFloat32);
}

// ---- strided host views ----------------------------------------------------------

namespace {

// Calls fn(linear_index, element_offset) for every element of v in row-major order.
template <class Fn>
void for_each_element(const TensorView& v, Fn fn) {
  if (v.ndim == 0 || v.numel() == 0) return;
  int64_t idx[kMaxRank] = {0, 0, 0, 0};
  const int64_t n = v.numel();
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t offset = 0;
    for (int k = 0; k < v.ndim; ++k) offset += idx[k] * v.stride[k];
    fn(linear, offset);
    for (int k = v.ndim - 1; k >= 0; --k) {  // odometer increment
      if (++idx[k] < v.shape[k]) break;
      idx[k] = 0;
    }
  }
}

TensorView view_of(std::vector<unsigned char>& storage, DType t, std::initializer_list<int64_t> shape,
                   int64_t pad = 0) {
  TensorView v;
  v.dtype = t;
  v.ndim = int(shape.size());
  int k = 0;
  for (int64_t s : shape) v.shape[k++] = s;
  int64_t stride = 1;
  for (k = v.ndim - 1; k >= 0; --k) {
    v.stride[k] = stride;
    stride *= v.shape[k] + (k == v.ndim - 1 ? pad : 0);
  }
  // At least one byte so that data is a real pointer even for empty tensors.
  storage.assign(std::max<int64_t>(stride * dtype_size(t), 1), 0);
  v.data = storage.data();
  return v;
}

void fill_view(const TensorView& v, const std::vector<double>& values) { write_view(v, values); }

void poison(const TensorView& v) {
  for_each_element(v, [&](int64_t, int64_t off) {
    convert::store(v.data, v.dtype, off, std::numeric_limits<double>::quiet_NaN());
  });
}

}  // namespace

std::vector<double> read_view(const TensorView& v) {
  std::vector<double> out(v.ndim == 0 ? 0 : v.numel());
  for_each_element(v, [&](int64_t i, int64_t off) { out[i] = convert::load(v.data, v.dtype, off); });
  return out;
}

void write_view(const TensorView& v, const std::vector<double>& values) {
  if (int64_t(values.size()) != (v.ndim == 0 ? 0 : v.numel())) {
    throw std::invalid_argument("flashssd::ref::write_view: size mismatch");
  }
  for_each_element(v, [&](int64_t i, int64_t off) { convert::store(v.data, v.dtype, off, values[i]); });
}

HostTensors make_host_tensors(const Inputs& in, const HostTensorOptions& opt) {
  check(in);
  const int64_t b = in.batch, T = in.seqlen, H = in.heads, P = in.headdim, G = in.groups, N = in.dstate;
  HostTensors ht;
  SsdParams& p = ht.params;
  p.x = view_of(ht.x, opt.io, {b, T, H, P}, opt.pad);
  p.B = view_of(ht.B, opt.io, {b, T, G, N}, opt.pad);
  p.C = view_of(ht.C, opt.io, {b, T, G, N}, opt.pad);
  p.dt = view_of(ht.dt, opt.dt, {b, T, H});
  p.A = view_of(ht.A, DType::kFloat32, {H});
  p.y = view_of(ht.y, opt.io, {b, T, H, P}, opt.pad);
  fill_view(p.x, in.x);
  fill_view(p.B, in.B);
  fill_view(p.C, in.C);
  fill_view(p.dt, in.dt);
  fill_view(p.A, in.A);
  if (!in.z.empty()) {
    p.z = view_of(ht.z, opt.io, {b, T, H, P}, opt.pad);
    fill_view(p.z, in.z);
  }
  if (!in.D.empty()) {
    p.D = in.D_per_channel() ? view_of(ht.D, DType::kFloat32, {H, P}) : view_of(ht.D, DType::kFloat32, {H});
    fill_view(p.D, in.D);
  }
  if (!in.dt_bias.empty()) {
    p.dt_bias = view_of(ht.dt_bias, DType::kFloat32, {H});
    fill_view(p.dt_bias, in.dt_bias);
  }
  if (!in.initial_states.empty()) {
    p.initial_states = view_of(ht.initial_states, DType::kFloat32, {b, H, P, N});
    fill_view(p.initial_states, in.initial_states);
  }
  if (!in.seq_idx.empty()) {
    p.seq_idx = view_of(ht.seq_idx, DType::kInt32, {b, T});
    fill_view(p.seq_idx, std::vector<double>(in.seq_idx.begin(), in.seq_idx.end()));
  }
  if (!in.cu_seqlens.empty()) {
    p.cu_seqlens = view_of(ht.cu_seqlens, opt.cu_seqlens, {int64_t(in.cu_seqlens.size())});
    for (size_t k = 0; k < in.cu_seqlens.size(); ++k) {
      convert::store(p.cu_seqlens.data, opt.cu_seqlens, int64_t(k), double(in.cu_seqlens[k]));
    }
    if (opt.varlen_states) p.varlen_states = view_of(ht.varlen_states, DType::kFloat32, {in.num_seqs(), H, P, N});
  }
  if (opt.final_states) p.final_states = view_of(ht.final_states, DType::kFloat32, {b, H, P, N});
  p.dt_softplus = in.dt_softplus;
  p.dt_limit_lo = static_cast<float>(in.dt_limit_lo);
  p.dt_limit_hi = static_cast<float>(in.dt_limit_hi);
  poison(p.y);
  poison(p.final_states);
  poison(p.varlen_states);
  return ht;
}

Outputs read_outputs(const SsdParams& params) {
  Outputs out;
  out.y = read_view(params.y);
  out.final_states = read_view(params.final_states);
  out.varlen_states = read_view(params.varlen_states);
  return out;
}

// ---- error measures -------------------------------------------------------------------

double rel_error(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double e = got[i] - want[i];
    num += e * e;
    den += want[i] * want[i];
  }
  if (std::isnan(num)) return num;
  if (num == 0.0) return 0.0;
  return den == 0.0 ? std::numeric_limits<double>::infinity() : std::sqrt(num / den);
}

double max_rel_error(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double err = 0.0, scale = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double e = std::fabs(got[i] - want[i]);
    if (std::isnan(e)) return e;
    err = std::max(err, e);
    scale = std::max(scale, std::fabs(want[i]));
  }
  if (err == 0.0) return 0.0;
  return scale == 0.0 ? std::numeric_limits<double>::infinity() : err / scale;
}

}  // namespace ref
}  // namespace flashssd
