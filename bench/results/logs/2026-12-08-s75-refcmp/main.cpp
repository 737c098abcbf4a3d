#include <chrono>
#include <cstdio>
#include "reference/reference.h"
using namespace flashssd::ref;
int main(int argc, char** argv) {
  FILE* f = std::fopen(argv[1], "wb");
  int k = 0;
  double total = 0;
  for (int64_t b : {1, 2}) for (int64_t P : {64, 20, 3}) for (int mode = 0; mode < 4; ++mode) {
    RandomSpec s; s.batch = b; s.seqlen = 3000 + 17 * mode; s.heads = 4; s.groups = 2; s.headdim = P; s.dstate = 128;
    s.D = mode != 1; s.D_per_channel = mode == 2; s.z = mode >= 1; s.dt_bias = true; s.dt_softplus = mode != 3;
    if (mode == 3) s.dt_limit_lo = -1.0;
    s.initial_states = mode != 0; s.packed_seqs = mode == 1 ? 7 : 0;
    if (b == 1 && mode >= 2) { s.varlen_seqs = 9; s.varlen_allow_empty = mode == 3; }
    s.seed = 100 + k++;
    Inputs in = make_random(s);
    auto t0 = std::chrono::steady_clock::now();
    Outputs o = recurrence_forward(in);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (auto* v : {&o.y, &o.final_states, &o.varlen_states}) std::fwrite(v->data(), 8, v->size(), f);
  }
  std::fclose(f);
  std::printf("%d cases, reference %.2f s\n", k, total);
}
