// Where the split fix-up's threads find their operands (split_fixup.cu, kernel 4), as functions
// of the host and the device so that the CPU tests check them (tests/cpu/test_sm90_layouts.cu).
//
// The fix-up adds C_t h_in^T to y by mma.sync m16n8k16 over slices of kFixupSliceChannels
// channels: a thread (g = lane / 4, q = lane % 4) holds the accumulator columns 2q and 2q + 1 of
// each of the slice's kFixupSliceJ n8 tiles j. Which channel a column stands for is ours to
// choose (the B fragment's column n = g is the h_in row that thread g loads), and it is chosen
// so that a thread's 8 values of a token are 8 adjacent channels: y and z move as one 16-byte
// vector per token and slice (a warp's access covers whole 32-byte sectors), not as four
// 4-byte words 16 bytes apart (half of every sector written: session 49's ncu, 16.0 of 32 bytes
// per sector stored). Session 50 (H100, ncu with the fix-up forced): 112 -> 90 us at R4 128k,
// 135 -> 114 with z, 77 -> 61 at R1 32k; through the API R4 128k -1.5%.
//
// That makes the 8 rows of h_in a warp reads at once rows 8a + b + 2j (a = 0..3, b = 0..1), which
// with the padded row (N + kFixupPad elements: 4 banks apart) share 4-byte banks 4 ways. h_in is
// therefore stored with its 16-byte chunks swizzled: chunk c of row r at c ^ 2((r / 8) % 4).
// Both maps rely on what the sm90 path serves (ssd_fwd_sm90_support.cpp): slices start at
// multiples of 32 channels (P in {64, 128}), and rows hold N >= 64 elements (8 chunks or more,
// so that the mask, below 8, keeps a chunk in its row).
#pragma once

#include <cuda_runtime.h>

namespace flashssd::sm90 {

constexpr int kFixupSliceChannels = 32, kFixupSliceJ = kFixupSliceChannels / 8;
constexpr int kFixupPad = 8;  // elements of padding per shared row of h_in and C

// The channel (within its slice) of accumulator column n of n8 tile j: the thread with g = n
// loads that h_in row as B's column. Columns 2q, 2q + 1 of tile j are channels 8q + 2j, + 1, so
// thread q's tiles j = 0..3 are channels 8q .. 8q + 7, word j of its 16-byte vector.
__host__ __device__ constexpr int fixup_channel(int n, int j) { return 8 * (n >> 1) + 2 * j + (n & 1); }

// The element column at which h_in's element (row, col) is stored in its shared row: the 16-byte
// chunk col / 8 swizzled by the row's bits 3-4 (an even mask: a chunk pair 2c, 2c + 1 stays a
// pair, so a thread's k and k + 8 stay 8 elements apart).
__host__ __device__ constexpr int fixup_h_column(int row, int col) {
  return (((col >> 3) ^ (((row >> 3) & 3) << 1)) << 3) | (col & 7);
}

}  // namespace flashssd::sm90
