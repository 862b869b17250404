/* SPDX-License-Identifier: Apache-2.0 */
/* Turns fuzzer bytes into kernel arguments, biased towards the small values
 * (-2..9) where the rules live, with occasional full 64-bit values. */
#ifndef ONNXSHAPE_FUZZ_INPUT_H
#define ONNXSHAPE_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_input {
  const uint8_t *p;
  size_t n;
} fuzz_input;

static inline uint8_t take_byte(fuzz_input *in) {
  if (in->n == 0) return 0;
  in->n--;
  return *in->p++;
}

static inline int64_t take_value(fuzz_input *in) {
  uint8_t b = take_byte(in);
  if (b < 200 || in->n < 8) return (int64_t)(b % 12) - 2;
  uint64_t v;
  memcpy(&v, in->p, 8);
  in->p += 8;
  in->n -= 8;
  return (int64_t)v;
}

/* Each operator's versions, to pick one from a byte. */
static const int fuzz_shape_versions[] = {1, 13, 15, 19, 21, 23, 24, 25};
static const int fuzz_reshape_versions[] = {1, 5, 13, 14, 19, 21, 23, 24, 25};
static const int fuzz_size_versions[] = {1, 13, 19, 21, 23, 24, 25};

#define FUZZ_MAX_RANK 10

/* Aborts the fuzzer on a broken invariant, also in release builds. */
#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) __builtin_trap(); \
  } while (0)

#endif
