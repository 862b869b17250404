/* SPDX-License-Identifier: Apache-2.0 */
/* Files for the loader: read-only mappings, paths confined to a directory,
 * and protobuf messages streamed to a file. */
#ifndef ONNXSHAPE_FILEIO_H
#define ONNXSHAPE_FILEIO_H

#include <protobuf-c/protobuf-c.h>

#include "onnxshape.h"

typedef struct onnxshape__map {
  void *base; /* NULL for an empty file */
  size_t len;
  int fd;     /* kept open while mapped (for file-to-file copies), or -1 */
} onnxshape__map;

/* Maps a whole regular file read-only. While mapped, a write of a region of
 * it (onnxshape__write_message_file) is a file-to-file copy in the kernel. */
onnxshape_status onnxshape__map_file(const char *path, onnxshape__map *m, onnxshape_diag *diag);
void onnxshape__unmap(onnxshape__map *m);

/* The directory part of path ("." when it has none). */
void onnxshape__dirname(const char *path, char *dir, size_t cap);

/* Resolves `relative` inside `dir`, following links, and fails unless the
 * result is a file inside dir (no absolute paths, no escaping with ..). */
onnxshape_status onnxshape__resolve_inside(const char *dir, const char *relative, char *out,
                                           size_t cap, onnxshape_diag *diag);

/* Serializes msg into path through a temporary file in the same directory
 * and a rename; bytes fields are written from their own memory, or, when
 * they lie in a live mapping, copied from its file by copy_file_range. */
onnxshape_status onnxshape__write_message_file(const char *path, const ProtobufCMessage *msg,
                                               onnxshape_diag *diag);

#endif
