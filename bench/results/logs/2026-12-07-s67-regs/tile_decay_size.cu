// Session 67: sizeof the main pass's decay record (TileDecay<64, true>, bf16 N = 128) and its two mask-factor arrays, which
// only the exact tiles' mask (mask_scores) reads. Host only:
//   nvcc -Iinclude -Isrc -isystem=<cutlass include> -O1 --expt-relaxed-constexpr -std=c++17 -x cu tile_decay_size.cu -o sz && ./sz
#include <cstdio>
#include "kernels/common/segsum.cuh"
int main() {
  using D = flashssd::sm80::TileDecay<64, true>;
  printf("TileDecay<64,true> %zu, chain_dt %zu, diag_dt %zu\n", sizeof(D), sizeof(D::chain_dt), sizeof(D::diag_dt));
}
