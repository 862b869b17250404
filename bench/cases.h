/* SPDX-License-Identifier: Apache-2.0 */
/* The per-call cases of the benchmark (bench/bench.c), shared with the tests
 * (tests/test_bench_cases.c checks every expected result), so that what is
 * timed is known to be right. */
#ifndef ONNXSHAPE_BENCH_CASES_H
#define ONNXSHAPE_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_case {
  const char *name;
  size_t rank;
  int64_t dims[8];
  /* Shape-25 with start/end */
  int64_t start, end;
  size_t shape_len;         /* expected output length */
  /* Size-25 */
  int64_t size;             /* expected element count */
  /* Reshape-25 with allowzero=0 */
  size_t target_len;
  int64_t target[8];
  int64_t reshaped[8];      /* expected output dims */
} bench_case;

static const bench_case bench_cases[] = {
    {"rank 1", 1, {24}, 0, 1, 1, 24, 2, {4, -1}, {4, 6}},
    {"rank 4", 4, {1, 3, 224, 224}, 1, 4, 3, 150528, 3, {0, 3, -1}, {1, 3, 50176}},
    {"rank 8", 8, {2, 1, 3, 1, 4, 1, 5, 2}, -6, 100, 6, 240, 4, {0, 0, -1, 10}, {2, 1, 12, 10}},
};

#define BENCH_CASE_COUNT (sizeof bench_cases / sizeof bench_cases[0])

#endif
