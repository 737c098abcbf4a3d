// The two float64 forms of the SSD forward. They share only effective_dt (a
// pointwise map) and the input checks; the state reset logic is written twice
// on purpose (per token in the recurrence, as segment masks in the chunked
// form) so that each checks the other.
#include "reference/reference.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace flashssd {
namespace ref {

namespace {

void expect_size(const char* name, size_t got, int64_t want) {
  if (int64_t(got) != want) {
    throw std::invalid_argument(std::string("flashssd::ref: ") + name + ": expected " +
                                std::to_string(want) + " values, got " + std::to_string(got));
  }
}

void expect_optional_size(const char* name, size_t got, int64_t want) {
  if (got != 0) expect_size(name, got, want);
}

// Index helpers for contiguous row-major tensors.
struct Dims {
  int64_t b, T, H, P, G, N;
  explicit Dims(const Inputs& in)
      : b(in.batch), T(in.seqlen), H(in.heads), P(in.headdim), G(in.groups), N(in.dstate) {}
  int64_t xi(int64_t bi, int64_t t, int64_t h) const { return ((bi * T + t) * H + h) * P; }
  int64_t dti(int64_t bi, int64_t t, int64_t h) const { return (bi * T + t) * H + h; }
  int64_t bci(int64_t bi, int64_t t, int64_t g) const { return ((bi * T + t) * G + g) * N; }
  int64_t state_size() const { return P * N; }
  int64_t group_of(int64_t h) const { return h / (H / G); }
};

double silu(double v) { return v / (1.0 + std::exp(-v)); }

// y_t += D x_t, then y_t *= silu(z_t), for one (batch, token, head), channels p0 .. p1 - 1.
void finish_output(const Inputs& in, const Dims& d, int64_t bi, int64_t t, int64_t h, int64_t p0, int64_t p1,
                   double* y) {
  const double* x = &in.x[d.xi(bi, t, h)];
  if (!in.D.empty()) {
    for (int64_t p = p0; p < p1; ++p) {
      y[p] += (in.D_per_channel() ? in.D[h * d.P + p] : in.D[h]) * x[p];
    }
  }
  if (!in.z.empty()) {
    const double* z = &in.z[d.xi(bi, t, h)];
    for (int64_t p = p0; p < p1; ++p) y[p] *= silu(z[p]);
  }
}

// Runs body(i) for every i in [0, count) on up to `threads` threads, each item on one thread.
// The items write disjoint outputs, so the result is the same bits whatever the thread count.
// The first exception an item throws is rethrown here, after every thread has stopped.
template <class Body>
void for_each_item(int64_t count, int threads, const Body& body) {
  const int64_t workers = std::min<int64_t>(threads, count);
  if (workers <= 1) {
    for (int64_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto work = [&] {
    for (int64_t i = next++; i < count && !failed; i = next++) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int64_t k = 1; k < workers; ++k) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // (no more threads to be had: the ones running take the rest, with the same result)
    }
  }
  work();
  for (std::thread& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

// The threads recurrence_forward uses: `requested`, or the hardware's count where it is 0; one
// for problems under ~4M multiply-adds (a thread's start costs more than it saves there).
int recurrence_threads(const Dims& d, int requested) {
  if (d.b * d.T * d.H * d.P * d.N < (int64_t(1) << 22)) return 1;
  return requested > 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

// Whether a row starts from initial_states before token 0 (see reference.h):
// with cu_seqlens they belong to sequence 0, so not when it is empty, unless
// the row has no token at all (then final_states = initial_states).
bool row_starts_from_initial(const Inputs& in) {
  if (in.initial_states.empty()) return false;
  return in.cu_seqlens.empty() || in.cu_seqlens[1] > 0 || in.seqlen == 0;
}

// State rows p0 .. p1 - 1 of head h in batch row bi before its first token (all rows by default).
void copy_initial_or_zero(const Inputs& in, const Dims& d, int64_t bi, int64_t h, bool initial,
                          double* state, int64_t p0 = 0, int64_t p1 = -1) {
  const int64_t values = ((p1 < 0 ? d.P : p1) - p0) * d.N;
  if (initial) {
    std::copy_n(&in.initial_states[(bi * d.H + h) * d.state_size() + p0 * d.N], values, state);
  } else {
    std::fill_n(state, values, 0.0);
  }
}

// varlen_states of empty sequences: the state they start from.
void fill_empty_varlen_states(const Inputs& in, const Dims& d, Outputs& out) {
  const int64_t S = d.state_size();
  for (int64_t k = 0; k < in.num_seqs(); ++k) {
    if (in.cu_seqlens[k + 1] != in.cu_seqlens[k]) continue;
    for (int64_t h = 0; h < d.H; ++h) {
      copy_initial_or_zero(in, d, 0, h, k == 0 && !in.initial_states.empty(),
                           &out.varlen_states[(k * d.H + h) * S]);
    }
  }
}

Outputs allocate_outputs(const Inputs& in, const Dims& d) {
  Outputs out;
  out.y.assign(d.b * d.T * d.H * d.P, 0.0);
  out.final_states.assign(d.b * d.H * d.state_size(), 0.0);
  out.varlen_states.assign(in.num_seqs() * d.H * d.state_size(), 0.0);
  return out;
}

}  // namespace

void check(const Inputs& in) {
  const int64_t b = in.batch, T = in.seqlen, H = in.heads, P = in.headdim, G = in.groups,
                N = in.dstate;
  if (b < 0 || T < 0 || H < 1 || P < 1 || G < 1 || N < 1 || H % G != 0) {
    throw std::invalid_argument("flashssd::ref: bad dims (need b, T >= 0; H, P, G, N >= 1; G | H)");
  }
  expect_size("x", in.x.size(), b * T * H * P);
  expect_size("dt", in.dt.size(), b * T * H);
  expect_size("A", in.A.size(), H);
  expect_size("B", in.B.size(), b * T * G * N);
  expect_size("C", in.C.size(), b * T * G * N);
  if (!in.D.empty() && int64_t(in.D.size()) != H && int64_t(in.D.size()) != H * P) {
    throw std::invalid_argument("flashssd::ref: D: expected H or H * P values");
  }
  expect_optional_size("z", in.z.size(), b * T * H * P);
  expect_optional_size("dt_bias", in.dt_bias.size(), H);
  expect_optional_size("initial_states", in.initial_states.size(), b * H * P * N);
  expect_optional_size("seq_idx", in.seq_idx.size(), b * T);
  for (int64_t bi = 0; bi < b && !in.seq_idx.empty(); ++bi) {
    for (int64_t t = 1; t < T; ++t) {
      if (in.seq_idx[bi * T + t] < in.seq_idx[bi * T + t - 1]) {
        throw std::invalid_argument("flashssd::ref: seq_idx: decreasing");
      }
    }
  }
  if (!in.cu_seqlens.empty()) {
    if (b != 1) throw std::invalid_argument("flashssd::ref: cu_seqlens needs batch == 1");
    if (in.cu_seqlens.size() < 2) {
      throw std::invalid_argument("flashssd::ref: cu_seqlens: expected at least one sequence");
    }
    if (in.cu_seqlens.front() != 0 || in.cu_seqlens.back() != T ||
        !std::is_sorted(in.cu_seqlens.begin(), in.cu_seqlens.end())) {
      throw std::invalid_argument("flashssd::ref: cu_seqlens: expected 0 = c0 <= c1 <= ... <= T");
    }
  }
  if (!(in.dt_limit_lo <= in.dt_limit_hi)) {
    throw std::invalid_argument("flashssd::ref: dt_limit: expected lo <= hi");
  }
}

double effective_dt(double raw, double bias, bool softplus, double lo, double hi) {
  double v = raw + bias;
  if (softplus && v <= 20.0) v = std::log1p(std::exp(v));
  return std::min(std::max(v, lo), hi);
}

// ---- form 1: the recurrence ------------------------------------------------------

Outputs recurrence_forward(const Inputs& in, int threads) {
  check(in);
  const Dims d(in);
  Outputs out = allocate_outputs(in, d);
  const int64_t S = d.state_size();
  const bool has_cu = !in.cu_seqlens.empty();

  // is_boundary[t]: a cu_seqlens sequence starts at token t > 0.
  std::vector<char> is_boundary(d.T + 1, 0);
  // ends_seq[t]: the non-empty sequence whose last token is t, or -1.
  std::vector<int64_t> ends_seq(d.T, -1);
  for (int64_t k = 0; k < in.num_seqs(); ++k) {
    const int64_t s = in.cu_seqlens[k], e = in.cu_seqlens[k + 1];
    if (s > 0 && s < d.T) is_boundary[s] = 1;
    if (e > s) ends_seq[e - 1] = k;
  }

  // Row p of a head's state depends only on x[p] (and the head's dt, B, C), so the work splits
  // into items of (batch row, head, block of state rows).
  constexpr int64_t kRowsPerItem = 8;
  const int64_t row_blocks = (d.P + kRowsPerItem - 1) / kRowsPerItem;
  const bool initial = row_starts_from_initial(in);
  for_each_item(d.b * d.H * row_blocks, recurrence_threads(d, threads), [&](int64_t item) {
    const int64_t p0 = item % row_blocks * kRowsPerItem, p1 = std::min(d.P, p0 + kRowsPerItem);
    const int64_t h = item / row_blocks % d.H, bi = item / row_blocks / d.H;
    const int64_t g = d.group_of(h);
    std::vector<double> state((p1 - p0) * d.N);  // the head's state rows p0 .. p1 - 1
    copy_initial_or_zero(in, d, bi, h, initial, state.data(), p0, p1);
    for (int64_t t = 0; t < d.T; ++t) {
      const bool reset =
          t > 0 && ((!in.seq_idx.empty() && in.seq_idx[bi * d.T + t] != in.seq_idx[bi * d.T + t - 1]) ||
                    (has_cu && is_boundary[t]));
      if (reset) std::fill(state.begin(), state.end(), 0.0);

      const double dtv = effective_dt(in.dt[d.dti(bi, t, h)], in.dt_bias.empty() ? 0.0 : in.dt_bias[h],
                                      in.dt_softplus, in.dt_limit_lo, in.dt_limit_hi);
      const double decay = std::exp(dtv * in.A[h]);
      const double* x = &in.x[d.xi(bi, t, h)];
      const double* B = &in.B[d.bci(bi, t, g)];
      const double* C = &in.C[d.bci(bi, t, g)];
      double* y = &out.y[d.xi(bi, t, h)];
      for (int64_t p = p0; p < p1; ++p) {
        double* row = &state[(p - p0) * d.N];
        const double dx = dtv * x[p];
        double acc = 0.0;
        for (int64_t n = 0; n < d.N; ++n) {
          row[n] = decay * row[n] + dx * B[n];
          acc += row[n] * C[n];
        }
        y[p] = acc;
      }
      finish_output(in, d, bi, t, h, p0, p1, y);
      if (has_cu && ends_seq[t] >= 0) {
        std::copy(state.begin(), state.end(), &out.varlen_states[(ends_seq[t] * d.H + h) * S + p0 * d.N]);
      }
    }
    std::copy(state.begin(), state.end(), &out.final_states[(bi * d.H + h) * S + p0 * d.N]);
  });
  if (has_cu) fill_empty_varlen_states(in, d, out);
  return out;
}

// ---- form 2: the chunked SSD ---------------------------------------------------------

Outputs chunked_forward(const Inputs& in, int64_t chunk) {
  check(in);
  if (chunk < 1) throw std::invalid_argument("flashssd::ref: chunked_forward: chunk must be >= 1");
  const Dims d(in);
  Outputs out = allocate_outputs(in, d);
  const int64_t S = d.state_size();
  const int64_t Q = chunk;

  // Segments: maximal runs of tokens with no reset between them. seg[t] only
  // grows; two tokens interact iff they share a segment.
  std::vector<int64_t> seg(d.T);
  // last_of_seq[k]: last token of non-empty cu_seqlens sequence k, or -1.
  std::vector<int64_t> last_of_seq(in.num_seqs(), -1);
  std::vector<char> cu_start(d.T, 0);
  for (int64_t k = 0; k < in.num_seqs(); ++k) {
    if (in.cu_seqlens[k] < d.T) cu_start[in.cu_seqlens[k]] = 1;
    if (in.cu_seqlens[k + 1] > in.cu_seqlens[k]) last_of_seq[k] = in.cu_seqlens[k + 1] - 1;
  }

  std::vector<double> h_in(S), h_out(S);
  std::vector<double> dtv(Q), seg_decay(Q * Q), CB(Q * Q), in_decay(Q), Ch(d.P);
  for (int64_t bi = 0; bi < d.b; ++bi) {
    for (int64_t t = 0; t < d.T; ++t) {
      const bool new_seg = t > 0 && ((!in.seq_idx.empty() && in.seq_idx[bi * d.T + t] != in.seq_idx[bi * d.T + t - 1]) ||
                                     cu_start[t]);
      seg[t] = t == 0 ? 0 : seg[t - 1] + (new_seg ? 1 : 0);
    }
    for (int64_t h = 0; h < d.H; ++h) {
      const int64_t g = d.group_of(h);
      copy_initial_or_zero(in, d, bi, h, row_starts_from_initial(in), h_in.data());

      for (int64_t c0 = 0; c0 < d.T; c0 += Q) {
        const int64_t L = std::min(Q, d.T - c0);
        // A segment starting exactly at the chunk start drops the carried state.
        if (c0 > 0 && seg[c0] != seg[c0 - 1]) std::fill(h_in.begin(), h_in.end(), 0.0);

        for (int64_t i = 0; i < L; ++i) {
          dtv[i] = effective_dt(in.dt[d.dti(bi, c0 + i, h)], in.dt_bias.empty() ? 0.0 : in.dt_bias[h],
                                in.dt_softplus, in.dt_limit_lo, in.dt_limit_hi);
        }
        // seg_decay[i][j] = exp(a_{j+1} + ... + a_i) masked to one segment (the
        // decay mask L, summed directly: no prefix differences);
        // in_decay[i] = exp(a_0 + ... + a_i) when token i still sees h_in.
        for (int64_t i = 0; i < L; ++i) {
          double sum = 0.0;
          for (int64_t j = i; j >= 0; --j) {
            seg_decay[i * Q + j] = seg[c0 + j] == seg[c0 + i] ? std::exp(sum) : 0.0;
            sum += dtv[j] * in.A[h];
          }
          in_decay[i] = seg[c0 + i] == seg[c0] ? std::exp(sum) : 0.0;
          for (int64_t j = 0; j <= i; ++j) {
            const double* Ci = &in.C[d.bci(bi, c0 + i, g)];
            const double* Bj = &in.B[d.bci(bi, c0 + j, g)];
            double acc = 0.0;
            for (int64_t n = 0; n < d.N; ++n) acc += Ci[n] * Bj[n];
            CB[i * Q + j] = acc;
          }
        }
        // Y = (L o C B^T)(dt x) + diag(in_decay) C h_in^T
        for (int64_t i = 0; i < L; ++i) {
          double* y = &out.y[d.xi(bi, c0 + i, h)];
          const double* Ci = &in.C[d.bci(bi, c0 + i, g)];
          for (int64_t p = 0; p < d.P; ++p) {
            double acc = 0.0;
            for (int64_t n = 0; n < d.N; ++n) acc += Ci[n] * h_in[p * d.N + n];
            Ch[p] = in_decay[i] * acc;
          }
          for (int64_t p = 0; p < d.P; ++p) y[p] = Ch[p];
          for (int64_t j = 0; j <= i; ++j) {
            const double w = seg_decay[i * Q + j] * CB[i * Q + j] * dtv[j];
            if (w == 0.0) continue;
            const double* xj = &in.x[d.xi(bi, c0 + j, h)];
            for (int64_t p = 0; p < d.P; ++p) y[p] += w * xj[p];
          }
          finish_output(in, d, bi, c0 + i, h, 0, d.P, y);
        }
        // State after local token e: in_decay[e] h_in + X^T diag(dt * L[e, :]) B.
        auto state_after = [&](int64_t e, double* dst) {
          for (int64_t k = 0; k < S; ++k) dst[k] = in_decay[e] * h_in[k];
          for (int64_t j = 0; j <= e; ++j) {
            const double w = seg_decay[e * Q + j] * dtv[j];
            if (w == 0.0) continue;
            const double* xj = &in.x[d.xi(bi, c0 + j, h)];
            const double* Bj = &in.B[d.bci(bi, c0 + j, g)];
            for (int64_t p = 0; p < d.P; ++p) {
              const double wx = w * xj[p];
              for (int64_t n = 0; n < d.N; ++n) dst[p * d.N + n] += wx * Bj[n];
            }
          }
        };
        for (int64_t k = 0; k < in.num_seqs(); ++k) {
          const int64_t e = last_of_seq[k];
          if (e >= c0 && e < c0 + L) state_after(e - c0, &out.varlen_states[(k * d.H + h) * S]);
        }
        state_after(L - 1, h_out.data());
        std::swap(h_in, h_out);
      }
      std::copy(h_in.begin(), h_in.end(), &out.final_states[(bi * d.H + h) * S]);
    }
  }
  if (!in.cu_seqlens.empty()) fill_empty_varlen_states(in, d, out);
  return out;
}

}  // namespace ref
}  // namespace flashssd
