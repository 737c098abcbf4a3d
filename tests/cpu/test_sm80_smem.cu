// The portable (sm80) kernel's shared memory per block, checked on the host: the figures README
// and docs/API.md give, and the half head-dim blocks' promise (ssd_fwd_sm80.h) that they fit the
// GPUs the default does not: sm_86 / sm_89 for N <= 128, the A100 for 16-bit N <= 256.
#include <gtest/gtest.h>

#include <cstddef>

#include "kernels/sm80/ssd_fwd_kernel.cuh"
#include "kernels/sm80/ssd_fwd_sm80.h"

namespace {

using flashssd::SegsumVariant;
using flashssd::sm80::default_head_block;
using flashssd::sm80::half_head_block;
using flashssd::sm80::SsdFwdKernel;

constexpr size_t kSm86SmemOptin = 101376;  // sm_86 / sm_89: cudaDevAttrMaxSharedMemoryPerBlockOptin
constexpr size_t kA100SmemOptin = 166912;

template <class Element, int kN, int kBP>
constexpr size_t main_pass_bytes() {
  return SsdFwdKernel<Element, kN, kBP, SegsumVariant::kHierarchical, true>::kSmemBytes;
}
template <class Element, int kN>
constexpr size_t default_bytes() {
  return main_pass_bytes<Element, kN, default_head_block(sizeof(Element), kN)>();
}
template <class Element, int kN>
constexpr size_t half_bytes() {
  return main_pass_bytes<Element, kN, half_head_block(sizeof(Element), kN, SegsumVariant::kHierarchical)>();
}

TEST(Sm80SharedMemory, DefaultBlocksAsDocumented) {
  EXPECT_EQ((default_bytes<__nv_bfloat16, 64>()), 70624u);
  EXPECT_EQ((default_bytes<__nv_bfloat16, 128>()), 111584u);
  EXPECT_EQ((default_bytes<__nv_bfloat16, 256>()), 168288u);
  EXPECT_EQ((default_bytes<__half, 128>()), 111584u);
  EXPECT_EQ((default_bytes<float, 64>()), 62432u);
  EXPECT_EQ((default_bytes<float, 128>()), 103392u);
  EXPECT_EQ((default_bytes<float, 256>()), 164256u);
}

TEST(Sm80SharedMemory, HalfBlocksFitWhereTheDefaultDoesNot) {
  // N <= 128: the default needs more than sm_86 / sm_89 allow; the half block fits them.
  EXPECT_GT((default_bytes<__nv_bfloat16, 128>()), kSm86SmemOptin);
  EXPECT_EQ((half_bytes<__nv_bfloat16, 128>()), 94560u);
  EXPECT_EQ((half_bytes<__half, 128>()), 94560u);
  EXPECT_GT((default_bytes<float, 128>()), kSm86SmemOptin);
  EXPECT_EQ((half_bytes<float, 128>()), 90528u);
  EXPECT_LE((half_bytes<float, 128>()), kSm86SmemOptin);
  EXPECT_LE((half_bytes<__nv_bfloat16, 128>()), kSm86SmemOptin);
  // 16-bit N <= 256: the default needs more than the A100 allows; the half block fits it.
  EXPECT_GT((default_bytes<__nv_bfloat16, 256>()), kA100SmemOptin);
  EXPECT_EQ((half_bytes<__nv_bfloat16, 256>()), 155680u);
  EXPECT_EQ((half_bytes<__half, 256>()), 155680u);
  EXPECT_LE((half_bytes<__nv_bfloat16, 256>()), kA100SmemOptin);
  // Where none is built: N <= 64 fits every sm_80+ GPU by default; fp32 N <= 256 fits the A100
  // (its default block is already 16, the smallest the kernel's tiles allow); diff / direct.
  EXPECT_LE((default_bytes<__nv_bfloat16, 64>()), kSm86SmemOptin);
  EXPECT_EQ(half_head_block(2, 64, SegsumVariant::kHierarchical), 0);
  EXPECT_EQ(half_head_block(4, 256, SegsumVariant::kHierarchical), 0);
  EXPECT_LE((default_bytes<float, 256>()), kA100SmemOptin);
  EXPECT_EQ(half_head_block(2, 128, SegsumVariant::kDiff), 0);
  EXPECT_EQ(half_head_block(2, 128, SegsumVariant::kDirect), 0);
}

}  // namespace
