/* SPDX-License-Identifier: Apache-2.0 */
/* TensorProto decoding from arbitrary bytes: a decoded tensor must hold
 * exactly the bytes its dims need, every byte readable. The same bytes read
 * as a file (where a raw_data of 16 bytes or more is used in place in the
 * mapping, not decoded) must give the same status and the same tensor. */
#define _GNU_SOURCE
#include <onnxshape.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern size_t onnxshape__inplace_min; /* src/onnx/model.h */

/* The same bytes through onnxshape_tensor_read_file (a memfd file). */
static void check_file_path(const uint8_t *data, size_t size, onnxshape_status want,
                            const onnxshape_owned_tensor *parsed) {
  int fd = memfd_create("fuzz_tensor", 0);
  if (fd < 0) return;
  if (size > 0 && write(fd, data, size) != (ssize_t)size) {
    close(fd);
    return;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  onnxshape__inplace_min = 16;
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_tensor_read_file(path, &t, &d);
  /* External data resolves differently for a file; leave those out. */
  if (st != ONNXSHAPE_ERR_IO && want != ONNXSHAPE_ERR_IO) FUZZ_CHECK(st == want);
  if (st == ONNXSHAPE_OK && parsed != NULL) {
    const onnxshape_tensor *a = onnxshape_owned_tensor_get(parsed);
    const onnxshape_tensor *b = onnxshape_owned_tensor_get(t);
    FUZZ_CHECK(a->type == b->type && a->rank == b->rank && a->data_bytes == b->data_bytes);
    FUZZ_CHECK(a->rank == 0 || memcmp(a->dims, b->dims, a->rank * sizeof(int64_t)) == 0);
    if (a->type != ONNXSHAPE_TYPE_STRING && a->data_bytes > 0) {
      FUZZ_CHECK(memcmp(a->data, b->data, a->data_bytes) == 0);
    }
  }
  onnxshape_owned_tensor_free(t);
  close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_tensor_parse(data, size, NULL, &t, &d);
  check_file_path(data, size, st, st == ONNXSHAPE_OK ? t : NULL);
  if (st != ONNXSHAPE_OK) {
    FUZZ_CHECK(d.message[0] != '\0');
    return 0;
  }
  const onnxshape_tensor *v = onnxshape_owned_tensor_get(t);
  int64_t n;
  size_t bytes;
  FUZZ_CHECK(onnxshape_dims_count(v->dims, v->rank, &n) == ONNXSHAPE_OK);
  FUZZ_CHECK(onnxshape_type_storage_bytes(v->type, n, &bytes) == ONNXSHAPE_OK);
  FUZZ_CHECK(v->data_bytes == bytes);
  volatile unsigned sum = 0;
  const unsigned char *p = v->data;
  for (size_t i = 0; i < bytes; i++) sum += p[i]; /* ASan checks every byte */
  if (v->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *s = v->data;
    for (int64_t i = 0; i < n; i++) {
      for (size_t k = 0; k < s[i].length; k++) sum += (unsigned char)s[i].data[k];
    }
  }
  (void)sum;
  onnxshape_owned_tensor_free(t);
  return 0;
}
