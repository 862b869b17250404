/* SPDX-License-Identifier: Apache-2.0 */
/* NumPy .npy files (docs/npy.md): what reading (npy_read.c) and writing
 * (npy_write.c) share, behind npy.h: the magic, the one table of dtypes,
 * and the wording of a failed allocation. */
#include <string.h>

#include "npy.h"

int onnxshape__npy_magic(const void *b, size_t len) {
  return b != NULL && len >= sizeof onnxshape__npy_magic_bytes &&
         memcmp(b, onnxshape__npy_magic_bytes, sizeof onnxshape__npy_magic_bytes) == 0;
}

const unsigned char onnxshape__npy_magic_bytes[6] = {0x93u, 'N', 'U', 'M', 'P', 'Y'};

static const npy_dtype dtypes[] = {
    {'b', 1, 1, ONNXSHAPE_TYPE_BOOL},      {'i', 1, 1, ONNXSHAPE_TYPE_INT8},
    {'u', 1, 1, ONNXSHAPE_TYPE_UINT8},     {'i', 2, 2, ONNXSHAPE_TYPE_INT16},
    {'u', 2, 2, ONNXSHAPE_TYPE_UINT16},    {'i', 4, 4, ONNXSHAPE_TYPE_INT32},
    {'u', 4, 4, ONNXSHAPE_TYPE_UINT32},    {'i', 8, 8, ONNXSHAPE_TYPE_INT64},
    {'u', 8, 8, ONNXSHAPE_TYPE_UINT64},    {'f', 2, 2, ONNXSHAPE_TYPE_FLOAT16},
    {'f', 4, 4, ONNXSHAPE_TYPE_FLOAT},     {'f', 8, 8, ONNXSHAPE_TYPE_DOUBLE},
    {'c', 8, 4, ONNXSHAPE_TYPE_COMPLEX64}, {'c', 16, 8, ONNXSHAPE_TYPE_COMPLEX128},
    {'S', 0, 1, ONNXSHAPE_TYPE_STRING},    {'U', 0, 4, ONNXSHAPE_TYPE_STRING},
};

#define NPY_N_DTYPES (sizeof dtypes / sizeof dtypes[0])

const npy_dtype *onnxshape__npy_dtype_of_descr(char kind, uint64_t size) {
  for (size_t i = 0; i < NPY_N_DTYPES; i++) {
    const npy_dtype *d = &dtypes[i];
    if (d->kind == kind && (d->size == 0u || d->size == size)) return d;
  }
  return NULL;
}

const npy_dtype *onnxshape__npy_dtype_of_type(int32_t type) {
  for (size_t i = 0; i < NPY_N_DTYPES; i++) {
    if (dtypes[i].type == type) return &dtypes[i];
  }
  return NULL;
}

onnxshape_status onnxshape__npy_no_memory_text(const onnxshape__arena *a, const char *doing,
                                               onnxshape_diag *inner) {
  onnxshape_diag_init(inner);
  return onnxshape__out_of_memory(a, doing, inner);
}
