/* SPDX-License-Identifier: Apache-2.0 */
/* Size (docs/semantics.md, "Size"): the element count as 0-D int64. */
#include "harness.h"

static onnxshape_status size_of(int version, int32_t type, const int64_t *dims, size_t rank,
                                int64_t *out) {
  const onnxshape_tensor t = {type, rank, dims, NULL, 0};
  return onnxshape_size_run(version, &t, out, NULL);
}

/* covers: SIZE-OUTPUT */
/* ONNX backend tests test_size_example ([[1,2,3],[4,5,6]]) and test_size ([3,4,5]). */
static void test_onnx_examples(void) {
  static const int64_t d23[] = {2, 3}, d345[] = {3, 4, 5};
  int64_t n = -1;
  CHECK_STATUS(size_of(13, ONNXSHAPE_TYPE_FLOAT, d23, 2, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 6);
  CHECK_STATUS(size_of(13, ONNXSHAPE_TYPE_FLOAT, d345, 3, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 60);
  CHECK_STATUS(size_of(1, ONNXSHAPE_TYPE_FLOAT, d345, 3, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 60);
}

/* covers: SIZE-OUTPUT */
static void test_scalar_is_one(void) {
  int64_t n = -1;
  CHECK_STATUS(size_of(25, ONNXSHAPE_TYPE_INT64, NULL, 0, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 1);
  static const int64_t one[] = {1, 1, 1};
  CHECK_STATUS(size_of(25, ONNXSHAPE_TYPE_INT64, one, 3, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 1);
}

/* covers: SIZE-ZERO-FIRST */
/* A zero dim wins over any other dims, even ones whose product overflows. */
static void test_zero_size_with_huge_dims(void) {
  int64_t n = -1;
  static const int64_t a[] = {INT64_C(1) << 32, INT64_C(1) << 32, 0};
  CHECK_STATUS(size_of(25, ONNXSHAPE_TYPE_FLOAT, a, 3, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 0);
  static const int64_t b[] = {0, INT64_MAX, INT64_MAX, INT64_MAX};
  n = -1;
  CHECK_STATUS(size_of(25, ONNXSHAPE_TYPE_FLOAT, b, 4, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 0);
  static const int64_t c[] = {0};
  n = -1;
  CHECK_STATUS(size_of(1, ONNXSHAPE_TYPE_FLOAT, c, 1, &n), ONNXSHAPE_OK);
  CHECK_I64(n, 0);
}

/* covers: SIZE-OVERFLOW */
static void test_overflow_is_an_error(void) {
  int64_t n = 42;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  d.node = "sz";
  static const int64_t a[] = {INT64_C(1) << 32, INT64_C(1) << 32};
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 2, a, NULL, 0};
  CHECK_STATUS(onnxshape_size_run(21, &t, &n, &d), ONNXSHAPE_ERR_OVERFLOW);
  CHECK_MESSAGE(d.message, "Size-21 (node 'sz'): data element count overflows int64 at dims[1] = 4294967296");
  CHECK_I64(n, 42);
  /* 2305843009213693955 * 8 wraps to 24 in 64-bit arithmetic. */
  static const int64_t w[] = {INT64_C(2305843009213693955), 8};
  CHECK_STATUS(size_of(13, ONNXSHAPE_TYPE_FLOAT, w, 2, &n), ONNXSHAPE_ERR_OVERFLOW);
  CHECK_I64(n, 42);
  static const int64_t m[] = {INT64_MAX, 1, 1};
  CHECK_STATUS(size_of(13, ONNXSHAPE_TYPE_FLOAT, m, 3, &n), ONNXSHAPE_OK);
  CHECK_I64(n, INT64_MAX);
  static const int64_t m2[] = {INT64_MAX / 2 + 1, 2};
  CHECK_STATUS(size_of(13, ONNXSHAPE_TYPE_FLOAT, m2, 2, &n), ONNXSHAPE_ERR_OVERFLOW);
}

/* covers: TYPE-SET SIZE-OUTPUT */
static void test_every_type_every_version(void) {
  static const int vers[] = {1, 13, 19, 21, 23, 24, 25};
  static const int top[] = {15, 16, 20, 22, 23, 24, 26};
  static const int64_t d[] = {3, 5, 1};
  for (size_t i = 0; i < 7; i++) {
    for (int32_t t = 1; t <= 26; t++) {
      int64_t n = -1;
      onnxshape_status want = t <= top[i] ? ONNXSHAPE_OK : ONNXSHAPE_ERR_TYPE_NOT_ALLOWED;
      CHECK_STATUS(size_of(vers[i], t, d, 3, &n), want);
      CHECK_STATUS(onnxshape_size_infer(vers[i], t, NULL), want);
      if (want == ONNXSHAPE_OK) CHECK_I64(n, 15);
    }
  }
  CHECK_STATUS(onnxshape_size_infer(2, 1, NULL), ONNXSHAPE_ERR_UNKNOWN_VERSION);
  CHECK_STATUS(onnxshape_size_infer(13, 27, NULL), ONNXSHAPE_ERR_UNKNOWN_TYPE);
}

/* covers: DIMS-COUNT KERNEL-CAPACITY KERNEL-UNTOUCHED-ON-ERROR */
static void test_invalid_inputs(void) {
  int64_t n = 5;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  static const int64_t neg[] = {3, -1};
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 2, neg, NULL, 0};
  CHECK_STATUS(onnxshape_size_run(13, &t, &n, &d), ONNXSHAPE_ERR_NEGATIVE_DIM);
  CHECK_MESSAGE(d.message, "Size-13: data dims[1] = -1; a dimension cannot be negative");
  CHECK_I64(n, 5);
  CHECK_STATUS(onnxshape_size_run(13, NULL, &n, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_size_run(13, &t, NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  const onnxshape_tensor nodims = {ONNXSHAPE_TYPE_FLOAT, 2, NULL, NULL, 0};
  CHECK_STATUS(onnxshape_size_run(13, &nodims, &n, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Size-13: data has rank 2 but no dims");
}

RUN_TESTS(TEST_ENTRY(test_onnx_examples), TEST_ENTRY(test_scalar_is_one),
          TEST_ENTRY(test_zero_size_with_huge_dims), TEST_ENTRY(test_overflow_is_an_error),
          TEST_ENTRY(test_every_type_every_version), TEST_ENTRY(test_invalid_inputs))
