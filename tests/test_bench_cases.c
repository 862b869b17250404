/* SPDX-License-Identifier: Apache-2.0 */
/* The benchmark's per-call cases (bench/cases.h): what make bench times must
 * give these exact results. */
#include "../bench/cases.h"
#include "harness.h"

/* covers: SHAPE-OUTPUT SHAPE-CLAMP SIZE-OUTPUT RESHAPE-ZERO-COPY RESHAPE-INFER */
static void test_bench_cases_give_their_results(void) {
  for (size_t c = 0; c < BENCH_CASE_COUNT; c++) {
    const bench_case *b = &bench_cases[c];
    const onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, b->rank, b->dims, NULL, 0};
    onnxshape_shape_attrs a = {1, b->start, 1, b->end};
    int64_t out[8];
    size_t len = 99;
    CHECK_STATUS(onnxshape_shape_run(25, &t, &a, out, 8, &len, NULL), ONNXSHAPE_OK);
    CHECK_I64(len, b->shape_len);
    int64_t s = b->start < 0 ? b->start + (int64_t)b->rank : b->start;
    for (size_t i = 0; i < len; i++) CHECK_I64(out[i], b->dims[(size_t)s + i]);
    int64_t n = -1;
    CHECK_STATUS(onnxshape_size_run(25, &t, &n, NULL), ONNXSHAPE_OK);
    CHECK_I64(n, b->size);
    const onnxshape_reshape_attrs az = {1, 0};
    int64_t dims[8];
    CHECK_STATUS(onnxshape_reshape_infer(25, ONNXSHAPE_TYPE_FLOAT, b->dims, b->rank, b->target,
                                         b->target_len, &az, dims, 8, NULL),
                 ONNXSHAPE_OK);
    for (size_t i = 0; i < b->target_len; i++) CHECK_I64(dims[i], b->reshaped[i]);
  }
}

RUN_TESTS(TEST_ENTRY(test_bench_cases_give_their_results))
