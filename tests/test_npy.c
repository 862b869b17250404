/* SPDX-License-Identifier: Apache-2.0 */
/* NumPy .npy files (src/onnx/npy.c, docs/npy.md): every dtype read, byte
 * orders, Fortran order, the three format versions, scalars and zero-size
 * arrays; every rejection with its status and exact message; the writer's
 * exact bytes (as NumPy 1.24's np.save writes them) and its refusals; the
 * file reader's detection of .npy and its in-place data; a TensorProto file
 * without a data_type. Files are built from header texts written out here
 * and hand-written data bytes. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

/* ---- building .npy bytes ---- */

typedef struct npy_buf {
  unsigned char b[1 << 17];
  size_t n;
} npy_buf;

/* A .npy file of format major.0 whose header is `dict` padded with spaces
 * and a newline to a multiple of 64 bytes, as NumPy pads it, then the n data
 * bytes. */
static void npy_make(npy_buf *o, unsigned major, const char *dict, const void *data, size_t n) {
  size_t prefix = major == 1 ? 10 : 12, text = strlen(dict), line = text + 1;
  size_t pad = 64 - (prefix + line) % 64, hlen = line + pad;
  memcpy(o->b, "\x93NUMPY", 6);
  o->b[6] = (unsigned char)major;
  o->b[7] = 0;
  for (size_t i = 0; i < prefix - 8; i++) o->b[8 + i] = (unsigned char)(hlen >> (8 * i));
  memcpy(o->b + prefix, dict, text);
  memset(o->b + prefix + text, ' ', pad);
  o->b[prefix + hlen - 1] = '\n';
  if (n > 0) memcpy(o->b + prefix + hlen, data, n);
  o->n = prefix + hlen + n;
}

/* The dict numpy writes for descr and a shape text. */
static void npy_simple(npy_buf *o, const char *descr, const char *shape, const void *data,
                       size_t n) {
  char dict[256];
  snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr,
           shape);
  npy_make(o, 1, dict, data, n);
}

/* Parses o; the tensor, or NULL with the status and message checked. */
static onnxshape_owned_tensor *parse_ok(const npy_buf *o) {
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_tensor_parse_npy(o->b, o->n, &t, &d), ONNXSHAPE_OK);
  if (d.message[0] != '\0') fprintf(stderr, "  message: %s\n", d.message);
  return t;
}

/* Checks that the file is rejected with the status and exactly the text. */
#define CHECK_REJECT(file_, status_, text_)                                                \
  do {                                                                                     \
    onnxshape_owned_tensor *t_ = NULL;                                                     \
    onnxshape_diag d_;                                                                     \
    onnxshape_diag_init(&d_);                                                              \
    CHECK_STATUS(onnxshape_tensor_parse_npy((file_)->b, (file_)->n, &t_, &d_), (status_)); \
    CHECK_MESSAGE(d_.message, (text_));                                                    \
    CHECK(t_ == NULL);                                                                     \
    onnxshape_owned_tensor_free(t_);                                                       \
  } while (0)

/* Checks the tensor's type, dims and exact data bytes. */
static void check_tensor(const onnxshape_owned_tensor *o, int32_t type, size_t rank,
                         const int64_t *dims, const void *bytes, size_t n) {
  CHECK(o != NULL);
  if (o == NULL) return;
  const onnxshape_tensor *t = onnxshape_owned_tensor_get(o);
  CHECK_I64(t->type, type);
  CHECK_I64(t->rank, rank);
  CHECK(rank == 0 || memcmp(t->dims, dims, rank * sizeof *dims) == 0);
  CHECK_I64(t->data_bytes, n);
  CHECK(n == 0 || (t->data != NULL && memcmp(t->data, bytes, n) == 0));
  CHECK_STR(onnxshape_owned_tensor_name(o), "");
}

/* Checks a string tensor of n elements against expected (NUL-terminated
 * C strings, lengths given). */
static void check_strings(const onnxshape_owned_tensor *o, size_t n, const char *const *want,
                          const size_t *lengths) {
  CHECK(o != NULL);
  if (o == NULL) return;
  const onnxshape_tensor *t = onnxshape_owned_tensor_get(o);
  CHECK_I64(t->type, ONNXSHAPE_TYPE_STRING);
  CHECK_I64(t->data_bytes, n * sizeof(onnxshape_string));
  const onnxshape_string *s = t->data;
  for (size_t i = 0; i < n; i++) {
    CHECK_I64(s[i].length, lengths[i]);
    if (s[i].length == lengths[i] && lengths[i] > 0) {
      CHECK(memcmp(s[i].data, want[i], lengths[i]) == 0);
    }
  }
}

/* ---- reading ---- */

/* covers: NPY-FILES NPY-DTYPES
 * Every numeric dtype, little-endian, as a 1-D array of two elements: the
 * ONNX type and the bytes, unchanged. One-byte types with any byte order
 * mark. */
static void test_npy_numeric_dtypes(void) {
  static const struct {
    const char *descr;
    int32_t type;
    size_t item;
  } cases[] = {
      {"|b1", ONNXSHAPE_TYPE_BOOL, 1},      {"|i1", ONNXSHAPE_TYPE_INT8, 1},
      {"|u1", ONNXSHAPE_TYPE_UINT8, 1},     {"<i2", ONNXSHAPE_TYPE_INT16, 2},
      {"<u2", ONNXSHAPE_TYPE_UINT16, 2},    {"<i4", ONNXSHAPE_TYPE_INT32, 4},
      {"<u4", ONNXSHAPE_TYPE_UINT32, 4},    {"<i8", ONNXSHAPE_TYPE_INT64, 8},
      {"<u8", ONNXSHAPE_TYPE_UINT64, 8},    {"<f2", ONNXSHAPE_TYPE_FLOAT16, 2},
      {"<f4", ONNXSHAPE_TYPE_FLOAT, 4},     {"<f8", ONNXSHAPE_TYPE_DOUBLE, 8},
      {"<c8", ONNXSHAPE_TYPE_COMPLEX64, 8}, {"<c16", ONNXSHAPE_TYPE_COMPLEX128, 16},
      {"<b1", ONNXSHAPE_TYPE_BOOL, 1},      {">i1", ONNXSHAPE_TYPE_INT8, 1},
      {"=u1", ONNXSHAPE_TYPE_UINT8, 1},     {"u1", ONNXSHAPE_TYPE_UINT8, 1},
  };
  static const int64_t dims[] = {2};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    unsigned char data[32];
    for (size_t i = 0; i < 2 * cases[c].item; i++) {
      /* Bools are 0 and 1; other types get bytes that tell places apart. */
      data[i] =
          cases[c].type == ONNXSHAPE_TYPE_BOOL ? (unsigned char)(i & 1) : (unsigned char)(0x10 + i);
    }
    npy_buf o;
    npy_simple(&o, cases[c].descr, "(2,)", data, 2 * cases[c].item);
    onnxshape_owned_tensor *t = parse_ok(&o);
    check_tensor(t, cases[c].type, 1, dims, data, 2 * cases[c].item);
    if (h_case_failed) fprintf(stderr, "  descr %s\n", cases[c].descr);
    onnxshape_owned_tensor_free(t);
  }
}

/* covers: NPY-DTYPES STORAGE-LE-HOST
 * Big-endian data becomes ONNX's little-endian storage: each value of an
 * element reversed (both halves of a complex separately). */
static void test_npy_big_endian(void) {
  static const int64_t two[] = {2}, one[] = {1};
  npy_buf o;
  static const unsigned char i2[] = {0x01, 0x02, 0xff, 0xfe}, i2_le[] = {0x02, 0x01, 0xfe, 0xff};
  npy_simple(&o, ">i2", "(2,)", i2, sizeof i2);
  onnxshape_owned_tensor *t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_INT16, 1, two, i2_le, sizeof i2_le);
  onnxshape_owned_tensor_free(t);
  static const unsigned char u4[] = {0x12, 0x34, 0x56, 0x78, 0, 0, 0, 1};
  static const unsigned char u4_le[] = {0x78, 0x56, 0x34, 0x12, 1, 0, 0, 0};
  npy_simple(&o, ">u4", "(2,)", u4, sizeof u4);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_UINT32, 1, two, u4_le, sizeof u4_le);
  onnxshape_owned_tensor_free(t);
  /* 1.0 as a big-endian double: 3f f0 00 ... */
  static const unsigned char f8[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0x01};
  static const unsigned char f8_le[] = {0x01, 0, 0, 0, 0, 0, 0xf0, 0x3f};
  npy_simple(&o, ">f8", "(1,)", f8, sizeof f8);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_DOUBLE, 1, one, f8_le, sizeof f8_le);
  onnxshape_owned_tensor_free(t);
  /* complex64 1+2j: real and imaginary each reversed, in place. */
  static const unsigned char c8[] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
  static const unsigned char c8_le[] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
  npy_simple(&o, ">c8", "(1,)", c8, sizeof c8);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_COMPLEX64, 1, one, c8_le, sizeof c8_le);
  onnxshape_owned_tensor_free(t);
  static const unsigned char c16[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  static const unsigned char c16_le[] = {8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9};
  npy_simple(&o, ">c16", "(1,)", c16, sizeof c16);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_COMPLEX128, 1, one, c16_le, sizeof c16_le);
  onnxshape_owned_tensor_free(t);
  static const unsigned char f2[] = {0x3c, 0x00}, f2_le[] = {0x00, 0x3c};
  npy_simple(&o, ">f2", "(1,)", f2, sizeof f2);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_FLOAT16, 1, one, f2_le, sizeof f2_le);
  onnxshape_owned_tensor_free(t);
}

/* covers: NPY-DTYPES
 * Fortran order becomes row-major, as np.ascontiguousarray gives it: a 2x3
 * and a 2x3x4 array whose element (i, j[, k]) is its row-major index, stored
 * first dim fastest; big-endian at the same time; strings too; and shapes
 * where both orders are one. */
static void test_npy_fortran_order(void) {
  npy_buf o;
  /* 2x3 int32: file order (0,0) (1,0) (0,1) (1,1) (0,2) (1,2). */
  int32_t f23[6], c23[6];
  static const int64_t d23[] = {2, 3}, d234[] = {2, 3, 4};
  size_t k = 0;
  for (int j = 0; j < 3; j++) {
    for (int i = 0; i < 2; i++) f23[k++] = i * 3 + j;
  }
  for (int i = 0; i < 6; i++) c23[i] = i; /* the host is little-endian or not: */
  unsigned char f23_le[24], c23_le[24];
  for (int i = 0; i < 6; i++) {
    onnxshape_store_le(f23_le + 4 * i, (uint32_t)f23[i], 4);
    onnxshape_store_le(c23_le + 4 * i, (uint32_t)c23[i], 4);
  }
  npy_make(&o, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", f23_le, 24);
  onnxshape_owned_tensor *t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_INT32, 2, d23, c23_le, 24);
  onnxshape_owned_tensor_free(t);
  /* 2x3x4 int16, big-endian: file order i fastest, then j, then k. */
  unsigned char f234[48], c234[48];
  k = 0;
  for (int kk = 0; kk < 4; kk++) {
    for (int j = 0; j < 3; j++) {
      for (int i = 0; i < 2; i++) {
        unsigned v = (unsigned)(i * 12 + j * 4 + kk);
        f234[2 * k] = (unsigned char)(v >> 8);
        f234[2 * k + 1] = (unsigned char)(v | 0x80u);
        k++;
      }
    }
  }
  for (unsigned v = 0; v < 24; v++) {
    c234[2 * v] = (unsigned char)(v | 0x80u);
    c234[2 * v + 1] = (unsigned char)(v >> 8);
  }
  npy_make(&o, 1, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3, 4), }", f234, 48);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_INT16, 3, d234, c234, 48);
  onnxshape_owned_tensor_free(t);
  /* Strings in Fortran order: [[a, bb, c], [dd, e, ff]]. */
  npy_make(&o, 1, "{'descr': '|S2', 'fortran_order': True, 'shape': (2, 3), }", "a\0ddbbe\0c\0ff",
           12);
  t = parse_ok(&o);
  static const char *const want[] = {"a", "bb", "c", "dd", "e", "ff"};
  static const size_t lengths[] = {1, 2, 1, 2, 1, 2};
  check_strings(t, 6, want, lengths);
  onnxshape_owned_tensor_free(t);
  /* (1, 3, 1) and (3,) in Fortran order are already row-major. */
  static const int64_t d131[] = {1, 3, 1};
  static const unsigned char u8[] = {7, 8, 9};
  npy_make(&o, 1, "{'descr': '|u1', 'fortran_order': True, 'shape': (1, 3, 1), }", u8, 3);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_UINT8, 3, d131, u8, 3);
  onnxshape_owned_tensor_free(t);
  /* Zero-size Fortran array. */
  static const int64_t d20[] = {2, 0};
  npy_make(&o, 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 0), }", NULL, 0);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_DOUBLE, 2, d20, NULL, 0);
  onnxshape_owned_tensor_free(t);
}

/* Set by tests: when not NULL, every read of reordered data adds the
 * counter steps its Fortran-order walk took (src/onnx/npy.c). */
extern uint64_t *onnxshape__npy_walk_steps;

/* A header dict for descr and fortran_order whose shape is, in order,
 * ones[0] dims of 1, big[0], ones[1] dims of 1, big[1], ..., ones[nb] dims
 * of 1; malloc'd. */
static char *ones_dict(const char *descr, int fortran, const size_t *ones, const int *big,
                       size_t nb) {
  size_t total = 0;
  for (size_t i = 0; i <= nb; i++) total += ones[i];
  size_t cap = 128 + 3 * total + 24 * nb;
  char *d = malloc(cap);
  if (d == NULL) return NULL;
  size_t n = (size_t)snprintf(d, cap, "{'descr': '%s', 'fortran_order': %s, 'shape': (", descr,
                              fortran ? "True" : "False");
  for (size_t i = 0; i <= nb; i++) {
    for (size_t k = 0; k < ones[i]; k++) n += (size_t)snprintf(d + n, cap - n, "1, ");
    if (i < nb) n += (size_t)snprintf(d + n, cap - n, "%d, ", big[i]);
  }
  snprintf(d + n, cap - n, "), }");
  return d;
}

/* The counter steps of the last parse_ones (onnxshape__npy_walk_steps). */
static uint64_t walk_steps;

/* The .npy file of ones_dict(descr, fortran, ones, big, nb) and the n data
 * bytes into o, parsed (parse_ok) with its walk's steps counted into
 * walk_steps; NULL when it was not parsed. */
static onnxshape_owned_tensor *parse_ones(npy_buf *o, const char *descr, int fortran,
                                          const size_t *ones, const int *big, size_t nb,
                                          const void *data, size_t n) {
  walk_steps = 0;
  char *dict = ones_dict(descr, fortran, ones, big, nb);
  CHECK(dict != NULL);
  if (dict == NULL) return NULL;
  npy_make(o, 1, dict, data, n);
  free(dict);
  onnxshape__npy_walk_steps = &walk_steps;
  onnxshape_owned_tensor *t = parse_ok(o);
  onnxshape__npy_walk_steps = NULL;
  return t;
}

/* Checks that t is a uint8 tensor of the rank with the n bytes `want`,
 * and frees it. */
static void check_u1_and_free(onnxshape_owned_tensor *t, size_t rank, const void *want, size_t n) {
  CHECK(t != NULL);
  if (t != NULL) {
    const onnxshape_tensor *v = onnxshape_owned_tensor_get(t);
    CHECK_I64(v->type, ONNXSHAPE_TYPE_UINT8);
    CHECK_I64(v->rank, rank);
    CHECK_I64(v->data_bytes, n);
    CHECK(v->data_bytes == n && memcmp(v->data, want, n) == 0);
  }
  onnxshape_owned_tensor_free(t);
}

/* covers: NPY-DTYPES
 * Fortran order in time linear in the elements, whatever the rank: a shape
 * of 3, 4 and 5 among 6,500 dims of 1 walks only the three dims above 1
 * (an element steps its first dim, every third its second, every twelfth
 * its third: 60 + 20 + 5 = 85 counter steps; when the walk counted every
 * dim, each element stepped through the 3,000 dims of 1 ahead of the first
 * and more: 225,585 steps, 10 s for 90,000 elements among 20,000). The
 * values are exact, big-endian '>u2' and four-byte '<U1' characters at
 * the same time; a C-order file and a Fortran one with a single dim above
 * 1 take no step. */
static void test_npy_fortran_many_ones(void) {
  static npy_buf o;
  static const size_t ones[] = {3000, 2000, 1000, 500};
  static const int big[] = {3, 4, 5};
  enum { N = 60 };
  int64_t dims[6504];
  size_t rank = 0;
  for (size_t i = 0; i < 4; i++) {
    for (size_t k = 0; k < ones[i]; k++) dims[rank++] = 1;
    if (i < 3) dims[rank++] = big[i];
  }
  CHECK_I64(rank, 6503);
  /* File element e = i + 3j + 12k holds the value of C-order index
   * 20i + 5j + k: 0x1234 + that index, big-endian. */
  unsigned char u2[2 * N], u2_le[2 * N], u32[4 * N];
  for (unsigned k = 0; k < 5; k++) {
    for (unsigned j = 0; j < 4; j++) {
      for (unsigned i = 0; i < 3; i++) {
        unsigned e = i + 3 * j + 12 * k, c = 20 * i + 5 * j + k, v = 0x1234 + c;
        u2[2 * e] = (unsigned char)(v >> 8);
        u2[2 * e + 1] = (unsigned char)v;
        u2_le[2 * c] = (unsigned char)v;
        u2_le[2 * c + 1] = (unsigned char)(v >> 8);
        onnxshape_store_le(u32 + 4 * e, 0x100 + c, 4); /* U+0100 + c */
      }
    }
  }
  onnxshape_owned_tensor *t = parse_ones(&o, ">u2", 1, ones, big, 3, u2, sizeof u2);
  check_tensor(t, ONNXSHAPE_TYPE_UINT16, rank, dims, u2_le, sizeof u2_le);
  onnxshape_owned_tensor_free(t);
  CHECK_I64(walk_steps, 85);
  /* The same walk through the string reader: two bytes of UTF-8 each. */
  t = parse_ones(&o, "<U1", 1, ones, big, 3, u32, sizeof u32);
  char text[N][3];
  const char *want[N];
  size_t lengths[N];
  for (unsigned c = 0; c < N; c++) {
    unsigned cp = 0x100 + c;
    text[c][0] = (char)(0xc0 | (cp >> 6));
    text[c][1] = (char)(0x80 | (cp & 0x3f));
    text[c][2] = '\0';
    want[c] = text[c];
    lengths[c] = 2;
  }
  check_strings(t, N, want, lengths);
  if (t != NULL) CHECK_I64(onnxshape_owned_tensor_get(t)->rank, rank);
  onnxshape_owned_tensor_free(t);
  CHECK_I64(walk_steps, 85);
  /* 2x3 among dims of 1: 6 + 3 steps. */
  static const size_t ones2[] = {100, 0, 100}, ones1[] = {3000, 3000};
  static const int big2[] = {2, 3}, big1[] = {6};
  static const unsigned char f23[] = {0, 3, 1, 4, 2, 5}, c23[] = {0, 1, 2, 3, 4, 5};
  check_u1_and_free(parse_ones(&o, "|u1", 1, ones2, big2, 2, f23, 6), 202, c23, 6);
  CHECK_I64(walk_steps, 9);
  /* A single dim above 1 is the same in both orders: no walk. */
  check_u1_and_free(parse_ones(&o, "|u1", 1, ones1, big1, 1, c23, 6), 6001, c23, 6);
  CHECK_I64(walk_steps, 0);
  /* C order: the file's order is the tensor's. */
  check_u1_and_free(parse_ones(&o, "|u1", 0, ones2, big2, 2, c23, 6), 202, c23, 6);
  CHECK_I64(walk_steps, 0);
}

/* covers: NPY-FILES
 * Versions 2.0 and 3.0 (a 4-byte header length), scalars, zero-size arrays,
 * and the header spellings NumPy and Python allow: any key order, double
 * quotes, no trailing comma, newlines and tabs between tokens, 'L' after a
 * dim in versions 1.0 and 2.0, a header not padded to 64 bytes. */
static void test_npy_versions_and_spellings(void) {
  npy_buf o;
  static const unsigned char f4[] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
  static const int64_t two[] = {2}, d203[] = {2, 0, 3}, zero[] = {0}, d12[] = {1, 2};
  onnxshape_owned_tensor *t;
  for (unsigned major = 2; major <= 3; major++) {
    npy_make(&o, major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f4, 8);
    CHECK_I64(o.b[6], major);
    t = parse_ok(&o);
    check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 1, two, f4, 8);
    onnxshape_owned_tensor_free(t);
  }
  /* A scalar: shape (), one element. */
  npy_simple(&o, "<f4", "()", f4, 4);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 0, NULL, f4, 4);
  onnxshape_owned_tensor_free(t);
  /* Zero-size: no data bytes, data NULL. */
  npy_simple(&o, "<i8", "(2, 0, 3)", NULL, 0);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_INT64, 3, d203, NULL, 0);
  if (t != NULL) CHECK(onnxshape_owned_tensor_get(t)->data == NULL);
  onnxshape_owned_tensor_free(t);
  npy_simple(&o, "|S3", "(0,)", NULL, 0);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_STRING, 1, zero, NULL, 0);
  onnxshape_owned_tensor_free(t);
  /* Other spellings. */
  static const char *const dicts[] = {
      "{'shape': (1, 2), 'fortran_order': False, 'descr': '<f4'}",
      "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (1,2,)}",
      "{'descr':'<f4','fortran_order':False,'shape':(1 , 2)}",
      "{\n\t'descr' : '<f4' ,\n 'fortran_order' : False ,\n 'shape' : ( 1 , 2 ) ,\n}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 2L), }",
  };
  for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++) {
    npy_make(&o, 1, dicts[i], f4, 8);
    t = parse_ok(&o);
    check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 2, d12, f4, 8);
    onnxshape_owned_tensor_free(t);
  }
  /* A header padded to 16 bytes (NumPy before 1.14), not 64. */
  static const char old[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  size_t text = strlen(old), hlen = text + 1;
  while ((10 + hlen) % 16 != 0) hlen++;
  memcpy(o.b, "\x93NUMPY\x01\x00", 8);
  o.b[8] = (unsigned char)hlen;
  o.b[9] = 0;
  memcpy(o.b + 10, old, text);
  memset(o.b + 10 + text, ' ', hlen - text - 1);
  o.b[10 + hlen - 1] = '\n';
  memcpy(o.b + 10 + hlen, f4, 8);
  o.n = 10 + hlen + 8;
  CHECK((10 + hlen) % 64 != 0);
  t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 1, two, f4, 8);
  onnxshape_owned_tensor_free(t);
  /* Through onnxshape_tensor_parse too (by the magic). */
  npy_simple(&o, "<f4", "(2,)", f4, 8);
  t = NULL;
  CHECK_STATUS(onnxshape_tensor_parse(o.b, o.n, NULL, &t, NULL), ONNXSHAPE_OK);
  check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 1, two, f4, 8);
  onnxshape_owned_tensor_free(t);
}

/* covers: NPY-DTYPES STORAGE-STRINGS
 * 'S' elements lose their trailing NULs (as NumPy drops them) and keep
 * inner ones; 'U' (four-byte code points, either byte order) is stored
 * as UTF8; an element of only NULs is the empty string. */
static void test_npy_strings(void) {
  npy_buf o;
  npy_simple(&o, "|S4", "(3,)", "ab\0\0a\0b\0\0\0\0\0", 12);
  onnxshape_owned_tensor *t = parse_ok(&o);
  static const char *const s_want[] = {"ab", "a\0b", ""};
  static const size_t s_len[] = {2, 3, 0};
  check_strings(t, 3, s_want, s_len);
  onnxshape_owned_tensor_free(t);
  /* 'U3': "h\u00e9", "\U0001F600", "" little-endian; then big-endian. */
  static const unsigned char u_le[] = {'h',  0,    0,    0, 0xe9, 0, 0, 0, 0, 0, 0, 0,
                                       0x00, 0xf6, 0x01, 0, 0,    0, 0, 0, 0, 0, 0, 0,
                                       0,    0,    0,    0, 0,    0, 0, 0, 0, 0, 0, 0};
  unsigned char u_be[sizeof u_le];
  for (size_t i = 0; i < sizeof u_le; i += 4) {
    for (size_t j = 0; j < 4; j++) u_be[i + j] = u_le[i + 3 - j];
  }
  static const char *const u_want[] = {"h\xc3\xa9", "\xf0\x9f\x98\x80", ""};
  static const size_t u_len[] = {3, 4, 0};
  npy_simple(&o, "<U3", "(3,)", u_le, sizeof u_le);
  t = parse_ok(&o);
  check_strings(t, 3, u_want, u_len);
  onnxshape_owned_tensor_free(t);
  npy_simple(&o, ">U3", "(3,)", u_be, sizeof u_be);
  t = parse_ok(&o);
  check_strings(t, 3, u_want, u_len);
  onnxshape_owned_tensor_free(t);
  /* An inner NUL character stays; U+07FF and U+FFFF take 2 and 3 bytes. */
  static const unsigned char u2[] = {'a', 0, 0, 0, 0, 0, 0, 0, 0xff, 0x07, 0, 0, 0xff, 0xff, 0, 0};
  npy_simple(&o, "<U4", "()", u2, sizeof u2);
  t = parse_ok(&o);
  static const char *const u2_want[] = {"a\0\xdf\xbf\xef\xbf\xbf"};
  static const size_t u2_len[] = {7};
  check_strings(t, 1, u2_want, u2_len);
  onnxshape_owned_tensor_free(t);
}

/* covers: NPY-FILES ERROR-MESSAGE
 * Malformed files: each status and message. */
static void test_npy_rejects_malformed(void) {
  npy_buf o;
  static const unsigned char f4[8] = {0};
  memcpy(o.b, "\x93NUMPX\x01\x00", 8);
  o.n = 8;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: not a .npy file (it does not start with \\x93NUMPY)");
  o.n = 7;
  memcpy(o.b, "\x93NUMPY\x01", 7);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED, ".npy data: the file ends in its version (7 bytes)");
  memcpy(o.b, "\x93NUMPY\x02\x00\x10\x00", 10);
  o.n = 10;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: the file ends in its header length (10 bytes; version 2.0 needs 12 "
               "before the header)");
  npy_simple(&o, "<f4", "(2,)", f4, 8);
  o.b[6] = 4;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: format version 4.0 is not one onnxshape reads (1.0, 2.0 and 3.0)");
  o.b[6] = 1;
  o.b[7] = 1;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: format version 1.1 is not one onnxshape reads (1.0, 2.0 and 3.0)");
  /* The header is cut: its length runs past the end. */
  npy_simple(&o, "<f4", "(2,)", NULL, 0);
  o.n = 100;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: the header length 118 runs past the end of the file (100 bytes)");
  npy_simple(&o, "<f4", "(2,)", NULL, 0);
  o.b[8] = 0xff;
  o.b[9] = 0xff;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: the header length 65535 runs past the end of the file (128 bytes)");
  static const struct {
    const char *dict;
    const char *message;
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': False}", ".npy data: header: the key 'shape' is missing"},
      {"{'descr': '<f4', 'shape': (2,)}", ".npy data: header: the key 'fortran_order' is missing"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'descr': '<f4'}",
       ".npy data: header: key 'descr' is given twice"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'order': 'C'}",
       ".npy data: header: unknown key 'order' (a header has descr, fortran_order and shape)"},
      {"['descr', '<f4']",
       ".npy data: header: expected '{' (the header is a Python dict) at byte "
       "10, found '['"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}",
       ".npy data: header: the shape at byte 62 is a number in parentheses, not a tuple; one "
       "dimension is written (n,)"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}",
       ".npy data: header: the value of 'shape' at byte 60 is not a tuple such as (2, 3)"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}",
       ".npy data: header: expected True or False for 'fortran_order' at byte 44, found '0'"},
      {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}",
       ".npy data: header: expected True or False for 'fortran_order' at byte 44, found 'F'"},
      {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}",
       ".npy data: header: expected ',' or '}' after a value at byte 26, found byte 0x27"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x",
       ".npy data: header: expected only spaces after the header's dict at byte 66, found 'x'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (02,)}",
       ".npy data: header: shape[0] at byte 61 has a leading zero, which Python does not allow"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}",
       ".npy data: header: expected ',' or ')' in the shape at byte 63, found '3'"},
      {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,)}",
       ".npy data: header: byte 23 in a string is a control character, a backslash or not ASCII"},
      {"{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}",
       ".npy data: header: expected ':' after a key at byte 19, found byte 0x27"},
      {"{'descr': <f4, 'fortran_order': False, 'shape': (2,)}",
       ".npy data: header: expected a quoted string at byte 20, found '<'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,",
       ".npy data: header: expected a dimension at byte 128, found the end"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].message == NULL) continue;
    npy_make(&o, 1, cases[i].dict, f4, 8);
    CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED, cases[i].message);
  }
  /* 'L' is Python 2's: not in version 3.0. */
  npy_make(&o, 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }", f4, 8);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: header: expected ',' or ')' in the shape at byte 64, found 'L'");
  /* No newline at the end of the header. */
  npy_simple(&o, "<f4", "(2,)", f4, 8);
  o.b[127] = ' ';
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED, ".npy data: the header does not end with a newline");
  /* A NUL in the padding. */
  npy_simple(&o, "<f4", "(2,)", f4, 8);
  o.b[100] = 0;
  CHECK_REJECT(&o, ONNXSHAPE_ERR_MALFORMED,
               ".npy data: header: expected only spaces after the header's dict at byte 100, "
               "found byte 0x00");
  /* NULL arguments. */
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_parse_npy(NULL, 3, &t, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_parse_npy(o.b, o.n, NULL, NULL), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_parse_npy(NULL, 0, &t, NULL), ONNXSHAPE_ERR_MALFORMED);
}

/* covers: NPY-REJECT-DTYPES ERROR-MESSAGE
 * dtypes without an ONNX type, and byte orders a file cannot have: each
 * message names the descr and says what to do. */
static void test_npy_rejects_dtypes(void) {
  static const unsigned char data[64] = {0};
  static const struct {
    const char *descr;
    onnxshape_status status;
    const char *message;
  } cases[] = {
      {"|O", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '|O' is an object array (pickled Python objects), which is never "
       "unpickled; save a TensorProto .pb instead"},
      {"<M8[ns]", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<M8[ns]' is a datetime64 or timedelta64 array, which has no ONNX "
       "type; convert it to int64 or save a TensorProto .pb instead"},
      {"<m8[s]", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<m8[s]' is a datetime64 or timedelta64 array, which has no ONNX "
       "type; convert it to int64 or save a TensorProto .pb instead"},
      {"|V8", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '|V8' is a void (raw bytes) type, which has no ONNX type; save a "
       "TensorProto .pb instead"},
      {"<f16", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<f16' is a long double (extended precision), which has no ONNX type; "
       "convert it to float64 or save a TensorProto .pb instead"},
      {"<c32", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<c32' is a long double (extended precision), which has no ONNX type; "
       "convert it to float64 or save a TensorProto .pb instead"},
      {"<g", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<g' is a long double (extended precision), which has no ONNX type; "
       "convert it to float64 or save a TensorProto .pb instead"},
      {"<f3", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<f3' is not a type onnxshape reads (b1, i1 to i8, u1 to u8, f2, f4, "
       "f8, c8, c16, S, U); save a TensorProto .pb instead"},
      {"<i16", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<i16' is not a type onnxshape reads (b1, i1 to i8, u1 to u8, f2, f4, "
       "f8, c8, c16, S, U); save a TensorProto .pb instead"},
      {"<d", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '<d' is not a type onnxshape reads (b1, i1 to i8, u1 to u8, f2, f4, "
       "f8, c8, c16, S, U); save a TensorProto .pb instead"},
      {"", ONNXSHAPE_ERR_UNKNOWN_TYPE,
       ".npy data: descr '' is not a type onnxshape reads (b1, i1 to i8, u1 to u8, f2, f4, "
       "f8, c8, c16, S, U); save a TensorProto .pb instead"},
      {"=f4", ONNXSHAPE_ERR_MALFORMED,
       ".npy data: descr '=f4' gives no byte order (native to the machine that wrote it); NumPy "
       "writes '<' or '>' into files; save it again with one, or save a TensorProto .pb instead"},
      {"i4", ONNXSHAPE_ERR_MALFORMED,
       ".npy data: descr 'i4' gives no byte order (native to the machine that wrote it); NumPy "
       "writes '<' or '>' into files; save it again with one, or save a TensorProto .pb instead"},
      {"|f4", ONNXSHAPE_ERR_MALFORMED,
       ".npy data: descr '|f4': '|' (no byte order) is only for one-byte types; NumPy writes "
       "'<' or '>' for this one"},
      {"|U1", ONNXSHAPE_ERR_MALFORMED,
       ".npy data: descr '|U1': '|' (no byte order) is only for one-byte types; NumPy writes "
       "'<' or '>' for this one"},
      {"|S0", ONNXSHAPE_ERR_MALFORMED,
       ".npy data: descr '|S0' has elements of no characters, which NumPy never writes"},
  };
  npy_buf o;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    npy_simple(&o, cases[i].descr, "(2,)", data, 8);
    CHECK_REJECT(&o, cases[i].status, cases[i].message);
  }
  /* A structured dtype: descr is a list. */
  npy_make(&o, 1,
           "{'descr': [('a', '<i4'), ('b', '<f4')], 'fortran_order': False, 'shape': (1,), }", data,
           8);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_UNKNOWN_TYPE,
               ".npy data: descr is a list: a structured dtype (named fields), which has no ONNX "
               "type; save each field as its own array, or save a TensorProto .pb instead");
  /* A long descr is shortened in the message. */
  char dict[400];
  snprintf(dict, sizeof dict, "{'descr': '<%0200d', 'fortran_order': False, 'shape': (2,)}", 7);
  npy_make(&o, 1, dict, data, 8);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_UNKNOWN_TYPE,
               ".npy data: descr '<00000000000000000000000000000...000000000000000000000000000007' "
               "is not a type onnxshape reads (b1, i1 to i8, u1 to u8, f2, f4, f8, c8, c16, S, U); "
               "save a TensorProto .pb instead");
}

/* covers: NPY-FILES DIMS-COUNT
 * Dims and data that do not fit: negative and huge dims, element counts
 * past int64, data shorter or longer than the shape needs (both byte
 * counts in the message), bools that are not 0 or 1, 'U' values that
 * are no code point UTF8 can hold. */
static void test_npy_rejects_shape_and_data(void) {
  npy_buf o;
  static const unsigned char data[32] = {0};
  npy_simple(&o, "<f4", "(2, -3)", data, 24);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR, ".npy data: shape[1] = -3 is negative");
  npy_simple(&o, "<f4", "(9223372036854775808,)", data, 0);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_OVERFLOW,
               ".npy data: shape[0] is larger than int64 allows (9223372036854775807)");
  npy_simple(&o, "<f4", "(99999999999999999999999999999999,)", data, 0);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_OVERFLOW,
               ".npy data: shape[0] is larger than int64 allows (9223372036854775807)");
  npy_simple(&o, "<f4", "(4294967296, 4294967296)", data, 0);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_OVERFLOW,
               ".npy data: the element count of the shape overflows int64");
  /* A zero dim makes any other dims' product 0 (no overflow). */
  static const int64_t big0[] = {4294967296, 0, 4294967296};
  npy_simple(&o, "<f4", "(4294967296, 0, 4294967296)", data, 0);
  onnxshape_owned_tensor *t = parse_ok(&o);
  check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 3, big0, NULL, 0);
  onnxshape_owned_tensor_free(t);
  /* n * item past 2^64. */
  npy_simple(&o, "<c16", "(4611686018427387904,)", data, 0);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_OVERFLOW,
               ".npy data: 4611686018427387904 elements of '<c16' need more than 2^64 bytes; the "
               "file has 0 after its 128-byte header");
  /* 'U' elements of more than SIZE_MAX bytes (2^62 characters on 64-bit
   * hosts, 2^30 on 32-bit ones). */
  char descr[32], want[160];
  snprintf(descr, sizeof descr, "<U%llu", (unsigned long long)(SIZE_MAX / 4 + 1));
  npy_simple(&o, descr, "(8,)", data, 0);
  snprintf(want, sizeof want, ".npy data: descr '%s': its elements do not fit in memory", descr);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_OVERFLOW, want);
  npy_simple(&o, "<f4", "(2, 3)", data, 20);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: 6 elements of '<f4' need 24 bytes of data after the 128-byte header; "
               "the file has 20");
  npy_simple(&o, "<f4", "(2, 3)", data, 25);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: 6 elements of '<f4' need 24 bytes of data after the 128-byte header; "
               "the file has 25");
  npy_simple(&o, "<f4", "()", data, 0);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: 1 elements of '<f4' need 4 bytes of data after the 128-byte header; "
               "the file has 0");
  npy_simple(&o, "|S3", "(0,)", data, 1);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: 0 elements of '|S3' need 0 bytes of data after the 128-byte header; "
               "the file has 1");
  static const unsigned char bools[] = {0, 1, 2, 1};
  npy_simple(&o, "|b1", "(4,)", bools, 4);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: bool element 2 (in file order) is 2; a bool must be 0 or 1");
  static const unsigned char surrogate[] = {'a', 0, 0, 0, 0x00, 0xd8, 0, 0};
  npy_simple(&o, "<U1", "(2,)", surrogate, 8);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: string element 1 (in file order), character 0, is 0xd800: a "
               "surrogate, which UTF-8 cannot hold");
  static const unsigned char past[] = {'a', 0, 0, 0, 0x00, 0x00, 0x11, 0};
  npy_simple(&o, "<U2", "()", past, 8);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: string element 0 (in file order), character 1, is 0x110000: not a "
               "Unicode code point");
  static const unsigned char past_be[] = {0xff, 0xff, 0xff, 0xff};
  npy_simple(&o, ">U1", "()", past_be, 4);
  CHECK_REJECT(&o, ONNXSHAPE_ERR_INVALID_TENSOR,
               ".npy data: string element 0 (in file order), character 0, is 0xffffffff: not a "
               "Unicode code point");
}

/* ---- files ---- */

static int put_file(const char *path, const void *b, size_t n) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 0;
  int ok = fwrite(b, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

static unsigned char *get_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  static unsigned char buf[1 << 20];
  *n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return buf;
}

/* covers: NPY-FILES NPY-IN-PLACE FILE-CHANGED TENSOR-FILE-KIND
 * onnxshape_tensor_read_file takes .npy by its magic: a small file is read
 * and copied, a large little-endian one is mapped and its data used in
 * place (so the mapped file's check sees a change), a large big-endian one
 * converted; a rejection names the file. */
static void test_npy_read_file(void) {
  char dir[] = "/tmp/onnxshape-npy-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/x.npy", dir);
  static npy_buf o;
  static const unsigned char f4[] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
  static const int64_t two[] = {2};
  npy_simple(&o, "<f4", "(2,)", f4, 8);
  CHECK(put_file(path, o.b, o.n));
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_OK);
  check_tensor(t, ONNXSHAPE_TYPE_FLOAT, 1, two, f4, 8);
  CHECK_STATUS(onnxshape_owned_tensor_check_file(t, &d), ONNXSHAPE_OK);
  onnxshape_owned_tensor_free(t);
  /* 100,000 bytes of uint16: past 64 KiB, mapped and used in place. */
  static unsigned char big[100000], big_le[100000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (unsigned char)(i % 251);
  for (size_t i = 0; i < sizeof big; i += 2) {
    big_le[i] = big[i + 1];
    big_le[i + 1] = big[i];
  }
  static const int64_t n50k[] = {50000};
  npy_simple(&o, "<u2", "(50000,)", big, sizeof big);
  CHECK(put_file(path, o.b, o.n));
  t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_OK);
  check_tensor(t, ONNXSHAPE_TYPE_UINT16, 1, n50k, big, sizeof big);
  CHECK_STATUS(onnxshape_owned_tensor_check_file(t, &d), ONNXSHAPE_OK);
  /* Cut the file short: the tensor's data was the mapping. */
  CHECK(truncate(path, 1000) == 0);
  CHECK_STATUS(onnxshape_owned_tensor_check_file(t, &d), ONNXSHAPE_ERR_IO);
  char want[512];
  snprintf(want, sizeof want, "'%s' changed size while in use (100128 bytes, now 1000)", path);
  CHECK_MESSAGE(d.message, want);
  onnxshape_owned_tensor_free(t);
  /* Big-endian: mapped, converted into memory, the mapping let go. */
  npy_simple(&o, ">u2", "(50000,)", big, sizeof big);
  CHECK(put_file(path, o.b, o.n));
  t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_OK);
  check_tensor(t, ONNXSHAPE_TYPE_UINT16, 1, n50k, big_le, sizeof big_le);
  CHECK(truncate(path, 1000) == 0);
  CHECK_STATUS(onnxshape_owned_tensor_check_file(t, &d), ONNXSHAPE_OK);
  onnxshape_owned_tensor_free(t);
  /* Rejections name the file, small or large. */
  npy_simple(&o, "|O", "(2,)", f4, 8);
  CHECK(put_file(path, o.b, o.n));
  t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  snprintf(want, sizeof want,
           "'%s': descr '|O' is an object array (pickled Python objects), which is never "
           "unpickled; save a TensorProto .pb instead",
           path);
  CHECK_MESSAGE(d.message, want);
  npy_simple(&o, "<u2", "(50001,)", big, sizeof big);
  CHECK(put_file(path, o.b, o.n));
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_ERR_INVALID_TENSOR);
  snprintf(want, sizeof want,
           "'%s': 50001 elements of '<u2' need 100002 bytes of data after the 128-byte header; "
           "the file has 100000",
           path);
  CHECK_MESSAGE(d.message, want);
  unlink(path);
  rmdir(dir);
}

/* The bytes of a small ModelProto: ir_version 8, a graph with one
 * initializer `w` (dims [1], no data_type) and opset 13. */
static size_t model_bytes(unsigned char *b) {
  static const unsigned char m[] = {
      0x08, 0x08,                              /* ir_version 8 */
      0x3a, 0x07,                              /* graph (7 bytes) */
      0x2a, 0x05, 0x08, 0x01, 0x42, 0x01, 'w', /* initializer: dims [1], name w */
      0x42, 0x04, 0x0a, 0x00, 0x10, 0x0d,      /* opset_import "" 13 */
  };
  memcpy(b, m, sizeof m);
  return sizeof m;
}

/* covers: TENSOR-FILE-KIND ERROR-MESSAGE
 * A TensorProto file without a data_type (a model passed as a tensor, an
 * empty file) is ERR_MALFORMED naming the file; a model's tensor without
 * one keeps the message that names the tensor. */
static void test_tensor_file_without_data_type(void) {
  char dir[] = "/tmp/onnxshape-kind-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  unsigned char m[64];
  size_t n = model_bytes(m);
  CHECK(put_file(path, m, n));
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_ERR_MALFORMED);
  char want[512];
  snprintf(want, sizeof want,
           "'%s' does not look like a TensorProto (no data_type; an ONNX model or another "
           "file?)",
           path);
  CHECK_MESSAGE(d.message, want);
  CHECK_STATUS(onnxshape_tensor_parse(m, n, NULL, &t, &d), ONNXSHAPE_ERR_MALFORMED);
  CHECK_MESSAGE(d.message,
                "the 17 bytes do not look like a TensorProto (no data_type; an ONNX "
                "model or something else?)");
  CHECK(put_file(path, "", 0));
  CHECK_STATUS(onnxshape_tensor_read_file(path, &t, &d), ONNXSHAPE_ERR_MALFORMED);
  CHECK_MESSAGE(d.message, want);
  /* Inside a model: the initializer is named. */
  onnxshape_model *model = NULL;
  CHECK_STATUS(onnxshape_model_parse(m, n, NULL, &model, &d), ONNXSHAPE_ERR_INVALID_TENSOR);
  CHECK_MESSAGE(d.message, "tensor 'w': data_type 0 is not a known type (1 to 26)");
  onnxshape_model_free(model);
  unlink(path);
  rmdir(dir);
}

/* ---- writing ---- */

/* What np.save (NumPy 1.24) writes for np.arange(6, dtype='<f4').reshape(2, 3). */
static const unsigned char numpy_f4_23[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          \n"
    "\x00\x00\x00\x00\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40"
    "\x00\x00\xa0\x40";
/* np.save of np.array(True). */
static const unsigned char numpy_b1_scalar[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '|b1', 'fortran_order': False, 'shape': (), }"
    "                                                              \n\x01";
/* np.save of np.array([b'ab', b'', b'xyz']). */
static const unsigned char numpy_s3[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '|S3', 'fortran_order': False, 'shape': (3,), }"
    "                                                            \nab\x00\x00\x00\x00xyz";
/* np.save of np.zeros((0,), '<i8'), of np.zeros((0,), 'S1') and of a
 * uint8 array of shape (12345678901, 0). */
static const unsigned char numpy_i8_empty[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '<i8', 'fortran_order': False, 'shape': (0,), }"
    "                                                            \n";
static const unsigned char numpy_s1_empty[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '|S1', 'fortran_order': False, 'shape': (0,), }"
    "                                                            \n";
static const unsigned char numpy_u1_wide[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '|u1', 'fortran_order': False, 'shape': (12345678901, 0), }"
    "                                                \n";

/* np.save of np.array([3, 4], 'u1').reshape((2,) + (1,) * 14): the spare
 * room for the first axis takes the header past 128 bytes. */
static const unsigned char numpy_u1_rank15[] =
    "\x93NUMPY\x01\x00\xb6\x00{'descr': '|u1', 'fortran_order': False, 'shape': (2, 1, 1, 1, 1, "
    "1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }                                                          "
    "                         \n\x03\x04";

/* Writes t to a file and compares it with the n bytes `want`. */
static void check_written(const onnxshape_tensor *t, const unsigned char *want, size_t n) {
  char dir[] = "/tmp/onnxshape-npyw-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/out.npy", dir);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, t, &d), ONNXSHAPE_OK);
  CHECK_MESSAGE(d.message, "");
  size_t got_n = 0;
  const unsigned char *got = get_file(path, &got_n);
  CHECK(got != NULL && got_n == n && memcmp(got, want, n) == 0);
  if (got != NULL && (got_n != n || memcmp(got, want, n) != 0)) {
    fprintf(stderr, "  wrote %zu bytes, expected %zu: %.*s\n", got_n, n, (int)got_n,
            (const char *)got);
  }
  /* The same through a file descriptor. */
  int fd = open(path, O_WRONLY | O_TRUNC);
  CHECK(fd >= 0);
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(fd, NULL, t, &d), ONNXSHAPE_OK);
  close(fd);
  got = get_file(path, &got_n);
  CHECK(got != NULL && got_n == n && memcmp(got, want, n) == 0);
  unlink(path);
  rmdir(dir);
}

/* covers: NPY-WRITE
 * The writer's bytes equal np.save's (NumPy 1.24): header text, padding
 * to 64 bytes, the spare room for the first axis, shapes (), (n,) and
 * (a, b), strings NUL-padded to the longest; then read back. */
static void test_npy_write_exact(void) {
  unsigned char f4[24];
  for (unsigned i = 0; i < 6; i++) {
    float v = (float)i;
    uint32_t u;
    memcpy(&u, &v, 4);
    onnxshape_store_le(f4 + 4 * i, u, 4);
  }
  static const int64_t d23[] = {2, 3};
  onnxshape_tensor t = {ONNXSHAPE_TYPE_FLOAT, 2, d23, f4, sizeof f4};
  check_written(&t, numpy_f4_23, sizeof numpy_f4_23 - 1);
  static const unsigned char yes = 1;
  onnxshape_tensor b = {ONNXSHAPE_TYPE_BOOL, 0, NULL, &yes, 1};
  check_written(&b, numpy_b1_scalar, sizeof numpy_b1_scalar - 1);
  static const int64_t three[] = {3}, zero[] = {0}, wide[] = {12345678901, 0};
  static const onnxshape_string strs[] = {{"ab", 2}, {NULL, 0}, {"xyz", 3}};
  onnxshape_tensor s = {ONNXSHAPE_TYPE_STRING, 1, three, strs, sizeof strs};
  check_written(&s, numpy_s3, sizeof numpy_s3 - 1);
  onnxshape_tensor e = {ONNXSHAPE_TYPE_INT64, 1, zero, NULL, 0};
  check_written(&e, numpy_i8_empty, sizeof numpy_i8_empty - 1);
  onnxshape_tensor es = {ONNXSHAPE_TYPE_STRING, 1, zero, NULL, 0};
  check_written(&es, numpy_s1_empty, sizeof numpy_s1_empty - 1);
  onnxshape_tensor w = {ONNXSHAPE_TYPE_UINT8, 2, wide, NULL, 0};
  check_written(&w, numpy_u1_wide, sizeof numpy_u1_wide - 1);
  static const int64_t rank15[] = {2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  static const unsigned char u1[] = {3, 4};
  onnxshape_tensor r15 = {ONNXSHAPE_TYPE_UINT8, 15, rank15, u1, 2};
  check_written(&r15, numpy_u1_rank15, sizeof numpy_u1_rank15 - 1);
  /* Read back what was written. */
  npy_buf o;
  memcpy(o.b, numpy_s3, sizeof numpy_s3 - 1);
  o.n = sizeof numpy_s3 - 1;
  onnxshape_owned_tensor *r = parse_ok(&o);
  static const char *const want[] = {"ab", "", "xyz"};
  static const size_t lengths[] = {2, 0, 3};
  check_strings(r, 3, want, lengths);
  onnxshape_owned_tensor_free(r);
}

/* covers: NPY-WRITE
 * A header past 65535 bytes is written as version 2.0 (a 4-byte length),
 * still aligned to 64, and reads back. */
static void test_npy_write_version_2(void) {
  enum { RANK = 22000 };
  static int64_t dims[RANK];
  for (size_t i = 0; i < RANK; i++) dims[i] = 1;
  static const unsigned char v = 42;
  onnxshape_tensor t = {ONNXSHAPE_TYPE_UINT8, RANK, dims, &v, 1};
  char dir[] = "/tmp/onnxshape-npy2-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/out.npy", dir);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, &t, &d), ONNXSHAPE_OK);
  size_t n = 0;
  const unsigned char *b = get_file(path, &n);
  CHECK(b != NULL && n > 65536);
  if (b == NULL || n <= 65536) return;
  CHECK(b[6] == 2 && b[7] == 0);
  uint64_t hlen = onnxshape_load_le(b + 8, 4);
  CHECK_I64(12 + hlen + 1, n);
  CHECK((12 + hlen) % 64 == 0);
  CHECK(b[12 + hlen - 1] == '\n' && b[12 + hlen] == 42);
  CHECK(memcmp(b + 12, "{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, ", 57) == 0);
  onnxshape_owned_tensor *r = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(path, &r, &d), ONNXSHAPE_OK);
  if (r != NULL) {
    const onnxshape_tensor *g = onnxshape_owned_tensor_get(r);
    CHECK(g->rank == RANK && g->dims[RANK - 1] == 1 && g->data_bytes == 1);
    CHECK(((const unsigned char *)g->data)[0] == 42);
  }
  onnxshape_owned_tensor_free(r);
  unlink(path);
  rmdir(dir);
}

/* covers: NPY-WRITE KERNEL-CAPACITY ERROR-MESSAGE
 * Types NumPy lacks, strings NumPy would change, bools that are not 0 or
 * 1, bad arguments: refused, with nothing created. */
static void test_npy_write_refusals(void) {
  char dir[] = "/tmp/onnxshape-npyr-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256], want[512];
  snprintf(path, sizeof path, "%s/out.npy", dir);
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  static const unsigned char bytes[16] = {0};
  static const int64_t two[] = {2};
  static const int32_t lacking[] = {ONNXSHAPE_TYPE_BFLOAT16,
                                    ONNXSHAPE_TYPE_FLOAT8E4M3FN,
                                    ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ,
                                    ONNXSHAPE_TYPE_FLOAT8E5M2,
                                    ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ,
                                    ONNXSHAPE_TYPE_UINT4,
                                    ONNXSHAPE_TYPE_INT4,
                                    ONNXSHAPE_TYPE_FLOAT4E2M1,
                                    ONNXSHAPE_TYPE_FLOAT8E8M0,
                                    ONNXSHAPE_TYPE_UINT2,
                                    ONNXSHAPE_TYPE_INT2};
  for (size_t i = 0; i < sizeof lacking / sizeof lacking[0]; i++) {
    onnxshape_tensor t = {lacking[i], 1, two, bytes, sizeof bytes};
    CHECK_STATUS(onnxshape_tensor_write_npy_file(path, &t, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
    snprintf(want, sizeof want,
             "cannot write '%s' as .npy: NumPy has no %s type; write a TensorProto .pb instead",
             path, onnxshape_type_name(lacking[i]));
    CHECK_MESSAGE(d.message, want);
  }
  onnxshape_tensor t = {99, 1, two, bytes, sizeof bytes};
  int null_fd = open("/dev/null", O_WRONLY);
  CHECK(null_fd >= 0);
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, NULL, &t, &d), ONNXSHAPE_ERR_UNKNOWN_TYPE);
  CHECK_MESSAGE(d.message, "cannot write 'the output': element type 99 is unknown");
  /* Strings ending in NUL would lose it. */
  static const onnxshape_string nul[] = {{"ok", 2}, {"a\0", 2}};
  onnxshape_tensor s = {ONNXSHAPE_TYPE_STRING, 1, two, nul, sizeof nul};
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, &s, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  snprintf(want, sizeof want,
           "cannot write '%s' as .npy: string element 1 ends in a NUL byte, which NumPy drops "
           "('S' strings are NUL-padded); write a TensorProto .pb instead",
           path);
  CHECK_MESSAGE(d.message, want);
  static const onnxshape_string no_data[] = {{"ok", 2}, {NULL, 3}};
  s.data = no_data;
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, "o.npy", &s, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "cannot write 'o.npy': string element 1 has 3 bytes but no data");
  /* Padding to the longest string is bounded: 700,000 strings, one of 100
   * bytes, would take 70,000,000 bytes for 100 bytes of text (more than
   * 16 x 100 + 64 MiB); 600,000 take 60,000,000, which is allowed. */
  {
    static const char hundred[101] = "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789";
    onnxshape_string *many = calloc(700000, sizeof *many);
    CHECK(many != NULL);
    if (many != NULL) {
      many[0].data = hundred;
      many[0].length = 100;
      int64_t count[] = {700000};
      onnxshape_tensor m = {ONNXSHAPE_TYPE_STRING, 1, count, many, 700000 * sizeof *many};
      CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, "o.npy", &m, &d),
                   ONNXSHAPE_ERR_INVALID_ARGUMENT);
      CHECK_MESSAGE(d.message,
                    "cannot write 'o.npy' as .npy: 700000 strings padded to the longest (100 "
                    "bytes) take 70000000 bytes for 100 bytes of text, more than 16 times the "
                    "text plus 64 MiB; write a TensorProto .pb instead");
      count[0] = 600000;
      m.data_bytes = 600000 * sizeof *many;
      CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, "o.npy", &m, &d), ONNXSHAPE_OK);
      free(many);
    }
  }
  static const unsigned char bools[] = {1, 3};
  onnxshape_tensor b = {ONNXSHAPE_TYPE_BOOL, 1, two, bools, 2};
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, "o.npy", &b, &d),
               ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(d.message, "cannot write 'o.npy': bool element 1 is 3; a .npy bool must be 0 or 1");
  /* Data shorter than the dims, negative dims, NULLs. */
  onnxshape_tensor short_data = {ONNXSHAPE_TYPE_DOUBLE, 1, two, bytes, 8};
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, "o.npy", &short_data, &d),
               ONNXSHAPE_ERR_DATA_SIZE);
  CHECK_MESSAGE(d.message, "cannot write 'o.npy': the tensor holds 8 bytes; its dims need 16");
  static const int64_t negative[] = {-1};
  onnxshape_tensor neg = {ONNXSHAPE_TYPE_DOUBLE, 1, negative, bytes, 8};
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(null_fd, "o.npy", &neg, &d),
               ONNXSHAPE_ERR_NEGATIVE_DIM);
  CHECK_MESSAGE(d.message, "cannot write 'o.npy': a dim is negative");
  CHECK_STATUS(onnxshape_tensor_write_npy_file(NULL, &b, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_write_npy_file(path, NULL, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(onnxshape_tensor_write_npy_fd(-1, NULL, &b, &d), ONNXSHAPE_ERR_INVALID_ARGUMENT);
  close(null_fd);
  /* Nothing was created, not even a temporary file. */
  CHECK(rmdir(dir) == 0);
  /* A directory that does not exist. */
  onnxshape_tensor ok = {ONNXSHAPE_TYPE_UINT8, 1, two, bytes, 2};
  CHECK_STATUS(onnxshape_tensor_write_npy_file("/nonexistent-dir/x.npy", &ok, &d),
               ONNXSHAPE_ERR_IO);
  CHECK_MESSAGE(d.message,
                "cannot create a file beside '/nonexistent-dir/x.npy': No such file or directory");
}

/* covers: NPY-WRITE NPY-IN-PLACE FILE-CHANGED
 * A large .npy read in place is written back from its file (not through
 * the mapping), byte for byte; once the file is cut short the write fails
 * with ERR_IO and leaves no file. */
static void test_npy_write_mapped(void) {
  char dir[] = "/tmp/onnxshape-npym-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char in[256], out[256], want[512];
  snprintf(in, sizeof in, "%s/in.npy", dir);
  snprintf(out, sizeof out, "%s/out.npy", dir);
  static npy_buf o;
  static unsigned char data[120000];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i % 253);
  npy_simple(&o, "<i8", "(15000,)", data, sizeof data);
  CHECK(put_file(in, o.b, o.n));
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_owned_tensor *t = NULL;
  CHECK_STATUS(onnxshape_tensor_read_file(in, &t, &d), ONNXSHAPE_OK);
  if (t == NULL) return;
  CHECK_STATUS(onnxshape_tensor_write_npy_file(out, onnxshape_owned_tensor_get(t), &d),
               ONNXSHAPE_OK);
  size_t n = 0;
  const unsigned char *b = get_file(out, &n);
  CHECK(b != NULL && n == o.n && memcmp(b, o.b, n) == 0);
  unlink(out);
  CHECK(truncate(in, 60000) == 0);
  CHECK_STATUS(onnxshape_tensor_write_npy_file(out, onnxshape_owned_tensor_get(t), &d),
               ONNXSHAPE_ERR_IO);
  snprintf(want, sizeof want,
           "cannot write '%s': the file its data comes from changed size while in use", out);
  CHECK_MESSAGE(d.message, want);
  CHECK(access(out, F_OK) != 0);
  onnxshape_owned_tensor_free(t);
  unlink(in);
  CHECK(rmdir(dir) == 0);
}

/* covers: NPY-FILES DIAG-PINNED
 * A header that ends inside its descr string (and so without its final
 * newline): the unclosed string is named, where the header ends. */
static void test_npy_unclosed_string(void) {
  static const char header[] = "{'descr': '<f4";
  unsigned char b[64];
  size_t hl = sizeof header - 1u;
  memcpy(b, "\x93NUMPY\x01\x00", 8);
  b[8] = (unsigned char)hl;
  b[9] = 0;
  memcpy(b + 10, header, hl);
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_tensor_parse_npy(b, 10u + hl, &t, &d), ONNXSHAPE_ERR_MALFORMED);
  CHECK_STR(d.message,
            ".npy data: header: expected the string's closing quote at byte 24, found the end");
  CHECK(t == NULL);
}

RUN_TESTS(TEST_ENTRY(test_npy_numeric_dtypes), TEST_ENTRY(test_npy_unclosed_string), TEST_ENTRY(test_npy_big_endian),
          TEST_ENTRY(test_npy_fortran_order), TEST_ENTRY(test_npy_fortran_many_ones),
          TEST_ENTRY(test_npy_versions_and_spellings), TEST_ENTRY(test_npy_strings),
          TEST_ENTRY(test_npy_rejects_malformed), TEST_ENTRY(test_npy_rejects_dtypes),
          TEST_ENTRY(test_npy_rejects_shape_and_data), TEST_ENTRY(test_npy_read_file),
          TEST_ENTRY(test_tensor_file_without_data_type), TEST_ENTRY(test_npy_write_exact),
          TEST_ENTRY(test_npy_write_version_2), TEST_ENTRY(test_npy_write_refusals),
          TEST_ENTRY(test_npy_write_mapped))
