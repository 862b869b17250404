/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape (docs/semantics.md, "Reshape"): the ONNX examples, every rule and
 * every error, Reshape-1's attribute form, and every element type through the
 * view and the copy. */
#include <stdlib.h>

#include "harness.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Infers with the given input dims, target and allowzero (-1: attribute not
 * set); out/out_len receive the result. */
static onnxshape_status infer(int version, const int64_t *in, size_t in_rank,
                              const int64_t *shape, size_t shape_len, int64_t allowzero,
                              int64_t *out, size_t *out_len, onnxshape_diag *d) {
  onnxshape_reshape_attrs a = {allowzero >= 0 || allowzero < -1, allowzero};
  onnxshape_status st = onnxshape_reshape_infer(version, ONNXSHAPE_TYPE_FLOAT, in, in_rank,
                                                shape, shape_len, &a, out, 16, d);
  *out_len = shape_len;
  return st;
}

#define EXPECT_RESHAPE(version, in, shape, allowzero, ...)                                  \
  do {                                                                                      \
    int64_t o_[16];                                                                         \
    size_t l_;                                                                              \
    CHECK_STATUS(infer(version, in, N(in), shape, N(shape), allowzero, o_, &l_, NULL),      \
                 ONNXSHAPE_OK);                                                             \
    CHECK_DIMS(o_, l_, __VA_ARGS__);                                                        \
  } while (0)

#define EXPECT_ERROR(version, in, shape, allowzero, status, msg)                       \
  do {                                                                                      \
    int64_t o_[16] = {-77};                                                                 \
    size_t l_;                                                                              \
    onnxshape_diag d_;                                                                      \
    onnxshape_diag_init(&d_);                                                               \
    d_.node = "r";                                                                          \
    CHECK_STATUS(infer(version, in, N(in), shape, N(shape), allowzero, o_, &l_, &d_),       \
                 status);                                                                   \
    CHECK_MESSAGE(d_.message, msg);                                                       \
    CHECK_I64(o_[0], -77); /* out_dims untouched on failure */                             \
  } while (0)

static const int64_t d234[] = {2, 3, 4};

/* covers: RESHAPE-ZERO-COPY RESHAPE-ZERO-LITERAL RESHAPE-INFER RESHAPE-LITERAL */
/* The ONNX Reshape page's examples (seeds/002): test_reshape_*. */
static void test_onnx_examples(void) {
  static const int64_t all[] = {4, 2, 3}, last[] = {2, 4, 3}, reduced[] = {2, 12},
                       extended[] = {2, 3, 2, 2}, one[] = {24}, neg[] = {2, -1, 2},
                       negext[] = {-1, 2, 3, 4}, zero[] = {2, 0, 4, 1},
                       zeroneg[] = {2, 0, 1, -1};
  static const int versions[] = {5, 13, 14, 19, 21, 23, 24, 25};
  for (size_t i = 0; i < N(versions); i++) {
    int v = versions[i];
    EXPECT_RESHAPE(v, d234, all, -1, 4, 2, 3);
    EXPECT_RESHAPE(v, d234, last, -1, 2, 4, 3);
    EXPECT_RESHAPE(v, d234, reduced, -1, 2, 12);
    EXPECT_RESHAPE(v, d234, extended, -1, 2, 3, 2, 2);
    EXPECT_RESHAPE(v, d234, one, -1, 24);
    EXPECT_RESHAPE(v, d234, neg, -1, 2, 6, 2);
    EXPECT_RESHAPE(v, d234, negext, -1, 1, 2, 3, 4);
    EXPECT_RESHAPE(v, d234, zero, -1, 2, 3, 4, 1);
    EXPECT_RESHAPE(v, d234, zeroneg, -1, 2, 3, 1, 4);
  }
  /* test_reshape_allowzero_reordered: [0,3,4] to [3,4,0] with allowzero=1. */
  static const int64_t d034[] = {0, 3, 4}, t340[] = {3, 4, 0};
  EXPECT_RESHAPE(14, d034, t340, 1, 3, 4, 0);
  EXPECT_RESHAPE(25, d034, t340, 1, 3, 4, 0);
}

/* covers: RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-ZERO-LITERAL RESHAPE-COUNT RESHAPE-SCALAR */
/* The rulebook's own examples. */
static void test_rulebook_examples(void) {
  static const int64_t d034[] = {0, 3, 4};
  static const int64_t m10[] = {-1, 0}, z_m1[] = {0, -1}, t340[] = {3, 4, 0}, m1[] = {-1};
  EXPECT_RESHAPE(14, d034, m10, 0, 0, 3);
  EXPECT_ERROR(14, d034, z_m1, 0, ONNXSHAPE_ERR_INFERRED_FROM_ZERO,
               "Reshape-14 (node 'r'): shape[1] = -1 cannot be inferred: the other dimensions "
               "multiply to 0");
  EXPECT_RESHAPE(14, d034, t340, 1, 3, 4, 0);
  EXPECT_ERROR(14, d034, t340, 0, ONNXSHAPE_ERR_COUNT_MISMATCH,
               "Reshape-14 (node 'r'): the target holds 48 elements, but the data has 0");
  EXPECT_ERROR(13, d034, t340, -1, ONNXSHAPE_ERR_COUNT_MISMATCH,
               "Reshape-13 (node 'r'): the target holds 48 elements, but the data has 0");
  /* Scalar to [-1] gives [1]. */
  int64_t o[4];
  onnxshape_status st = onnxshape_reshape_infer(14, 1, NULL, 0, m1, 1, NULL, o, 4, NULL);
  CHECK_STATUS(st, ONNXSHAPE_OK);
  CHECK_DIMS(o, 1, 1);
}

/* covers: RESHAPE-BELOW-MINUS-ONE ERROR-MESSAGE */
static void test_value_below_minus_one(void) {
  static const int64_t t[] = {2, -2, 12}, tmin[] = {INT64_MIN};
  EXPECT_ERROR(14, d234, t, -1, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE,
               "Reshape-14 (node 'r'): shape[1] = -2; a dimension cannot be below -1");
  EXPECT_ERROR(5, d234, tmin, -1, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE,
               "Reshape-5 (node 'r'): shape[0] = -9223372036854775808; a dimension cannot be "
               "below -1");
}

/* covers: RESHAPE-ONE-INFERRED ERROR-MESSAGE */
static void test_at_most_one_inferred(void) {
  static const int64_t t[] = {-1, 2, -1};
  EXPECT_ERROR(14, d234, t, -1, ONNXSHAPE_ERR_MULTIPLE_INFERRED,
               "Reshape-14 (node 'r'): shape[0] and shape[2] are both -1; at most one "
               "dimension can be inferred");
  static const int64_t t2[] = {-1, -1};
  EXPECT_ERROR(14, d234, t2, 1, ONNXSHAPE_ERR_MULTIPLE_INFERRED,
               "Reshape-14 (node 'r'): shape[0] and shape[1] are both -1; at most one "
               "dimension can be inferred");
}

/* covers: RESHAPE-ZERO-COPY RESHAPE-ZERO-COPY-RANGE */
static void test_zero_copies_input_dim(void) {
  static const int64_t t[] = {0, 0, 0}, t2[] = {0, 12}, t3[] = {0, 0, 2, 2};
  EXPECT_RESHAPE(14, d234, t, 0, 2, 3, 4);
  EXPECT_RESHAPE(14, d234, t2, -1, 2, 12);
  EXPECT_RESHAPE(5, d234, t3, -1, 2, 3, 2, 2);
  /* A 0 past the input's rank has nothing to copy. */
  static const int64_t past[] = {24, 1, 1, 0};
  EXPECT_ERROR(14, d234, past, 0, ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE,
               "Reshape-14 (node 'r'): shape[3] = 0 copies input dimension 3, but the input "
               "has rank 3");
  /* With allowzero=1 the same 0 is literal; 24*1*1*0 = 0 != 24. */
  EXPECT_ERROR(14, d234, past, 1, ONNXSHAPE_ERR_COUNT_MISMATCH,
               "Reshape-14 (node 'r'): the target holds 0 elements, but the data has 24");
  /* From a scalar, any 0 copies nothing. */
  int64_t o[2];
  static const int64_t z[] = {0};
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, NULL, 0, z, 1, NULL, o, 2, NULL),
               ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE);
}

/* covers: RESHAPE-ZERO-LITERAL RESHAPE-ALLOWZERO-INFERRED */
static void test_allowzero_literal_zero(void) {
  static const int64_t d0[] = {0, 5}, t[] = {5, 0, 7};
  EXPECT_RESHAPE(14, d0, t, 1, 5, 0, 7);
  /* allowzero=1 with both 0 and -1 is invalid, even where it could resolve. */
  static const int64_t t2[] = {0, -1};
  EXPECT_ERROR(14, d0, t2, 1, ONNXSHAPE_ERR_ZERO_WITH_INFERRED,
               "Reshape-14 (node 'r'): with allowzero=1, shape[0] = 0 and shape[1] = -1 "
               "cannot be combined");
  static const int64_t t3[] = {-1, 3, 0};
  EXPECT_ERROR(21, d234, t3, 1, ONNXSHAPE_ERR_ZERO_WITH_INFERRED,
               "Reshape-21 (node 'r'): with allowzero=1, shape[2] = 0 and shape[0] = -1 "
               "cannot be combined");
  /* allowzero=0 explicitly equals the default. */
  static const int64_t t4[] = {0, -1};
  EXPECT_RESHAPE(14, d234, t4, 0, 2, 12);
}

/* covers: RESHAPE-ALLOWZERO-VERSION RESHAPE-ALLOWZERO-VALUES */
static void test_allowzero_attribute_rules(void) {
  static const int64_t t[] = {24};
  EXPECT_ERROR(14, d234, t, 2, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
               "Reshape-14 (node 'r'): allowzero = 2; it must be 0 or 1");
  EXPECT_ERROR(25, d234, t, -5, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
               "Reshape-25 (node 'r'): allowzero = -5; it must be 0 or 1");
  EXPECT_ERROR(13, d234, t, 0, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
               "Reshape-13 (node 'r'): attribute 'allowzero' is not defined before Reshape-14");
  EXPECT_ERROR(5, d234, t, 1, ONNXSHAPE_ERR_INVALID_ATTRIBUTE,
               "Reshape-5 (node 'r'): attribute 'allowzero' is not defined before Reshape-14");
  static const int versions[] = {14, 19, 21, 23, 24, 25};
  for (size_t i = 0; i < N(versions); i++) EXPECT_RESHAPE(versions[i], d234, t, 1, 24);
}

/* covers: RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE */
static void test_inferred_dimension_rules(void) {
  static const int64_t nd[] = {5, -1};
  EXPECT_ERROR(14, d234, nd, -1, ONNXSHAPE_ERR_NOT_DIVISIBLE,
               "Reshape-14 (node 'r'): shape[1] = -1 cannot be inferred: 24 elements do not "
               "divide by 5");
  static const int64_t d0[] = {0, 3};
  static const int64_t p0[] = {3, 0, -1};
  /* allowzero=0: the 0 copies dims[1] = 3, so P = 9 and -1 = 0. */
  EXPECT_RESHAPE(14, d0, p0, 0, 3, 3, 0);
  static const int64_t pz[] = {-1, 0};
  static const int64_t dz[] = {4, 0};
  EXPECT_ERROR(14, dz, pz, 0, ONNXSHAPE_ERR_INFERRED_FROM_ZERO,
               "Reshape-14 (node 'r'): shape[0] = -1 cannot be inferred: the other dimensions "
               "multiply to 0");
}

/* covers: RESHAPE-COUNT RESHAPE-SCALAR */
static void test_count_mismatch_and_scalar(void) {
  static const int64_t t[] = {5, 5};
  EXPECT_ERROR(14, d234, t, -1, ONNXSHAPE_ERR_COUNT_MISMATCH,
               "Reshape-14 (node 'r'): the target holds 25 elements, but the data has 24");
  /* An empty shape means a scalar. */
  int64_t o[1] = {-77};
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, d234, 3, NULL, 0, NULL, o, 0, &d),
               ONNXSHAPE_ERR_COUNT_MISMATCH);
  CHECK_MESSAGE(d.message, "Reshape-14: an empty shape means a scalar (1 element), but the data has "
                       "24 elements");
  static const int64_t ones[] = {1, 1, 1};
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, ones, 3, NULL, 0, NULL, NULL, 0, NULL),
               ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, NULL, 0, NULL, 0, NULL, NULL, 0, NULL),
               ONNXSHAPE_OK);
  static const int64_t zero1[] = {0};
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, zero1, 1, NULL, 0, NULL, NULL, 0, NULL),
               ONNXSHAPE_ERR_COUNT_MISMATCH);
}

/* covers: RESHAPE-OVERFLOW ERROR-ORDER */
static void test_overflow(void) {
  static const int64_t d24[] = {24};
  /* 2305843009213693955 * 8 = 24 modulo 2^64: must be rejected, not accepted. */
  static const int64_t wrap[] = {INT64_C(2305843009213693955), 8};
  EXPECT_ERROR(14, d24, wrap, -1, ONNXSHAPE_ERR_OVERFLOW,
               "Reshape-14 (node 'r'): the product of the target dimensions overflows int64 "
               "at shape[1] = 8");
  static const int64_t wrap_inf[] = {INT64_C(2305843009213693955), 8, -1};
  EXPECT_ERROR(14, d24, wrap_inf, -1, ONNXSHAPE_ERR_OVERFLOW,
               "Reshape-14 (node 'r'): the product of the target dimensions overflows int64 "
               "at shape[1] = 8");
  /* A 0-dim copied from the input makes the product 0 before any multiply. */
  static const int64_t dz[] = {INT64_C(1) << 32, INT64_C(1) << 32, 0};
  static const int64_t copy_all[] = {0, 0, 0};
  EXPECT_RESHAPE(14, dz, copy_all, 0, INT64_C(1) << 32, INT64_C(1) << 32, 0);
  static const int64_t infer_first[] = {-1, INT64_C(1) << 32};
  EXPECT_RESHAPE(14, dz, infer_first, 0, 0, INT64_C(1) << 32);
  static const int64_t literal[] = {0, INT64_C(1) << 40, INT64_C(1) << 40};
  EXPECT_RESHAPE(14, dz, literal, 1, 0, INT64_C(1) << 40, INT64_C(1) << 40);
  static const int64_t flat[] = {0, -1};
  EXPECT_RESHAPE(14, dz, flat, 0, INT64_C(1) << 32, 0);
  /* The known dims 2^32 * 2^32 overflow, but with no elements the -1 can only
   * be 0: the output is the input's own (valid) dims. */
  static const int64_t copy_infer[] = {0, 0, -1};
  EXPECT_RESHAPE(14, dz, copy_infer, 0, INT64_C(1) << 32, INT64_C(1) << 32, 0);
  /* With elements, the same overflow is an error. */
  static const int64_t d6[] = {6};
  static const int64_t over_infer[] = {INT64_C(1) << 32, -1, INT64_C(1) << 32};
  EXPECT_ERROR(14, d6, over_infer, 0, ONNXSHAPE_ERR_OVERFLOW,
               "Reshape-14 (node 'r'): the product of the target dimensions overflows int64 "
               "at shape[2] = 4294967296");
  /* Without a -1, an overflowing target never matches, zero-size or not. */
  static const int64_t no_infer[] = {INT64_C(1) << 32, INT64_C(1) << 32, 1};
  EXPECT_ERROR(14, dz, no_infer, 1, ONNXSHAPE_ERR_OVERFLOW,
               "Reshape-14 (node 'r'): the product of the target dimensions overflows int64 "
               "at shape[1] = 4294967296");
  /* Input dims that overflow are an error too. */
  static const int64_t big[] = {INT64_C(1) << 32, INT64_C(1) << 32};
  static const int64_t tgt[] = {-1};
  EXPECT_ERROR(14, big, tgt, -1, ONNXSHAPE_ERR_OVERFLOW,
               "Reshape-14 (node 'r'): data element count overflows int64 at dims[1] = "
               "4294967296");
  static const int64_t neg[] = {2, -12};
  EXPECT_ERROR(14, neg, tgt, -1, ONNXSHAPE_ERR_NEGATIVE_DIM,
               "Reshape-14 (node 'r'): data dims[1] = -12; a dimension cannot be negative");
}

/* covers: RESHAPE-V1-ATTRIBUTE TYPE-SET-RESHAPE1 OPSET-VERSIONS */
/* Reshape-1 takes the target from its `shape` attribute and accepts only
 * float16, float and double. */
static void test_reshape_1(void) {
  static const int64_t t[] = {4, 0, -1};
  int64_t o[3];
  static const int32_t allowed[] = {ONNXSHAPE_TYPE_FLOAT16, ONNXSHAPE_TYPE_FLOAT,
                                    ONNXSHAPE_TYPE_DOUBLE};
  for (size_t i = 0; i < 3; i++) {
    CHECK_STATUS(onnxshape_reshape_infer(1, allowed[i], d234, 3, t, 3, NULL, o, 3, NULL),
                 ONNXSHAPE_OK);
    CHECK_DIMS(o, 3, 4, 3, 2);
  }
  for (int32_t type = 1; type <= 26; type++) {
    if (type == 1 || type == 10 || type == 11) continue;
    CHECK_STATUS(onnxshape_reshape_infer(1, type, d234, 3, t, 3, NULL, o, 3, NULL),
                 ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
  }
  onnxshape_reshape_attrs az = {1, 0};
  CHECK_STATUS(onnxshape_reshape_infer(1, 1, d234, 3, t, 3, &az, o, 3, NULL),
               ONNXSHAPE_ERR_INVALID_ATTRIBUTE);
  CHECK_STATUS(onnxshape_reshape_check_shape_input(1, ONNXSHAPE_TYPE_INT64, 1, NULL),
               ONNXSHAPE_ERR_UNKNOWN_VERSION);
}

/* covers: RESHAPE-SHAPE-INPUT RESHAPE-INPUTS */
static void test_shape_input_checks(void) {
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  d.node = "r";
  CHECK_STATUS(onnxshape_reshape_check_shape_input(14, ONNXSHAPE_TYPE_INT64, 1, &d), ONNXSHAPE_OK);
  CHECK_STATUS(onnxshape_reshape_check_shape_input(14, ONNXSHAPE_TYPE_INT32, 1, &d),
               ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
  CHECK_MESSAGE(d.message, "Reshape-14 (node 'r'): the 'shape' input is int32; it must be int64");
  CHECK_STATUS(onnxshape_reshape_check_shape_input(5, ONNXSHAPE_TYPE_INT64, 2, &d),
               ONNXSHAPE_ERR_INVALID_RANK);
  CHECK_MESSAGE(d.message, "Reshape-5 (node 'r'): the 'shape' input has rank 2; it must be 1-D");
  CHECK_STATUS(onnxshape_reshape_check_shape_input(5, ONNXSHAPE_TYPE_INT64, 0, &d),
               ONNXSHAPE_ERR_INVALID_RANK);
  CHECK_STATUS(onnxshape_reshape_check_shape_input(6, ONNXSHAPE_TYPE_INT64, 1, &d),
               ONNXSHAPE_ERR_UNKNOWN_VERSION);
}

/* Fills n bytes with a pattern that differs at every offset. Not inlined:
 * GCC 12 at -O3 otherwise warns (stringop-overflow) past the guarded bound. */
__attribute__((noinline)) static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(seed * 31u + i * 7u + 1u);
}

/* covers: RESHAPE-VIEW RESHAPE-COPY RESHAPE-DATA-UNCHANGED STORAGE-STRINGS STORAGE-BYTES */
/* Every element type through the view and the copy at Reshape-25, with an odd
 * element count so packed sub-byte types end in a partial byte. */
static void test_every_type_view_and_copy(void) {
  static const int64_t in[] = {3, 5}, target[] = {5, -1, 1};
  for (int32_t type = 1; type <= 26; type++) {
    size_t bytes = 0;
    CHECK_STATUS(onnxshape_type_storage_bytes(type, 15, &bytes), ONNXSHAPE_OK);
    unsigned char src[16 * 15 + 8], dst[16 * 15 + 8];
    onnxshape_string strs[15];
    const void *data = src;
    if (type == ONNXSHAPE_TYPE_STRING) {
      static const char text[] = "abcdefghijklmno";
      for (size_t i = 0; i < 15; i++) {
        strs[i].data = text + i;
        strs[i].length = 15 - i;
      }
      data = strs;
    } else {
      fill(src, bytes, (unsigned)type);
    }
    const onnxshape_tensor t = {type, 2, in, data, bytes};
    int64_t dims[3] = {0};
    onnxshape_tensor out;
    memset(&out, 0, sizeof out);
    CHECK_STATUS(onnxshape_reshape_run_view(25, &t, target, 3, NULL, dims, 3, &out, NULL),
                 ONNXSHAPE_OK);
    CHECK(out.data == data);
    CHECK(out.dims == dims);
    CHECK_I64(out.rank, 3);
    CHECK_I64(out.type, type);
    CHECK_I64(out.data_bytes, bytes);
    CHECK_DIMS(dims, 3, 5, 3, 1);

    memset(dst, 0xEE, sizeof dst);
    memset(&out, 0, sizeof out);
    int64_t dims2[3] = {0};
    CHECK_STATUS(onnxshape_reshape_run_copy(25, &t, target, 3, NULL, dims2, 3, dst, bytes, &out,
                                            NULL),
                 ONNXSHAPE_OK);
    CHECK(out.data == dst);
    CHECK_DIMS(dims2, 3, 5, 3, 1);
    CHECK(memcmp(dst, data, bytes) == 0);
    CHECK(dst[bytes] == 0xEE); /* nothing past the output */
    if (type == ONNXSHAPE_TYPE_STRING) {
      const onnxshape_string *s = (const onnxshape_string *)(const void *)dst;
      CHECK(s[14].data == strs[14].data && s[14].length == 1);
    }
  }
}

/* covers: STORAGE-PACKED STORAGE-BYTES RESHAPE-DATA-UNCHANGED */
/* Sub-byte storage with counts 1..9: the packed bytes, padding and all,
 * travel unchanged, and the byte count is ceil(n * bits / 8). */
static void test_sub_byte_odd_counts(void) {
  static const int32_t types[] = {ONNXSHAPE_TYPE_UINT4, ONNXSHAPE_TYPE_INT4,
                                  ONNXSHAPE_TYPE_FLOAT4E2M1, ONNXSHAPE_TYPE_UINT2,
                                  ONNXSHAPE_TYPE_INT2};
  static const unsigned bits[] = {4, 4, 4, 2, 2};
  for (size_t k = 0; k < N(types); k++) {
    for (int64_t n = 1; n <= 9; n++) {
      size_t bytes = 0;
      CHECK_STATUS(onnxshape_type_storage_bytes(types[k], n, &bytes), ONNXSHAPE_OK);
      CHECK_I64(bytes, ((uint64_t)n * bits[k] + 7) / 8);
      unsigned char src[8], dst[8];
      fill(src, bytes, (unsigned)n);
      memset(dst, 0, sizeof dst);
      const int64_t in[] = {n};
      const int64_t target[] = {1, n, 1};
      const onnxshape_tensor t = {types[k], 1, in, src, bytes};
      int64_t dims[3];
      onnxshape_tensor out;
      CHECK_STATUS(onnxshape_reshape_run_copy(25, &t, target, 3, NULL, dims, 3, dst, bytes, &out,
                                              NULL),
                   ONNXSHAPE_OK);
      CHECK(memcmp(src, dst, bytes) == 0);
      CHECK_I64(out.data_bytes, bytes);
      /* One byte short of the packed size is a data-size error. */
      const onnxshape_tensor short_t = {types[k], 1, in, src, bytes - 1};
      CHECK_STATUS(onnxshape_reshape_run_view(25, &short_t, target, 3, NULL, dims, 3, &out, NULL),
                   ONNXSHAPE_ERR_DATA_SIZE);
    }
  }
}

/* covers: KERNEL-CAPACITY STORAGE-BYTES STORAGE-EMPTY-RAW */
static void test_buffers(void) {
  float src[24];
  float dst[24];
  memset(src, 0, sizeof src);
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 3, d234, src, sizeof src};
  static const int64_t target[] = {6, 4};
  int64_t dims[2] = {-5, -5};
  onnxshape_tensor out;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_reshape_run_view(14, &t, target, 2, NULL, dims, 1, &out, &d),
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
  CHECK_MESSAGE(d.message, "Reshape-14: the output has 2 dims; out_dims holds 1");
  CHECK_I64(dims[0], -5);
  memset(dst, 0x5A, sizeof dst);
  CHECK_STATUS(onnxshape_reshape_run_copy(14, &t, target, 2, NULL, dims, 2, dst,
                                          sizeof dst - 1, &out, &d),
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
  CHECK_MESSAGE(d.message, "Reshape-14: the output needs 96 bytes; the destination holds 95");
  CHECK(((unsigned char *)dst)[0] == 0x5A); /* nothing copied */
  CHECK_STATUS(onnxshape_reshape_run_copy(14, &t, target, 2, NULL, dims, 2, NULL, 96, &out, &d),
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
  const onnxshape_tensor short_t = {ONNXSHAPE_TYPE_FLOAT, 3, d234, src, 95};
  CHECK_STATUS(onnxshape_reshape_run_view(14, &short_t, target, 2, NULL, dims, 2, &out, &d),
               ONNXSHAPE_ERR_DATA_SIZE);
  CHECK_MESSAGE(d.message, "Reshape-14: 24 elements of float need 96 bytes; the data holds 95");
  const onnxshape_tensor null_t = {ONNXSHAPE_TYPE_FLOAT, 3, d234, NULL, 96};
  CHECK_STATUS(onnxshape_reshape_run_view(14, &null_t, target, 2, NULL, dims, 2, &out, &d),
               ONNXSHAPE_ERR_DATA_SIZE);
  CHECK_STATUS(onnxshape_reshape_run_view(14, NULL, target, 2, NULL, dims, 2, &out, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_reshape_run_view(14, &t, target, 2, NULL, dims, 2, NULL, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_reshape_run_copy(14, &t, target, 2, NULL, dims, 2, dst, 96, NULL, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, d234, 3, NULL, 2, NULL, dims, 2, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, d234, 3, target, 2, NULL, NULL, 2, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  /* A zero-size tensor needs no data at all, view or copy. */
  static const int64_t dz[] = {0, 7}, tz[] = {7, 0, 3};
  const onnxshape_tensor z = {ONNXSHAPE_TYPE_DOUBLE, 2, dz, NULL, 0};
  int64_t zd[3];
  CHECK_STATUS(onnxshape_reshape_run_copy(14, &z, tz, 3, NULL, zd, 3, NULL, 0, &out, &d),
               ONNXSHAPE_ERR_COUNT_MISMATCH);
  onnxshape_reshape_attrs az = {1, 1};
  CHECK_STATUS(onnxshape_reshape_run_copy(14, &z, tz, 3, &az, zd, 3, NULL, 0, &out, &d),
               ONNXSHAPE_OK);
  CHECK_DIMS(zd, 3, 7, 0, 3);
  CHECK_I64(out.data_bytes, 0);
}

/* covers: STORAGE-BYTES RESHAPE-OVERFLOW */
/* 2^62 int64 elements is a valid count but 2^65 bytes: an error, not a wrap. */
static void test_storage_overflow(void) {
  static const int64_t in[] = {INT64_C(1) << 62}, target[] = {-1, 2};
  int64_t dims[2];
  onnxshape_tensor out;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  unsigned char byte = 0;
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_INT64, 1, in, &byte, 1};
  CHECK_STATUS(onnxshape_reshape_run_view(25, &t, target, 2, NULL, dims, 2, &out, &d),
               ONNXSHAPE_ERR_OVERFLOW);
  CHECK_MESSAGE(d.message, "Reshape-25: 4611686018427387904 elements of int64 do not fit in memory");
  /* The dims alone are fine. */
  CHECK_STATUS(onnxshape_reshape_infer(25, ONNXSHAPE_TYPE_INT64, in, 1, target, 2, NULL, dims, 2,
                                       NULL),
               ONNXSHAPE_OK);
  CHECK_DIMS(dims, 2, INT64_C(1) << 61, 2);
}

/* covers: RESHAPE-COPY RESHAPE-DATA-UNCHANGED */
/* Copying in place (dst == data) is allowed and leaves the bytes as they are. */
static void test_copy_in_place(void) {
  int32_t buf[6] = {1, 2, 3, 4, 5, 6};
  static const int64_t in[] = {2, 3}, target[] = {3, 2};
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_INT32, 2, in, buf, sizeof buf};
  int64_t dims[2];
  onnxshape_tensor out;
  CHECK_STATUS(onnxshape_reshape_run_copy(13, &t, target, 2, NULL, dims, 2, buf, sizeof buf,
                                          &out, NULL),
               ONNXSHAPE_OK);
  CHECK(buf[0] == 1 && buf[5] == 6);
  CHECK_DIMS(dims, 2, 3, 2);
}

/* covers: KERNEL-UNTOUCHED-ON-ERROR KERNEL-CAPACITY STORAGE-BYTES
 * Every error of the run kernels, from each stage of the checks, leaves
 * out_dims, the output descriptor and the destination exactly as they were. */
static void test_outputs_untouched_on_error(void) {
  static const int64_t target[] = {6, 4}, two[] = {-1, -1}, big[] = {INT64_C(1) << 62};
  float src[24] = {0};
  const onnxshape_tensor ok = {ONNXSHAPE_TYPE_FLOAT, 3, d234, src, sizeof src};
  const onnxshape_tensor short_t = {ONNXSHAPE_TYPE_FLOAT, 3, d234, src, 95};
  const onnxshape_tensor huge = {ONNXSHAPE_TYPE_INT64, 1, big, src, sizeof src};
  const onnxshape_tensor bad_type = {ONNXSHAPE_TYPE_BFLOAT16, 3, d234, src, sizeof src};
  struct {
    const onnxshape_tensor *t;
    const int64_t *shape;
    size_t len, cap, dst_bytes;
    onnxshape_status want;
  } cases[] = {
      {&bad_type, target, 2, 2, 96, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED}, /* version 5 */
      {&ok, two, 2, 2, 96, ONNXSHAPE_ERR_MULTIPLE_INFERRED},
      {&ok, target, 2, 1, 96, ONNXSHAPE_ERR_BUFFER_TOO_SMALL},       /* out_dims */
      {&ok, target, 2, 2, 95, ONNXSHAPE_ERR_BUFFER_TOO_SMALL},       /* dst */
      {&short_t, target, 2, 2, 96, ONNXSHAPE_ERR_DATA_SIZE},
      {&huge, two, 1, 1, 96, ONNXSHAPE_ERR_OVERFLOW},             /* 2^65 bytes */
  };
  for (size_t i = 0; i < N(cases); i++) {
    for (int copy = 0; copy <= 1; copy++) {
      int64_t dims[2] = {-5, -6};
      unsigned char dst[96];
      memset(dst, 0xA5, sizeof dst);
      onnxshape_tensor out, before;
      memset(&out, 0x3C, sizeof out);
      before = out;
      int version = i == 0 ? 5 : 14;
      onnxshape_status st =
          copy ? onnxshape_reshape_run_copy(version, cases[i].t, cases[i].shape, cases[i].len,
                                            NULL, dims,
                                            cases[i].cap, dst, cases[i].dst_bytes, &out, NULL)
               : onnxshape_reshape_run_view(version, cases[i].t, cases[i].shape, cases[i].len,
                                            NULL, dims,
                                            cases[i].cap, &out, NULL);
      if (!copy && cases[i].dst_bytes == 95) {
        CHECK_STATUS(st, ONNXSHAPE_OK); /* the view needs no destination */
        continue;
      }
      CHECK_STATUS(st, cases[i].want);
      CHECK_I64(dims[0], -5);
      CHECK_I64(dims[1], -6);
      CHECK(memcmp(&out, &before, sizeof out) == 0);
      for (size_t k = 0; k < sizeof dst; k++) CHECK(dst[k] == 0xA5);
    }
  }
}

/* covers: TYPE-SET */
static void test_type_sets(void) {
  static const int vers[] = {5, 13, 14, 19, 21, 23, 24, 25};
  static const int top[] = {15, 16, 16, 20, 22, 23, 24, 26};
  static const int64_t t[] = {-1};
  for (size_t i = 0; i < N(vers); i++) {
    for (int32_t type = 1; type <= 26; type++) {
      int64_t o[1];
      CHECK_STATUS(onnxshape_reshape_infer(vers[i], type, d234, 3, t, 1, NULL, o, 1, NULL),
                   type <= top[i] ? ONNXSHAPE_OK : ONNXSHAPE_ERR_TYPE_NOT_ALLOWED);
    }
  }
}

/* covers: RESHAPE-SCALAR RESHAPE-COUNT DIAG-PINNED
 * The count mismatch of a scalar (rank-0, empty) target, through every
 * entry point and version that takes a shape input, for data of 24
 * elements and of none; and the argument messages, each exact. */
static void test_scalar_target_messages(void) {
  static const int versions[] = {5, 13, 14, 19, 21, 23, 24, 25};
  static const int64_t d204[] = {2, 0, 4};
  float src[24] = {0}, dst[24];
  const onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 3, d234, src, sizeof src};
  const onnxshape_tensor empty = {ONNXSHAPE_TYPE_FLOAT, 3, d204, src, 0};
  int64_t dims[1] = {-5};
  onnxshape_tensor out;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  d.node = "to_scalar";
  for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
    char want[128];
    int v = versions[i];
    snprintf(want, sizeof want,
             "Reshape-%d (node 'to_scalar'): an empty shape means a scalar (1 element), but the "
             "data has 24 elements", v);
    CHECK_STATUS(onnxshape_reshape_run_view(v, &t, NULL, 0, NULL, dims, 1, &out, &d),
                 ONNXSHAPE_ERR_COUNT_MISMATCH);
    CHECK_MESSAGE(d.message, want);
    CHECK_STATUS(onnxshape_reshape_run_copy(v, &t, NULL, 0, NULL, dims, 1, dst, sizeof dst, &out,
                                            &d),
                 ONNXSHAPE_ERR_COUNT_MISMATCH);
    CHECK_MESSAGE(d.message, want);
    snprintf(want, sizeof want,
             "Reshape-%d (node 'to_scalar'): an empty shape means a scalar (1 element), but the "
             "data has 0 elements", v);
    CHECK_STATUS(onnxshape_reshape_run_view(v, &empty, NULL, 0, NULL, dims, 1, &out, &d),
                 ONNXSHAPE_ERR_COUNT_MISMATCH);
    CHECK_MESSAGE(d.message, want);
    CHECK_STATUS(onnxshape_reshape_infer(v, 1, d204, 3, NULL, 0, NULL, dims, 1, &d),
                 ONNXSHAPE_ERR_COUNT_MISMATCH);
    CHECK_MESSAGE(d.message, want);
  }
  CHECK_I64(dims[0], -5);
  d.node = NULL;
  CHECK_STATUS(onnxshape_reshape_run_view(14, NULL, NULL, 0, NULL, dims, 1, &out, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Reshape-14: data and out must not be NULL");
  static const int64_t target[] = {24};
  CHECK_STATUS(onnxshape_reshape_infer(14, 1, d234, 3, target, 1, NULL, NULL, 1, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "Reshape-14: shape and out_dims must not be NULL");
  CHECK_STATUS(onnxshape_reshape_check_shape_input(1, ONNXSHAPE_TYPE_INT64, 1, &d),
               ONNXSHAPE_ERR_UNKNOWN_VERSION);
  CHECK_MESSAGE(d.message, "Reshape-1 has no 'shape' input");
}

RUN_TESTS(TEST_ENTRY(test_onnx_examples), TEST_ENTRY(test_rulebook_examples),
          TEST_ENTRY(test_value_below_minus_one), TEST_ENTRY(test_at_most_one_inferred),
          TEST_ENTRY(test_zero_copies_input_dim), TEST_ENTRY(test_allowzero_literal_zero),
          TEST_ENTRY(test_allowzero_attribute_rules), TEST_ENTRY(test_inferred_dimension_rules),
          TEST_ENTRY(test_count_mismatch_and_scalar), TEST_ENTRY(test_overflow),
          TEST_ENTRY(test_reshape_1), TEST_ENTRY(test_shape_input_checks),
          TEST_ENTRY(test_every_type_view_and_copy), TEST_ENTRY(test_sub_byte_odd_counts),
          TEST_ENTRY(test_buffers), TEST_ENTRY(test_storage_overflow), TEST_ENTRY(test_copy_in_place),
          TEST_ENTRY(test_outputs_untouched_on_error), TEST_ENTRY(test_type_sets),
          TEST_ENTRY(test_scalar_target_messages))
