/* SPDX-License-Identifier: Apache-2.0 */
/* 64-bit division by shifts and subtractions, for builds optimized for size
 * on cores without a 64-bit divide (internal.h, onnxshape__udiv64). */
#include "internal.h"

uint64_t onnxshape__udiv64_soft(uint64_t n, uint64_t d, uint64_t *rem) {
  uint64_t q = 0;
  uint64_t r = 0;
  /* Restoring division, one bit of n at a time from the top. r is at most
   * the bits of n taken so far, which before the last step are below 2^63,
   * so shifting r never drops a bit; after each step r < d. */
  for (uint32_t i = 64u; i > 0u; i--) {
    uint32_t shift = i - 1u;
    uint64_t bit = (n >> shift) & UINT64_C(1);
    r <<= 1;
    r |= bit;
    q <<= 1;
    if (r >= d) {
      r -= d;
      q |= UINT64_C(1);
    }
  }
  *rem = r;
  return q;
}
