// Session 25 diagnostic: which TMA of a small fp32 dt box (heads x 64 tokens from a (b, T, H)
// tensor) is legal on sm_90a. One mode per process (an illegal instruction ends the context).
//   tma_dt_box_check <mode> : 0 = the dttma kernel's (3D, box 4 x 64, destination 128-byte aligned)
//                             1 = 3D, box 4 x 64, destination 1024-byte aligned
//                             2 = 3D, box 8 x 64 (32-byte rows), destination 128-byte aligned
//                             3 = 2D (H, T), box 4 x 64, destination 128-byte aligned
// Modes 0-3 start the box at head 6 (24 bytes into a token's row); 4 and 5 as 0 from heads 4
// and 8 (16-byte aligned starts), 6 as 2 from head 4.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cutlass/arch/barrier.h>
using namespace cute;

template <int kHeads, int kRank, class Tma>
__global__ void load_box(const __grid_constant__ Tma tma, int H, int T, int B, int h0, int t, int b, int dst_offset, float* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t misalign = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) & 1023u;
  float* dst = reinterpret_cast<float*>(smem + ((1024u - misalign) & 1023u) + dst_offset);
  if (threadIdx.x == 0) { cutlass::arch::ClusterTransactionBarrier::init(&bar, 1); cutlass::arch::fence_barrier_init(); }
  __syncthreads();
  using Box = Layout<Shape<Int<kHeads>, Int<64>>, Stride<_1, Int<kHeads>>>;
  if (threadIdx.x == 0) {
    cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(&bar, kHeads * 64 * 4);
    Tensor s = make_tensor(make_smem_ptr(dst), Box{});
    if constexpr (kRank == 3) {
      Tensor m = domain_offset(make_coord(h0, 0), tma.get_tma_tensor(make_shape(H, T, B))(_, _, b));
      Tensor g = local_tile(m, Shape<Int<kHeads>, Int<64>>{}, make_coord(0, t));
      auto [gd, sd] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(s), group_modes<0, 2>(g));
      copy(tma.with(bar), gd, sd);
    } else {
      Tensor m = domain_offset(make_coord(h0, 0), tma.get_tma_tensor(make_shape(H, T)));
      Tensor g = local_tile(m, Shape<Int<kHeads>, Int<64>>{}, make_coord(0, t));
      auto [gd, sd] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(s), group_modes<0, 2>(g));
      copy(tma.with(bar), gd, sd);
    }
  }
  cutlass::arch::ClusterTransactionBarrier::wait(&bar, 0);
  for (int i = threadIdx.x; i < kHeads * 64; i += blockDim.x) out[i] = dst[i];
}

template <int kHeads, int kRank>
int run(int dst_offset, int h0 = 6) {
  const int H = 64, T = 8192, B = 2, t = 5, b = 1;
  std::vector<float> host(size_t(B) * T * H);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i % 100003) * 0.5f + 1.f;
  float *dt, *out;
  cudaMalloc(&dt, host.size() * 4);
  cudaMalloc(&out, kHeads * 64 * 4);
  cudaMemcpy(dt, host.data(), host.size() * 4, cudaMemcpyHostToDevice);
  using Box = Layout<Shape<Int<kHeads>, Int<64>>, Stride<_1, Int<kHeads>>>;
  auto launch = [&](auto tma) {
    auto kernel = load_box<kHeads, kRank, decltype(tma)>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 10240);
    kernel<<<1, 128, 10240>>>(tma, H, T, B, h0, t, b, dst_offset, out);
  };
  if constexpr (kRank == 3) {
    auto g = make_tensor(make_gmem_ptr(static_cast<const float*>(dt)),
                         make_layout(make_shape(H, T, B), make_stride(_1{}, int64_t(H), int64_t(T) * H)));
    launch(make_tma_copy(SM90_TMA_LOAD{}, g, Box{}));
  } else {
    auto g = make_tensor(make_gmem_ptr(static_cast<const float*>(dt + size_t(b) * T * H)),
                         make_layout(make_shape(H, T), make_stride(_1{}, int64_t(H))));
    launch(make_tma_copy(SM90_TMA_LOAD{}, g, Box{}));
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::printf("mode heads %d rank %d dst %d first head %d: %s\n", kHeads, kRank, dst_offset, h0, cudaGetErrorString(e)); return 1; }
  std::vector<float> got(kHeads * 64);
  cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int tok = 0; tok < 64; ++tok)
    for (int h = 0; h < kHeads; ++h)
      bad += got[tok * kHeads + h] != host[(size_t(b) * T + t * 64 + tok) * H + h0 + h];
  std::printf("mode heads %d rank %d dst %d first head %d: ran, %d of %d values wrong\n", kHeads, kRank, dst_offset, h0, bad, kHeads * 64);
  return bad != 0;
}

int main(int argc, char** argv) {
  switch (argc > 1 ? std::atoi(argv[1]) : 0) {
    case 0: return run<4, 3>(0x880);
    case 1: return run<4, 3>(0x400);
    case 2: return run<8, 3>(0x880);
    case 3: return run<4, 2>(0x880);
    case 4: return run<4, 3>(0x880, 4);
    case 5: return run<4, 3>(0x880, 8);
    case 6: return run<8, 3>(0x880, 4);
  }
  return 2;
}
