/* SPDX-License-Identifier: Apache-2.0 */
/* NumPy .npy reading and writing from arbitrary bytes. A tensor read from
 * memory must hold exactly the bytes its dims need, every byte readable;
 * the same bytes read as a file (mapped and used in place from 16 bytes)
 * and through onnxshape_tensor_parse must give the same status and tensor.
 * Every tensor read must write back as .npy, and that file must read back
 * as the same tensor and write back as the same bytes. */
#define _GNU_SOURCE
#include <onnxshape.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern size_t onnxshape__inplace_min; /* src/onnx/model.h */

/* The same type, dims and data (strings by their bytes). */
static void check_same(const onnxshape_owned_tensor *x, const onnxshape_owned_tensor *y) {
  const onnxshape_tensor *a = onnxshape_owned_tensor_get(x);
  const onnxshape_tensor *b = onnxshape_owned_tensor_get(y);
  FUZZ_CHECK(a->type == b->type && a->rank == b->rank && a->data_bytes == b->data_bytes);
  FUZZ_CHECK(a->rank == 0 || memcmp(a->dims, b->dims, a->rank * sizeof(int64_t)) == 0);
  if (a->type != ONNXSHAPE_TYPE_STRING) {
    FUZZ_CHECK(a->data_bytes == 0 || memcmp(a->data, b->data, a->data_bytes) == 0);
    return;
  }
  const onnxshape_string *s = a->data, *t = b->data;
  for (size_t i = 0; i < a->data_bytes / sizeof *s; i++) {
    FUZZ_CHECK(s[i].length == t[i].length);
    FUZZ_CHECK(s[i].length == 0 || memcmp(s[i].data, t[i].data, s[i].length) == 0);
  }
}

/* A memfd holding the bytes; -1 when it cannot be made. */
static int memfd_with(const uint8_t *data, size_t size) {
  int fd = memfd_create("fuzz_npy", 0);
  if (fd < 0) return -1;
  if (size > 0 && write(fd, data, size) != (ssize_t)size) {
    close(fd);
    return -1;
  }
  return fd;
}

/* The same bytes through onnxshape_tensor_read_file (a memfd file). */
static void check_file_path(const uint8_t *data, size_t size, onnxshape_status want,
                            const onnxshape_owned_tensor *parsed) {
  int fd = memfd_with(data, size);
  if (fd < 0) return;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  onnxshape__inplace_min = 16;
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_tensor_read_file(path, &t, &d);
  FUZZ_CHECK(st == want);
  FUZZ_CHECK((st == ONNXSHAPE_OK) == (d.message[0] == '\0'));
  if (st == ONNXSHAPE_OK) {
    check_same(parsed, t);
    FUZZ_CHECK(onnxshape_owned_tensor_check_file(t, &d) == ONNXSHAPE_OK);
  }
  onnxshape_owned_tensor_free(t);
  close(fd);
}

/* Writes t as .npy into a memfd; its bytes (malloc'd) and length, or NULL
 * when the memfd cannot be made. */
static uint8_t *write_npy(const onnxshape_tensor *t, size_t *len) {
  int fd = memfd_create("fuzz_npy_out", 0);
  if (fd < 0) return NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_tensor_write_npy_fd(fd, "out.npy", t, &d);
  FUZZ_CHECK(st == ONNXSHAPE_OK); /* whatever was read can be written */
  off_t end = lseek(fd, 0, SEEK_END);
  FUZZ_CHECK(end >= 0);
  uint8_t *b = malloc(end > 0 ? (size_t)end : 1);
  FUZZ_CHECK(b != NULL);
  FUZZ_CHECK(pread(fd, b, (size_t)end, 0) == (ssize_t)end);
  close(fd);
  *len = (size_t)end;
  return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  onnxshape_owned_tensor *t = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  onnxshape_status st = onnxshape_tensor_parse_npy(data, size, &t, &d);
  FUZZ_CHECK((st == ONNXSHAPE_OK) == (d.message[0] == '\0'));
  if (size < 6 || memcmp(data, "\x93NUMPY", 6) != 0) {
    FUZZ_CHECK(st == ONNXSHAPE_ERR_MALFORMED);
    return 0;
  }
  /* onnxshape_tensor_parse knows .npy by its magic. */
  onnxshape_owned_tensor *p = NULL;
  FUZZ_CHECK(onnxshape_tensor_parse(data, size, NULL, &p, NULL) == st);
  if (st == ONNXSHAPE_OK) check_same(t, p);
  onnxshape_owned_tensor_free(p);
  check_file_path(data, size, st, st == ONNXSHAPE_OK ? t : NULL);
  if (st != ONNXSHAPE_OK) return 0;
  const onnxshape_tensor *v = onnxshape_owned_tensor_get(t);
  int64_t n;
  size_t bytes;
  FUZZ_CHECK(onnxshape_dims_count(v->dims, v->rank, &n) == ONNXSHAPE_OK);
  FUZZ_CHECK(onnxshape_type_storage_bytes(v->type, n, &bytes) == ONNXSHAPE_OK);
  FUZZ_CHECK(v->data_bytes == bytes);
  volatile unsigned sum = 0;
  const unsigned char *b = v->data;
  for (size_t i = 0; i < bytes; i++) sum += b[i]; /* ASan checks every byte */
  if (v->type == ONNXSHAPE_TYPE_BOOL) {
    for (size_t i = 0; i < bytes; i++) FUZZ_CHECK(b[i] <= 1);
  }
  if (v->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *s = v->data;
    for (int64_t i = 0; i < n; i++) {
      for (size_t k = 0; k < s[i].length; k++) sum += (unsigned char)s[i].data[k];
      FUZZ_CHECK(s[i].length == 0 || s[i].data[s[i].length - 1] != '\0');
    }
  }
  (void)sum;
  /* Written, read back: the same tensor; written again: the same bytes. */
  size_t len1 = 0, len2 = 0;
  uint8_t *w1 = write_npy(v, &len1);
  if (w1 != NULL) {
    onnxshape_owned_tensor *back = NULL;
    FUZZ_CHECK(onnxshape_tensor_parse_npy(w1, len1, &back, &d) == ONNXSHAPE_OK);
    /* The data starts at a multiple of 64 bytes. */
    if (v->type != ONNXSHAPE_TYPE_STRING) FUZZ_CHECK((len1 - v->data_bytes) % 64 == 0);
    check_same(t, back);
    uint8_t *w2 = write_npy(onnxshape_owned_tensor_get(back), &len2);
    if (w2 != NULL) FUZZ_CHECK(len1 == len2 && memcmp(w1, w2, len1) == 0);
    free(w2);
    onnxshape_owned_tensor_free(back);
    free(w1);
  }
  onnxshape_owned_tensor_free(t);
  return 0;
}
