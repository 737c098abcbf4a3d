// Probe (compile here, run here: host code only). Built against a copy of main's src with three edits to
// ssd_fwd_sm90_traits.cuh: kHeadsPerCta's static_assert widened to 1..3, kConsumerRegs 160 / kProducerRegs 32
// for three heads, and the named-barrier static_assert disabled (three heads need 8 + 7 + 2 = 17 > 16).
//   nvcc -Iinclude -Isrc -isystem=<cutlass include> -O1 --expt-relaxed-constexpr -std=c++17 -x cu smem.cu -o smem
#include <cstdio>
#include "kernels/sm90/ssd_fwd_sm90_traits.cuh"
using namespace flashssd::sm90;
template <int H> void show() {
  using K = SsdFwdSm90<64, 128, H, cutlass::bfloat16_t>;
  printf("heads %d: stage ungated %zu gated %zu, consumer (one buffer) %zu (two) %zu; main stages ungated %d gated %d; smem ungated %zu gated %zu (max %zu)\n", H,
         sizeof(typename K::template StageT<true, false>), sizeof(typename K::template StageT<true, true>),
         sizeof(typename K::template ConsumerT<true, true>), sizeof(typename K::template ConsumerT<true, false>),
         K::template kMainStages<false>, K::template kMainStages<true>, K::template kSmemBytes<false, false>, K::template kSmemBytes<false, true>, K::kMaxSmemBytes);
}
int main() { show<2>(); show<3>(); }
