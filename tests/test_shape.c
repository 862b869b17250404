/* SPDX-License-Identifier: Apache-2.0 */
/* Shape (docs/semantics.md, "Shape"): the ONNX examples, the SONNX examples
 * 1 to 5, clamping, scalars, attribute availability per version, buffers. */
#include "harness.h"

static const int64_t dims234[] = {2, 3, 4};
static const onnxshape_tensor t234 = {ONNXSHAPE_TYPE_FLOAT, 3, dims234, NULL, 0};

/* Runs Shape-<version> on t with the given attributes; returns the status and
 * leaves the values in out[0..*len). */
static onnxshape_status run(int version, const onnxshape_tensor *t, int has_start, int64_t start,
                            int has_end, int64_t end, int64_t *out, size_t *len) {
  onnxshape_shape_attrs a = {has_start, start, has_end, end};
  size_t inferred = 999;
  onnxshape_status st = onnxshape_shape_infer(version, t->type, t->rank, &a, &inferred, NULL);
  onnxshape_status st2 = onnxshape_shape_run(version, t, &a, out, 16, len, NULL);
  CHECK_I64(st, st2);
  if (st == ONNXSHAPE_OK) CHECK_I64(inferred, *len);
  return st2;
}

#define EXPECT_SLICE(version, t, hs, s, he, e, ...)                      \
  do {                                                                   \
    int64_t out_[16];                                                    \
    size_t len_ = 999;                                                   \
    CHECK_STATUS(run(version, t, hs, s, he, e, out_, &len_), ONNXSHAPE_OK); \
    CHECK_DIMS(out_, len_, __VA_ARGS__);                                 \
  } while (0)

#define EXPECT_EMPTY(version, t, hs, s, he, e)                           \
  do {                                                                   \
    int64_t out_[16];                                                    \
    size_t len_ = 999;                                                   \
    CHECK_STATUS(run(version, t, hs, s, he, e, out_, &len_), ONNXSHAPE_OK); \
    CHECK_I64(len_, 0);                                                  \
  } while (0)

/* covers: SHAPE-OUTPUT SHAPE-CLAMP */
/* The examples of the ONNX Shape page (seeds/000, seeds/001) and the ONNX
 * backend tests test_shape_* (same input [3,4,5] in the test suite). */
static void test_onnx_page_examples(void) {
  EXPECT_SLICE(15, &t234, 0, 0, 0, 0, 2, 3, 4);
  EXPECT_SLICE(15, &t234, 1, -1, 0, 0, 4);
  EXPECT_SLICE(15, &t234, 0, 0, 1, -1, 2, 3);
  EXPECT_SLICE(15, &t234, 1, 1, 1, 2, 3);
}

/* covers: SHAPE-OUTPUT SHAPE-CLAMP SHAPE-DEFAULTS */
static void test_onnx_backend_cases(void) {
  static const int64_t d345[] = {3, 4, 5};
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 3, d345, NULL, 0};
  static const int64_t d23[] = {2, 3};
  const onnxshape_tensor ex = {ONNXSHAPE_TYPE_FLOAT, 2, d23, NULL, 0};
  EXPECT_SLICE(15, &ex, 0, 0, 0, 0, 2, 3);             /* test_shape_example */
  EXPECT_SLICE(15, &t, 0, 0, 0, 0, 3, 4, 5);           /* test_shape */
  EXPECT_SLICE(15, &t, 1, 1, 0, 0, 4, 5);              /* test_shape_start_1 */
  EXPECT_SLICE(15, &t, 1, 1, 1, 2, 4);                 /* test_shape_start_1_end_2 */
  EXPECT_SLICE(15, &t, 1, 1, 1, -1, 4);                /* test_shape_start_1_end_negative_1 */
  EXPECT_SLICE(15, &t, 1, -1, 0, 0, 5);                /* test_shape_start_negative_1 */
  EXPECT_SLICE(15, &t, 0, 0, 1, 1, 3);                 /* test_shape_end_1 */
  EXPECT_SLICE(15, &t, 0, 0, 1, -1, 3, 4);             /* test_shape_end_negative_1 */
  EXPECT_SLICE(15, &t, 1, -10, 0, 0, 3, 4, 5);         /* test_shape_clip_start */
  EXPECT_SLICE(15, &t, 0, 0, 1, 10, 3, 4, 5);          /* test_shape_clip_end */
  EXPECT_EMPTY(15, &t, 1, 2, 1, 1);                    /* test_shape_start_greater_than_end */
  EXPECT_SLICE(15, &t, 1, 0, 0, 0, 3, 4, 5);           /* test_shape_start_0 */
}

/* covers: SHAPE-OUTPUT SHAPE-CLAMP SHAPE-EMPTY */
/* SONNX informal specification of Shape, examples 1 to 5 (seeds/004). */
static void test_sonnx_examples(void) {
  EXPECT_SLICE(25, &t234, 1, 0, 1, 3, 2, 3, 4);    /* 1: start 0, end 3 */
  EXPECT_SLICE(25, &t234, 1, 1, 1, 2, 3);          /* 2: start 1, end 2 */
  EXPECT_EMPTY(25, &t234, 1, 2, 1, 2);             /* 3: start 2, end 2 */
  EXPECT_SLICE(25, &t234, 1, -500, 1, 2, 2, 3);    /* 4: start -500, end 2 */
  EXPECT_SLICE(25, &t234, 1, 0, 1, 1000, 2, 3, 4); /* 5: start 0, end 1000 */
}

/* covers: SHAPE-CLAMP SHAPE-EMPTY */
static void test_clamping_rules(void) {
  EXPECT_SLICE(15, &t234, 1, -500, 1, 2, 2, 3);
  EXPECT_SLICE(15, &t234, 0, 0, 1, 1000, 2, 3, 4);
  /* end = -5 on rank 3 is -2 after adding r, clamped to 0: empty (the ONNX
   * Python reference wraps around here; the rule does not). */
  EXPECT_EMPTY(15, &t234, 0, 0, 1, -5);
  EXPECT_EMPTY(15, &t234, 1, 3, 0, 0);
  EXPECT_EMPTY(15, &t234, 1, 2, 1, 1);  /* start > end */
  EXPECT_EMPTY(15, &t234, 1, 3, 1, 3);
  EXPECT_SLICE(15, &t234, 1, -3, 1, -2, 2);
  EXPECT_SLICE(15, &t234, 1, -4, 1, 3, 2, 3, 4);
  EXPECT_SLICE(15, &t234, 1, 2, 1, 3, 4);
  /* Extreme attributes never overflow. */
  EXPECT_SLICE(15, &t234, 1, INT64_MIN, 0, 0, 2, 3, 4);
  EXPECT_SLICE(15, &t234, 1, INT64_MIN, 1, INT64_MAX, 2, 3, 4);
  EXPECT_EMPTY(15, &t234, 1, INT64_MAX, 0, 0);
  EXPECT_EMPTY(15, &t234, 0, 0, 1, INT64_MIN);
  EXPECT_EMPTY(15, &t234, 1, INT64_MAX, 1, INT64_MIN);
  EXPECT_SLICE(15, &t234, 1, -1, 1, INT64_MAX, 4);
}

/* covers: SHAPE-SCALAR SHAPE-EMPTY */
static void test_scalar_and_empty_inputs(void) {
  const onnxshape_tensor scalar = {ONNXSHAPE_TYPE_INT64, 0, NULL, NULL, 0};
  for (int v = 1; v <= 25; v++) {
    if (onnxshape_op_version_get(ONNXSHAPE_OP_SHAPE, v) == NULL) continue;
    EXPECT_EMPTY(v, &scalar, 0, 0, 0, 0);
  }
  EXPECT_EMPTY(15, &scalar, 1, -1, 1, 1);
  EXPECT_EMPTY(15, &scalar, 1, INT64_MIN, 1, INT64_MAX);
  /* Zero-size tensors with huge dims: Shape only copies dims. */
  static const int64_t dz[] = {INT64_C(1) << 32, INT64_C(1) << 32, 0};
  const onnxshape_tensor z = {ONNXSHAPE_TYPE_UINT8, 3, dz, NULL, 0};
  EXPECT_SLICE(13, &z, 0, 0, 0, 0, INT64_C(1) << 32, INT64_C(1) << 32, 0);
  static const int64_t big[] = {INT64_MAX, INT64_MAX};
  const onnxshape_tensor b = {ONNXSHAPE_TYPE_UINT8, 2, big, NULL, 0};
  EXPECT_SLICE(1, &b, 0, 0, 0, 0, INT64_MAX, INT64_MAX);
}

/* covers: SHAPE-ATTRS-VERSION SHAPE-DEFAULTS */
static void test_attributes_per_version(void) {
  int64_t out[16];
  size_t len = 0;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  d.node = "s";
  onnxshape_shape_attrs a = {1, 1, 0, 0};
  /* Versions 1 and 13 have no attributes at all. */
  CHECK_STATUS(onnxshape_shape_run(1, &t234, &a, out, 16, &len, &d),
               ONNXSHAPE_ERR_INVALID_ATTRIBUTE);
  CHECK_MESSAGE(d.message, "Shape-1 (node 's'): attribute 'start' is not defined before Shape-15");
  onnxshape_shape_attrs e = {0, 0, 1, 1};
  CHECK_STATUS(onnxshape_shape_infer(13, ONNXSHAPE_TYPE_FLOAT, 3, &e, &len, &d),
               ONNXSHAPE_ERR_INVALID_ATTRIBUTE);
  CHECK_MESSAGE(d.message, "Shape-13 (node 's'): attribute 'end' is not defined before Shape-15");
  /* Without attributes, v1 and v13 return every dim. */
  EXPECT_SLICE(1, &t234, 0, 0, 0, 0, 2, 3, 4);
  EXPECT_SLICE(13, &t234, 0, 0, 0, 0, 2, 3, 4);
  /* NULL attrs means none. */
  CHECK_STATUS(onnxshape_shape_run(19, &t234, NULL, out, 16, &len, NULL), ONNXSHAPE_OK);
  CHECK_DIMS(out, len, 2, 3, 4);
  static const int versions_with_attrs[] = {15, 19, 21, 23, 24, 25};
  for (size_t i = 0; i < 6; i++) EXPECT_SLICE(versions_with_attrs[i], &t234, 1, 1, 1, 2, 3);
  CHECK_STATUS(onnxshape_shape_run(14, &t234, NULL, out, 16, &len, NULL),
               ONNXSHAPE_ERR_UNKNOWN_VERSION);
  CHECK_STATUS(onnxshape_shape_infer(26, 1, 3, NULL, &len, NULL), ONNXSHAPE_ERR_UNKNOWN_VERSION);
}

/* covers: TYPE-SET SHAPE-OUTPUT */
/* Every element type through every version: allowed ones give the dims,
 * others are rejected with the type named. */
static void test_every_type_every_version(void) {
  static const int vers[] = {1, 13, 15, 19, 21, 23, 24, 25};
  static const int top[] = {15, 16, 16, 20, 22, 23, 24, 26};
  for (size_t i = 0; i < 8; i++) {
    for (int32_t t = 1; t <= 26; t++) {
      onnxshape_tensor x = {t, 3, dims234, NULL, 0};
      int64_t out[4] = {0};
      size_t len = 0;
      CHECK_STATUS(onnxshape_shape_run(vers[i], &x, NULL, out, 4, &len, NULL),
                   t <= top[i] ? ONNXSHAPE_OK : ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
      if (t <= top[i]) CHECK_DIMS(out, len, 2, 3, 4);
    }
  }
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_tensor x = {ONNXSHAPE_TYPE_INT4, 3, dims234, NULL, 0};
  int64_t out[4];
  size_t len;
  CHECK_STATUS(onnxshape_shape_run(19, &x, NULL, out, 4, &len, &d),
               ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
  CHECK_MESSAGE_PREFIX(d.message, "Shape-19: input type int4 is not allowed (allowed: float, ");
  x.type = 0;
  CHECK_STATUS(onnxshape_shape_run(25, &x, NULL, out, 4, &len, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  CHECK_MESSAGE(d.message, "Shape-25: element type 0 is not a known TensorProto data type (1 to 26)");
}

/* covers: KERNEL-CAPACITY KERNEL-UNTOUCHED-ON-ERROR DIMS-COUNT */
static void test_buffers_and_invalid_inputs(void) {
  int64_t out[3] = {-9, -9, -9};
  size_t len = 77;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_shape_run(15, &t234, NULL, out, 2, &len, &d),
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
  CHECK_MESSAGE(d.message, "Shape-15: the output needs 3 values; the buffer holds 2");
  CHECK_I64(out[0], -9); /* nothing written */
  CHECK_I64(len, 77);
  onnxshape_shape_attrs a = {1, 1, 1, 3};
  CHECK_STATUS(onnxshape_shape_run(15, &t234, &a, out, 2, &len, NULL), ONNXSHAPE_OK);
  CHECK_DIMS(out, len, 3, 4);
  /* An empty output needs no buffer. */
  onnxshape_shape_attrs empty = {1, 3, 0, 0};
  CHECK_STATUS(onnxshape_shape_run(15, &t234, &empty, NULL, 0, &len, NULL), ONNXSHAPE_OK);
  CHECK_I64(len, 0);
  CHECK_STATUS(onnxshape_shape_run(15, &t234, NULL, NULL, 3, &len, NULL),
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(onnxshape_shape_run(15, NULL, NULL, out, 3, &len, NULL),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_shape_run(15, &t234, NULL, out, 3, NULL, NULL),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_shape_infer(15, 1, 3, NULL, NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  /* A rank that no int64 axis can address is refused, not wrapped (only a
   * size_t wider than int64 can hold one); below that, any rank is fine. */
  if ((uint64_t)SIZE_MAX > (uint64_t)INT64_MAX) {
    CHECK_STATUS(onnxshape_shape_infer(15, 1, SIZE_MAX, NULL, &len, &d),
                 ONNXSHAPE_ERR_INVALID_ARGUMENT);
    char want[80];
    snprintf(want, sizeof want, "Shape-15: input rank %llu is out of range",
             (unsigned long long)SIZE_MAX);
    CHECK_MESSAGE(d.message, want);
  } else {
    CHECK_STATUS(onnxshape_shape_infer(15, 1, SIZE_MAX, NULL, &len, &d), ONNXSHAPE_OK);
    CHECK_I64(len, SIZE_MAX);
  }
  const onnxshape_tensor nodims = {1, 2, NULL, NULL, 0};
  CHECK_STATUS(onnxshape_shape_run(15, &nodims, NULL, out, 3, &len, NULL),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  static const int64_t neg[] = {2, -3};
  const onnxshape_tensor n = {1, 2, neg, NULL, 0};
  CHECK_STATUS(onnxshape_shape_run(15, &n, NULL, out, 3, &len, &d), ONNXSHAPE_ERR_NEGATIVE_DIM);
  CHECK_MESSAGE(d.message, "Shape-15: data dims[1] = -3; a dimension cannot be negative");
}

/* covers: KERNEL-CAPACITY KERNEL-UNTOUCHED-ON-ERROR DIAG-PINNED
 * The capacity message when out is NULL: whatever capacity is claimed, a
 * NULL buffer holds 0 values, and the message says 0. The argument
 * messages, each exact. */
static void test_capacity_and_argument_messages(void) {
  size_t len = 77;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  d.node = "s";
  CHECK_STATUS(onnxshape_shape_run(15, &t234, NULL, NULL, 5, &len, &d),
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
  CHECK_MESSAGE(d.message, "Shape-15 (node 's'): the output needs 3 values; the buffer holds 0");
  CHECK_I64(len, 77);
  static const int versions[] = {1, 13, 15, 19, 21, 23, 24, 25};
  for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
    char want[96];
    CHECK_STATUS(onnxshape_shape_run(versions[i], &t234, NULL, NULL, 0, &len, &d),
                 ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
    snprintf(want, sizeof want, "Shape-%d (node 's'): the output needs 3 values; the buffer holds 0",
             versions[i]);
    CHECK_MESSAGE(d.message, want);
  }
  CHECK_I64(len, 77);
  d.node = NULL;
  int64_t out[3] = {-9, -9, -9};
  CHECK_STATUS(onnxshape_shape_run(15, NULL, NULL, out, 3, &len, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Shape-15: data, its dims and the length pointer must not be NULL");
  CHECK_STATUS(onnxshape_shape_infer(19, 1, 3, NULL, NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Shape-19: no place to write the output length");
  CHECK_I64(out[0], -9);
}

RUN_TESTS(TEST_ENTRY(test_onnx_page_examples), TEST_ENTRY(test_onnx_backend_cases),
          TEST_ENTRY(test_sonnx_examples), TEST_ENTRY(test_clamping_rules),
          TEST_ENTRY(test_scalar_and_empty_inputs), TEST_ENTRY(test_attributes_per_version),
          TEST_ENTRY(test_every_type_every_version), TEST_ENTRY(test_buffers_and_invalid_inputs),
          TEST_ENTRY(test_capacity_and_argument_messages))
