/* SPDX-License-Identifier: Apache-2.0 */
/* A too-small output buffer yields exactly ONNXSHAPE_ERR_BUFFER_TOO_SMALL
 * when the call would otherwise succeed, and nothing is written. */
#include <onnxshape.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SENTINEL 0x5A5A5A5A5A5A5A5Aull

static int untouched(const int64_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if ((uint64_t)p[i] != SENTINEL) return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  int version = fuzz_reshape_versions[1 + take_byte(&in) % 8];
  int shape_version = fuzz_shape_versions[take_byte(&in) % 8];
  int32_t type = (int32_t)(1 + take_byte(&in) % 26);
  size_t rank = take_byte(&in) % (FUZZ_MAX_RANK + 1);
  size_t len = take_byte(&in) % (FUZZ_MAX_RANK + 1);
  size_t cut = take_byte(&in);
  int64_t dims[FUZZ_MAX_RANK], shape[FUZZ_MAX_RANK], out[FUZZ_MAX_RANK + 1];
  for (size_t i = 0; i < rank; i++) dims[i] = take_value(&in);
  for (size_t i = 0; i < len; i++) shape[i] = take_value(&in);
  onnxshape_reshape_attrs a = {version >= 14, take_byte(&in) & 1};

  /* Reshape dims. */
  onnxshape_status full =
      onnxshape_reshape_infer(version, type, dims, rank, shape, len, &a, out, len, NULL);
  if (len > 0) {
    size_t cap = cut % len;
    memset(out, 0x5A, sizeof out);
    onnxshape_status st =
        onnxshape_reshape_infer(version, type, dims, rank, shape, len, &a, out, cap, NULL);
    FUZZ_CHECK(full == ONNXSHAPE_OK ? st == ONNXSHAPE_ERR_BUFFER_TOO_SMALL : st == full);
    FUZZ_CHECK(untouched(out, FUZZ_MAX_RANK + 1));
  }
  /* Reshape copy destination. */
  int64_t count;
  size_t bytes;
  if (full == ONNXSHAPE_OK && onnxshape_dims_count(dims, rank, &count) == ONNXSHAPE_OK &&
      onnxshape_type_storage_bytes(type, count, &bytes) == ONNXSHAPE_OK && bytes > 0 &&
      bytes <= 2048) {
    unsigned char src[2048], dst[2049];
    memset(src, 1, bytes);
    memset(dst, 0xA5, sizeof dst);
    onnxshape_tensor t = {type, rank, dims, src, bytes}, o;
    onnxshape_status st = onnxshape_reshape_run_copy(version, &t, shape, len, &a, out, len, dst,
                                                     cut % bytes, &o, NULL);
    FUZZ_CHECK(st == ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
    for (size_t i = 0; i < sizeof dst; i++) FUZZ_CHECK(dst[i] == 0xA5);
    FUZZ_CHECK(onnxshape_reshape_run_copy(version, &t, shape, len, &a, out, len, dst, bytes, &o,
                                          NULL) == ONNXSHAPE_OK);
    FUZZ_CHECK(dst[bytes] == 0xA5); /* nothing past the output */
  }
  /* Shape values. */
  onnxshape_shape_attrs sa = {shape_version >= 15, take_value(&in), shape_version >= 15,
                              take_value(&in)};
  onnxshape_tensor t = {type, rank, dims, NULL, 0};
  size_t n = 0;
  onnxshape_status sf = onnxshape_shape_run(shape_version, &t, &sa, out, FUZZ_MAX_RANK, &n, NULL);
  if (sf == ONNXSHAPE_OK && n > 0) {
    memset(out, 0x5A, sizeof out);
    size_t got = 12345;
    FUZZ_CHECK(onnxshape_shape_run(shape_version, &t, &sa, out, cut % n, &got, NULL) ==
               ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
    FUZZ_CHECK(got == 12345 && untouched(out, FUZZ_MAX_RANK + 1));
  }
  return 0;
}
