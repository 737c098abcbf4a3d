// Host conversions between double and the storage formats of the library
// (bf16, fp16, fp32, int32, int64). Independent of any CUDA header so that the
// CPU reference, the tests and the apps share one exact definition.
//
// Rounding is IEEE round-to-nearest-even straight from double (no detour
// through float, which could round twice), with overflow to +-inf and
// subnormals where the format has them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "flashssd/flashssd.h"

namespace flashssd {
namespace convert {

namespace detail {
// Round a finite double to a binary format with `precision` significand bits
// (implicit bit included) and smallest normal exponent `emin`; returns the
// rounded value as a double (exact), or +-inf past `max_finite`.
inline double round_to_format(double v, int precision, int emin, double max_finite) {
  if (!std::isfinite(v) || v == 0.0) return v;
  int e = 0;
  std::frexp(v, &e);  // |v| = m * 2^e, m in [0.5, 1): the leading bit is 2^(e-1)
  const int lead = e - 1 < emin ? emin : e - 1;  // subnormals share emin's quantum
  const int quantum = lead - (precision - 1);
  // Scaling by a power of two is exact; nearbyint rounds half to even in the
  // default floating-point environment.
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -quantum)), quantum);
  if (std::fabs(r) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), v);
  return r;
}
}  // namespace detail

constexpr double kBf16Max = 3.38953138925153547590470800371487866880e+38;  // (2 - 2^-7) * 2^127
constexpr double kFp16Max = 65504.0;

// Value of v after rounding to the format (the double a stored value reads back as).
inline double round_bf16(double v) { return detail::round_to_format(v, 8, -126, kBf16Max); }
inline double round_fp16(double v) { return detail::round_to_format(v, 11, -14, kFp16Max); }
inline double round_fp32(double v) { return static_cast<double>(static_cast<float>(v)); }

inline uint16_t double_to_bf16_bits(double v) {
  if (std::isnan(v)) return 0x7FC0;
  // Every bf16 value is a float whose low 16 bits are zero.
  const float f = static_cast<float>(round_bf16(v));
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<uint16_t>(u >> 16);
}

inline double bf16_bits_to_double(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint16_t double_to_fp16_bits(double v) {
  if (std::isnan(v)) return 0x7E00;
  const double r = round_fp16(v);
  const uint16_t sign = std::signbit(r) ? 0x8000 : 0;
  const double a = std::fabs(r);
  if (std::isinf(a)) return sign | 0x7C00;
  if (a < 0x1p-14) {  // zero or subnormal: a = mantissa * 2^-24, exact
    return sign | static_cast<uint16_t>(std::ldexp(a, 24));
  }
  int e = 0;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const uint16_t exponent = static_cast<uint16_t>(e - 1 + 15);
  const uint16_t mantissa = static_cast<uint16_t>(std::ldexp(m, 11) - 1024.0);
  return sign | static_cast<uint16_t>(exponent << 10) | mantissa;
}

inline double fp16_bits_to_double(uint16_t h) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int exponent = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  if (exponent == 0x1F) {
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// Round v as storing it in `t` and reading it back would.
inline double round_to(DType t, double v) {
  switch (t) {
    case DType::kBFloat16: return round_bf16(v);
    case DType::kFloat16: return round_fp16(v);
    case DType::kFloat32: return round_fp32(v);
    case DType::kInt32: return static_cast<double>(static_cast<int32_t>(v));
    case DType::kInt64: return static_cast<double>(static_cast<int64_t>(v));
  }
  return v;
}

// Read element `offset` (in elements) of a buffer of dtype `t` as a double.
inline double load(const void* base, DType t, int64_t offset) {
  const char* p = static_cast<const char*>(base);
  switch (t) {
    case DType::kFloat32: {
      float f;
      std::memcpy(&f, p + offset * 4, 4);
      return f;
    }
    case DType::kBFloat16: {
      uint16_t b;
      std::memcpy(&b, p + offset * 2, 2);
      return bf16_bits_to_double(b);
    }
    case DType::kFloat16: {
      uint16_t h;
      std::memcpy(&h, p + offset * 2, 2);
      return fp16_bits_to_double(h);
    }
    case DType::kInt32: {
      int32_t i;
      std::memcpy(&i, p + offset * 4, 4);
      return i;
    }
    case DType::kInt64: {
      int64_t i;
      std::memcpy(&i, p + offset * 8, 8);
      return static_cast<double>(i);
    }
  }
  return 0.0;
}

// Write v (rounded to nearest even) into element `offset` of a buffer of dtype `t`.
inline void store(void* base, DType t, int64_t offset, double v) {
  char* p = static_cast<char*>(base);
  switch (t) {
    case DType::kFloat32: {
      const float f = static_cast<float>(v);
      std::memcpy(p + offset * 4, &f, 4);
      return;
    }
    case DType::kBFloat16: {
      const uint16_t b = double_to_bf16_bits(v);
      std::memcpy(p + offset * 2, &b, 2);
      return;
    }
    case DType::kFloat16: {
      const uint16_t h = double_to_fp16_bits(v);
      std::memcpy(p + offset * 2, &h, 2);
      return;
    }
    case DType::kInt32: {
      const int32_t i = static_cast<int32_t>(v);
      std::memcpy(p + offset * 4, &i, 4);
      return;
    }
    case DType::kInt64: {
      const int64_t i = static_cast<int64_t>(v);
      std::memcpy(p + offset * 8, &i, 8);
      return;
    }
  }
}

// Integer read for index tensors (seq_idx int32, cu_seqlens int32/int64): exact
// for the whole int64 range, unlike a detour through double.
inline int64_t load_int(const void* base, DType t, int64_t offset) {
  const char* p = static_cast<const char*>(base);
  if (t == DType::kInt64) {
    int64_t i;
    std::memcpy(&i, p + offset * 8, 8);
    return i;
  }
  int32_t i;
  std::memcpy(&i, p + offset * 4, 4);
  return i;
}

}  // namespace convert
}  // namespace flashssd
