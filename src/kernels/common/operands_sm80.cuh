// Per-element-type operands of mma.sync m16n8k16 for the portable kernel: the
// fragments of a 16 x 16 A operand and of two 16 x 8 B operands, loaded from a
// tile in shared memory, plus the conversions the epilogue and the state need.
//
// Tile orientation names where the mma's k index runs:
//   load_a / load_b2               the tile stores k along a row   ([m][k], [n][k])
//   load_a_kmajor / load_b2_kmajor the tile stores k down a column ([k][m], [k][n])
//
// bf16 / fp16 (HalfOperands): ldmatrix, one mma per product.
// fp32 (FloatOperands): each value v is split into bf16 hi = bf16(v) and
// lo = bf16(v - hi), and a product is hi*hi + hi*lo + lo*hi (three bf16 mma with
// fp32 accumulation). The dropped lo*lo term and lo's own rounding leave ~2^-17
// relative error per product: fp32 inputs keep fp32-level accuracy (the issue's
// 1e-4 tolerance) without fp16's range limits. tf32 alone (2^-11) would not.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>

#include "kernels/common/mma_sm80.cuh"

namespace flashssd::sm80 {

// ---- bf16 / fp16 ---------------------------------------------------------------------
template <class T> struct HalfPacking;
template <> struct HalfPacking<__nv_bfloat16> {
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&v);
  }
  // bf16 is the top half of a float: one shift and one mask (exact). __bfloat1622float2
  // moves the high half down and back up (two instructions for it, ptxas 13.0).
  __device__ __forceinline__ static float2 unpack(uint32_t v) {
    return make_float2(__uint_as_float(v << 16), __uint_as_float(v & 0xffff0000u));
  }
  __device__ __forceinline__ static uint32_t mul2(uint32_t a, uint32_t b) {
    __nv_bfloat162 r = __hmul2(*reinterpret_cast<__nv_bfloat162*>(&a), *reinterpret_cast<__nv_bfloat162*>(&b));
    return *reinterpret_cast<uint32_t*>(&r);
  }
};
template <> struct HalfPacking<__half> {
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&v);
  }
  __device__ __forceinline__ static float2 unpack(uint32_t v) { return __half22float2(*reinterpret_cast<__half2*>(&v)); }
  __device__ __forceinline__ static uint32_t mul2(uint32_t a, uint32_t b) {
    __half2 r = __hmul2(*reinterpret_cast<__half2*>(&a), *reinterpret_cast<__half2*>(&b));
    return *reinterpret_cast<uint32_t*>(&r);
  }
};

template <class T>
struct HalfOperands {
  using Element = T;
  using Packing = HalfPacking<T>;
  struct FragA { uint32_t r[4]; };
  struct FragB { uint32_t r[2]; };
  using Pair = uint32_t;        // two adjacent elements as stored (register prefetch of z)
  using WeightPair = uint32_t;  // two per-token weights, packed for one mul2

  __device__ __forceinline__ static Pair load_pair(const T* p) { return *reinterpret_cast<const uint32_t*>(p); }
  __device__ __forceinline__ static Pair zero_pair() { return 0u; }
  __device__ __forceinline__ static float2 to_float2(Pair v) { return Packing::unpack(v); }
  __device__ __forceinline__ static void store_pair(T* p, float a, float b) { *reinterpret_cast<uint32_t*>(p) = Packing::pack(a, b); }
  __device__ __forceinline__ static WeightPair weight_pair(float a, float b) { return Packing::pack(a, b); }

  __device__ __forceinline__ static void load_a(FragA& f, const T* tile, int pitch, int m0, int k0, int lane) {
    ldmatrix_x4(f.r, tile + (m0 + lane % 16) * pitch + k0 + (lane / 16) * 8);
  }
  __device__ __forceinline__ static void load_a_kmajor(FragA& f, const T* tile, int pitch, int k0, int m0, int lane) {
    ldmatrix_x4_trans(f.r, tile + (k0 + lane % 8 + (lane / 16) * 8) * pitch + m0 + ((lane / 8) % 2) * 8);
  }
  __device__ __forceinline__ static void load_b2(FragB (&f)[2], const T* tile, int pitch, int n0, int k0, int lane) {
    uint32_t r[4];
    ldmatrix_x4(r, tile + (n0 + lane % 8 + (lane / 16) * 8) * pitch + k0 + ((lane / 8) % 2) * 8);
    f[0] = {{r[0], r[1]}};
    f[1] = {{r[2], r[3]}};
  }
  __device__ __forceinline__ static void load_b2_kmajor(FragB (&f)[2], const T* tile, int pitch, int k0, int n0, int lane) {
    uint32_t r[4];
    ldmatrix_x4_trans(r, tile + (k0 + lane % 8 + ((lane / 8) % 2) * 8) * pitch + n0 + (lane / 16) * 8);
    f[0] = {{r[0], r[1]}};
    f[1] = {{r[2], r[3]}};
  }
  // B[k][n] * w_k, with w_lo the weights of k rows k0 + 2q (+1), w_hi of k0 + 8 + 2q (+1).
  __device__ __forceinline__ static void load_b2_kmajor_scaled(FragB (&f)[2], const T* tile, int pitch, int k0, int n0, int lane,
                                               WeightPair w_lo, WeightPair w_hi) {
    load_b2_kmajor(f, tile, pitch, k0, n0, lane);
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      f[j].r[0] = Packing::mul2(f[j].r[0], w_lo);
      f[j].r[1] = Packing::mul2(f[j].r[1], w_hi);
    }
  }
  // The A operand of k = 16 columns held as two m16n8 accumulators (c0: columns 0-7).
  __device__ __forceinline__ static void a_from_acc(FragA& f, const float (&c0)[4], const float (&c1)[4]) {
    f.r[0] = Packing::pack(c0[0], c0[1]);
    f.r[1] = Packing::pack(c0[2], c0[3]);
    f.r[2] = Packing::pack(c1[0], c1[1]);
    f.r[3] = Packing::pack(c1[2], c1[3]);
  }
  __device__ __forceinline__ static void mma(float (&d)[4], const FragA& a, const FragB& b) { mma_16816<T>(d, a.r, b.r[0], b.r[1]); }
};

// ---- fp32 as split bf16 ----------------------------------------------------------------
struct FloatOperands {
  using Element = float;
  using Packing = HalfPacking<__nv_bfloat16>;
  struct FragA { uint32_t hi[4], lo[4]; };
  struct FragB { uint32_t hi[2], lo[2]; };
  using Pair = float2;
  using WeightPair = float2;

  __device__ __forceinline__ static Pair load_pair(const float* p) { return *reinterpret_cast<const float2*>(p); }
  __device__ __forceinline__ static Pair zero_pair() { return make_float2(0.f, 0.f); }
  __device__ __forceinline__ static float2 to_float2(Pair v) { return v; }
  __device__ __forceinline__ static void store_pair(float* p, float a, float b) { *reinterpret_cast<float2*>(p) = make_float2(a, b); }
  __device__ __forceinline__ static WeightPair weight_pair(float a, float b) { return make_float2(a, b); }

  __device__ __forceinline__ static void split(float a, float b, uint32_t& hi, uint32_t& lo) {
    hi = Packing::pack(a, b);
    const float2 h = Packing::unpack(hi);
    lo = Packing::pack(a - h.x, b - h.y);
  }
  __device__ __forceinline__ static void split(float2 v, uint32_t& hi, uint32_t& lo) { split(v.x, v.y, hi, lo); }
  // Two values of one column, rows k and k + 1 of a k-major tile.
  __device__ __forceinline__ static float2 column_pair(const float* tile, int pitch, int k, int col) {
    return make_float2(tile[k * pitch + col], tile[(k + 1) * pitch + col]);
  }

  // Register i of A holds rows m0 + g + 8 (i % 2), k columns k0 + 2q + 8 (i / 2) (+1).
  __device__ __forceinline__ static void load_a(FragA& f, const float* tile, int pitch, int m0, int k0, int lane) {
    const int g = lane / 4, q = lane % 4;
#pragma unroll
    for (int i = 0; i < 4; ++i)
      split(load_pair(tile + (m0 + g + 8 * (i % 2)) * pitch + k0 + 2 * q + 8 * (i / 2)), f.hi[i], f.lo[i]);
  }
  __device__ __forceinline__ static void load_a_kmajor(FragA& f, const float* tile, int pitch, int k0, int m0, int lane) {
    const int g = lane / 4, q = lane % 4;
#pragma unroll
    for (int i = 0; i < 4; ++i)
      split(column_pair(tile, pitch, k0 + 2 * q + 8 * (i / 2), m0 + g + 8 * (i % 2)), f.hi[i], f.lo[i]);
  }
  // Register i of B fragment j holds column n0 + 8 j + g, k rows k0 + 2q + 8 i (+1).
  __device__ __forceinline__ static void load_b2(FragB (&f)[2], const float* tile, int pitch, int n0, int k0, int lane) {
    const int g = lane / 4, q = lane % 4;
#pragma unroll
    for (int j = 0; j < 2; ++j)
#pragma unroll
      for (int i = 0; i < 2; ++i)
        split(load_pair(tile + (n0 + 8 * j + g) * pitch + k0 + 2 * q + 8 * i), f[j].hi[i], f[j].lo[i]);
  }
  __device__ __forceinline__ static void load_b2_kmajor_scaled(FragB (&f)[2], const float* tile, int pitch, int k0, int n0, int lane,
                                               WeightPair w_lo, WeightPair w_hi) {
    const int g = lane / 4, q = lane % 4;
#pragma unroll
    for (int j = 0; j < 2; ++j)
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const float2 v = column_pair(tile, pitch, k0 + 2 * q + 8 * i, n0 + 8 * j + g);
        const float2 w = i == 0 ? w_lo : w_hi;
        split(v.x * w.x, v.y * w.y, f[j].hi[i], f[j].lo[i]);
      }
  }
  __device__ __forceinline__ static void load_b2_kmajor(FragB (&f)[2], const float* tile, int pitch, int k0, int n0, int lane) {
    load_b2_kmajor_scaled(f, tile, pitch, k0, n0, lane, make_float2(1.f, 1.f), make_float2(1.f, 1.f));
  }
  __device__ __forceinline__ static void a_from_acc(FragA& f, const float (&c0)[4], const float (&c1)[4]) {
    split(c0[0], c0[1], f.hi[0], f.lo[0]);
    split(c0[2], c0[3], f.hi[1], f.lo[1]);
    split(c1[0], c1[1], f.hi[2], f.lo[2]);
    split(c1[2], c1[3], f.hi[3], f.lo[3]);
  }
  __device__ __forceinline__ static void mma(float (&d)[4], const FragA& a, const FragB& b) {
    mma_16816<__nv_bfloat16>(d, a.lo, b.hi[0], b.hi[1]);  // small terms first
    mma_16816<__nv_bfloat16>(d, a.hi, b.lo[0], b.lo[1]);
    mma_16816<__nv_bfloat16>(d, a.hi, b.hi[0], b.hi[1]);
  }
};

template <class Element> struct OperandsFor { using type = HalfOperands<Element>; };
template <> struct OperandsFor<float> { using type = FloatOperands; };
template <class Element> using Operands = typename OperandsFor<Element>::type;

}  // namespace flashssd::sm80
