/* SPDX-License-Identifier: Apache-2.0 */
/* The internal header of the .npy reader (npy_read.c) and writer
 * (npy_write.c); what they share is in npy.c. */
#ifndef ONNXSHAPE_NPY_H
#define ONNXSHAPE_NPY_H

#include <stdint.h>

#include "../core/internal.h"
#include "arena.h"
#include "tensor.h"

/* The magic every .npy file starts with. */
extern const unsigned char onnxshape__npy_magic_bytes[6];

/* numpy's alignment of the data (format.ARRAY_ALIGN) and the spare room it
 * leaves in a header for the growing axis (format.GROWTH_AXIS_MAX_DIGITS). */
#define NPY_ALIGN 64u
#define NPY_GROWTH_DIGITS 21u

#define NPY_SUGGEST "save a TensorProto .pb instead"

/* The dtypes onnxshape reads and writes, one row each: NumPy's kind
 * letter, the bytes of an element (0: the descr gives them, in units), the
 * bytes of each value whose byte order '<' or '>' sets (a complex has two
 * values), and the ONNX type. Reading maps a descr's kind and size to its
 * row; writing takes the first row of the tensor's type ('S' for strings),
 * '|' before the kind when a value is one byte, else '<'. */
typedef struct npy_dtype {
  char kind;
  unsigned size;
  unsigned unit;
  int32_t type;
} npy_dtype;

/* The row of kind and size (any size for 'S' and 'U'), or NULL. */
const npy_dtype *onnxshape__npy_dtype_of_descr(char kind, uint64_t size);
/* The row NumPy writes for an ONNX type, or NULL when NumPy has none. */
const npy_dtype *onnxshape__npy_dtype_of_type(int32_t type);

/* onnxshape__out_of_memory's wording of a failed allocation (arena a's
 * limit while `doing`, or the machine's memory when a is NULL) into inner,
 * which the caller puts after the file's name; its status. */
onnxshape_status onnxshape__npy_no_memory_text(const onnxshape__arena *a, const char *doing,
                                               onnxshape_diag *inner);

#endif
