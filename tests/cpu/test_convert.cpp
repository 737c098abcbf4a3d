// The host bf16 / fp16 converters: exact decoding, round-to-nearest-even
// encoding straight from double, overflow and subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "reference/convert.h"

namespace flashssd {
namespace {

using namespace convert;

TEST(Convert, Bf16KnownValues) {
  EXPECT_EQ(double_to_bf16_bits(1.0), 0x3F80);
  EXPECT_EQ(double_to_bf16_bits(-2.0), 0xC000);
  EXPECT_EQ(double_to_bf16_bits(0.0), 0x0000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ(double_to_bf16_bits(1.0 + std::ldexp(1.0, -8)), 0x3F80);
  // Just above the tie rounds up (a detour through float could not tell).
  EXPECT_EQ(double_to_bf16_bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3F81);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: ties to even (up).
  EXPECT_EQ(double_to_bf16_bits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82);
  EXPECT_EQ(double_to_bf16_bits(1e39), 0x7F80);  // overflow to inf
  EXPECT_EQ(double_to_bf16_bits(-std::numeric_limits<double>::infinity()), 0xFF80);
  EXPECT_TRUE(std::isnan(bf16_bits_to_double(double_to_bf16_bits(std::nan("")))));
  EXPECT_EQ(bf16_bits_to_double(0x0001), std::ldexp(1.0, -133));  // smallest subnormal
}

TEST(Convert, Fp16KnownValues) {
  EXPECT_EQ(double_to_fp16_bits(1.0), 0x3C00);
  EXPECT_EQ(double_to_fp16_bits(65504.0), 0x7BFF);
  EXPECT_EQ(double_to_fp16_bits(65520.0), 0x7C00);  // the tie above the max rounds to inf
  EXPECT_EQ(double_to_fp16_bits(65519.99), 0x7BFF);
  EXPECT_EQ(double_to_fp16_bits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(double_to_fp16_bits(std::ldexp(1.0, -25)), 0x0000);           // tie to even: 0
  EXPECT_EQ(double_to_fp16_bits(std::ldexp(3.0, -25)), 0x0002);           // tie to even: 2
  EXPECT_EQ(double_to_fp16_bits(-std::ldexp(1023.0, -24)), 0x83FF);       // largest subnormal
  EXPECT_EQ(double_to_fp16_bits(std::ldexp(1023.5, -24)), 0x0400);        // rounds up to the smallest normal
  EXPECT_EQ(fp16_bits_to_double(0x3555), 0.333251953125);
  EXPECT_TRUE(std::isnan(fp16_bits_to_double(double_to_fp16_bits(std::nan("")))));
}

TEST(Convert, AllFp16AndBf16PatternsRoundTrip) {
  for (uint32_t u = 0; u < 0x10000; ++u) {
    const uint16_t h = static_cast<uint16_t>(u);
    const double f = fp16_bits_to_double(h);
    if (!std::isnan(f)) {
      ASSERT_EQ(double_to_fp16_bits(f), h) << std::hex << u;
    }
    const double b = bf16_bits_to_double(h);
    if (!std::isnan(b)) {
      ASSERT_EQ(double_to_bf16_bits(b), h) << std::hex << u;
    }
  }
}

// Against the usual float -> bf16 bit trick (exact for float inputs) and, where
// the compiler has it, the native _Float16 conversion.
TEST(Convert, RandomValuesMatchIndependentRounding) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> mant(-2.0, 2.0);
  std::uniform_int_distribution<int> expo(-30, 20);
  for (int i = 0; i < 200000; ++i) {
    const float f = static_cast<float>(std::ldexp(mant(rng), expo(rng)));
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint16_t want = static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
    ASSERT_EQ(double_to_bf16_bits(f), want) << f;
#if defined(__FLT16_MAX__)
    const _Float16 h = static_cast<_Float16>(static_cast<double>(f));
    uint16_t hb;
    std::memcpy(&hb, &h, 2);
    ASSERT_EQ(double_to_fp16_bits(f), hb) << f;
#endif
  }
}

TEST(Convert, LoadStore) {
  unsigned char buf[64] = {};
  for (DType t : {DType::kFloat32, DType::kBFloat16, DType::kFloat16, DType::kInt32, DType::kInt64}) {
    store(buf, t, 3, -5.0);
    EXPECT_EQ(load(buf, t, 3), -5.0) << dtype_name(t);
  }
  store(buf, DType::kInt64, 1, 1e15);
  EXPECT_EQ(load_int(buf, DType::kInt64, 1), int64_t(1e15));
}

}  // namespace
}  // namespace flashssd
