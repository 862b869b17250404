/* SPDX-License-Identifier: Apache-2.0 */
/* Tensors with their own storage (onnxshape_owned_tensor), as the tensor
 * files (tensor.c: TensorProto, external data; npy.c: NumPy .npy) and the
 * model loader make them. */
#ifndef ONNXSHAPE_TENSOR_H
#define ONNXSHAPE_TENSOR_H

#include <sys/types.h>

#include "fileio.h"
#include "onnxshape.h"

/* A tensor and what it points at: a standalone tensor (a tensor file) lives
 * in its own arena with everything decoded for it; a model's tensors live in
 * the model's arena (arena NULL). Either may also map a region of a file
 * (external data, or a large raw_data used in place). */
struct onnxshape_owned_tensor {
  onnxshape_tensor view;          /* what kernels see */
  const char *name;               /* never NULL */
  struct onnxshape__arena *arena; /* this tensor's own memory, or NULL */
  onnxshape__map map;             /* the mapped file region, or none (map.base NULL) */
};

/* Where external data may live: a directory, opened at its first use. A
 * model file is opened by its path and its directory only if it has
 * external data (most have none: two system calls saved per load); the
 * directory then opened must still hold the model file under the name
 * `file` (same device and inode, following links as opening the model
 * did), or the load fails. So data is read from a directory whose `file`
 * is the model that was read: one that replaced the model's own, or a
 * rename of the model (or a chdir, for a relative path) while it loads, is
 * refused. As before this lazy open, a directory that holds a link to the
 * same model file passes: whoever can plant it there could have replaced
 * the directory before the model was opened. */
typedef struct onnxshape__extdir {
  const char *path; /* its name (messages, and opening it); NULL: no external data */
  int fd;           /* the open directory, or -1 */
  const char *file; /* the model's name within it, when opened lazily; else NULL */
  dev_t dev;        /* the model file's device and inode (with file) */
  ino_t ino;
} onnxshape__extdir;

/* Tensor decoding, shared by the model and tensor-file loaders. `msg` is an
 * Onnx__TensorProto decoded into `arena`, where the tensor is allocated too
 * (it points into msg); ext says where external data may live. */
struct onnxshape__arena;
onnxshape_status onnxshape__tensor_from_proto(const void *msg, onnxshape__extdir *ext,
                                              struct onnxshape__arena *arena,
                                              onnxshape_owned_tensor **out,
                                              onnxshape_diag *diag);
/* Closes ext's directory if it was opened. */
void onnxshape__extdir_close(onnxshape__extdir *ext);

/* onnxshape_tensor_read_file uses a raw_data of at least this many bytes in
 * place, in the mapped file (default 64 KiB; the fuzz target lowers it). */
extern size_t onnxshape__inplace_min;

/* A decimal number of digits only (external-data offsets and lengths, .npy
 * item sizes): 0 when s is empty, holds anything else or does not fit. */
int onnxshape__parse_u64(const char *s, uint64_t *v);

/* NumPy .npy files (src/onnx/npy.c, docs/npy.md). */
/* 1 when the len bytes at b start with the .npy magic "\x93NUMPY". */
int onnxshape__npy_magic(const void *b, size_t len);
/* Reads the .npy file in the len bytes at b into a tensor in its own arena,
 * within the memory limit of LIMIT-MEMORY; `shown` names the file in
 * messages, or NULL for bytes in memory. With in_place, numeric data that
 * needs no conversion (little-endian, C order) of at least
 * onnxshape__inplace_min bytes stays where it is in b, and *used_in_place
 * says so (the caller then hands its mapping to the tensor); everything else
 * is copied, so b may go once this returns. */
onnxshape_status onnxshape__npy_decode(const unsigned char *b, size_t len, const char *shown,
                                       int in_place, int *used_in_place,
                                       onnxshape_owned_tensor **out, onnxshape_diag *diag);

/* For tests only: when not NULL, reading a Fortran-order .npy file adds
 * the counter steps of its walk here (work counted, not timed). */
extern uint64_t *onnxshape__npy_walk_steps;

#endif
