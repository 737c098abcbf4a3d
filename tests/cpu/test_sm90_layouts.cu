// Fragment-layout facts of the sm90 forward (src/kernels/sm90/ssd_fwd_sm90.cuh),
// checked on the host for every thread of the warpgroup: CuTe's layouts are the
// same functions on the host and the device, so this runs in CI without a GPU.
// The kernel applies segsum.cuh's m16n8-order mask to WGMMA accumulators and feeds
// the S accumulator to an RS WGMMA register by register; both rest on these facts.
#include <gtest/gtest.h>

#include "kernels/sm90/ssd_fwd_sm90.cuh"

namespace {

template <class K>
void expect_layout_facts() {
  for (int tid = 0; tid < K::kThreads; ++tid)
    EXPECT_EQ(flashssd::sm90::fragment_layout_mismatches<K>(tid), 0) << "thread " << tid;
}

TEST(Sm90Layouts, AccumulatorsFollowTheM16n8OrderN128) { expect_layout_facts<flashssd::sm90::SsdFwdSm90<64, 128>>(); }
TEST(Sm90Layouts, AccumulatorsFollowTheM16n8OrderN64) { expect_layout_facts<flashssd::sm90::SsdFwdSm90<64, 64>>(); }

// The check can fail: a thread's fragment seen from another thread's coordinates.
TEST(Sm90Layouts, CheckDetectsAWrongThread) {
  using K = flashssd::sm90::SsdFwdSm90<64, 128>;
  using namespace cute;
  typename K::MmaS mma;
  Tensor c0 = mma.get_thread_slice(0).partition_C(make_identity_tensor(Shape<typename K::TQ, typename K::TQ>{}));
  Tensor c1 = mma.get_thread_slice(1).partition_C(make_identity_tensor(Shape<typename K::TQ, typename K::TQ>{}));
  EXPECT_NE(get<1>(c0(0)), get<1>(c1(0)));  // lanes 0 and 1 differ in the column pair q
  EXPECT_EQ(get<1>(c1(0)), 2);
  EXPECT_EQ(get<0>(c1(0)), 0);
}

}  // namespace
