/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape, Shape and Size with arbitrary versions, types, dims, targets and
 * attributes; every success is checked against the rules. */
#include <onnxshape.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reshape(fuzz_input *in) {
  int version = fuzz_reshape_versions[take_byte(in) % 9];
  int32_t type = (int32_t)(take_byte(in) % 28);
  size_t rank = take_byte(in) % (FUZZ_MAX_RANK + 1);
  size_t len = take_byte(in) % (FUZZ_MAX_RANK + 1);
  uint8_t flags = take_byte(in);
  int64_t dims[FUZZ_MAX_RANK], shape[FUZZ_MAX_RANK], out[FUZZ_MAX_RANK];
  for (size_t i = 0; i < rank; i++) dims[i] = take_value(in);
  for (size_t i = 0; i < len; i++) shape[i] = take_value(in);
  onnxshape_reshape_attrs a = {flags & 1, (flags & 2) ? take_value(in) : (flags >> 2) & 1};
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st =
      onnxshape_reshape_infer(version, type, dims, rank, shape, len, &a, out, len, &d);
  FUZZ_CHECK(memchr(d.message, '\0', sizeof d.message) != NULL);
  FUZZ_CHECK((st == ONNXSHAPE_OK) == (d.message[0] == '\0'));
  if (st != ONNXSHAPE_OK) return;
  int allowzero = a.has_allowzero && a.allowzero == 1;
  int64_t n_in, n_out;
  FUZZ_CHECK(onnxshape_dims_count(dims, rank, &n_in) == ONNXSHAPE_OK);
  FUZZ_CHECK(onnxshape_dims_count(out, len, &n_out) == ONNXSHAPE_OK);
  FUZZ_CHECK(n_in == n_out); /* a successful Reshape preserves the element count */
  int minus = 0;
  for (size_t i = 0; i < len; i++) {
    FUZZ_CHECK(shape[i] >= -1 && out[i] >= 0);
    if (shape[i] > 0) FUZZ_CHECK(out[i] == shape[i]);
    if (shape[i] == 0) FUZZ_CHECK(out[i] == (allowzero ? 0 : dims[i]));
    minus += shape[i] == -1;
  }
  FUZZ_CHECK(minus <= 1);
  /* The view shares the data; the copy reproduces it byte for byte. */
  size_t bytes;
  if (onnxshape_type_storage_bytes(type, n_in, &bytes) != ONNXSHAPE_OK || bytes > 4096) return;
  unsigned char src[4096], dst[4096];
  for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)(i * 13u + 7u);
  onnxshape_tensor t = {type, rank, dims, src, bytes}, v, c;
  int64_t vd[FUZZ_MAX_RANK], cd[FUZZ_MAX_RANK];
  FUZZ_CHECK(onnxshape_reshape_run_view(version, &t, shape, len, &a, vd, len, &v, NULL) ==
             ONNXSHAPE_OK);
  FUZZ_CHECK(v.data == src && v.data_bytes == bytes && memcmp(vd, out, len * 8) == 0);
  FUZZ_CHECK(onnxshape_reshape_run_copy(version, &t, shape, len, &a, cd, len, dst, bytes, &c,
                                        NULL) == ONNXSHAPE_OK);
  FUZZ_CHECK(c.data == dst && memcmp(dst, src, bytes) == 0);
}

/* The rulebook's clamp; r >= 0, so a + r cannot wrap when a < 0. */
static int64_t clamp_ref(int64_t a, int64_t r) {
  if (a < 0) a += r;
  return a < 0 ? 0 : (a > r ? r : a);
}

static void check_shape_size(fuzz_input *in) {
  int shape_version = fuzz_shape_versions[take_byte(in) % 8];
  int size_version = fuzz_size_versions[take_byte(in) % 7];
  int32_t type = (int32_t)(take_byte(in) % 28);
  size_t rank = take_byte(in) % (FUZZ_MAX_RANK + 1);
  uint8_t flags = take_byte(in);
  int64_t dims[FUZZ_MAX_RANK], out[FUZZ_MAX_RANK];
  for (size_t i = 0; i < rank; i++) dims[i] = take_value(in);
  onnxshape_shape_attrs a = {flags & 1, take_value(in), (flags >> 1) & 1, take_value(in)};
  onnxshape_tensor t = {type, rank, dims, NULL, 0};
  size_t len = 999;
  onnxshape_status st = onnxshape_shape_run(shape_version, &t, &a, out, FUZZ_MAX_RANK, &len, NULL);
  if (st == ONNXSHAPE_OK) {
    int64_t s = clamp_ref(a.has_start ? a.start : 0, (int64_t)rank);
    int64_t e = clamp_ref(a.has_end ? a.end : (int64_t)rank, (int64_t)rank);
    size_t want = e > s ? (size_t)(e - s) : 0;
    FUZZ_CHECK(len == want && (want == 0 || memcmp(out, dims + s, want * 8) == 0));
  }
  int64_t n = -5;
  st = onnxshape_size_run(size_version, &t, &n, NULL);
  if (st == ONNXSHAPE_OK) {
    int64_t c;
    FUZZ_CHECK(onnxshape_dims_count(dims, rank, &c) == ONNXSHAPE_OK && c == n && n >= 0);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  if (take_byte(&in) & 1) check_reshape(&in);
  else check_shape_size(&in);
  return 0;
}
