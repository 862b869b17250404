/* SPDX-License-Identifier: Apache-2.0 */
/* Files for the loader: regular files only, opened without blocking; whole
 * files read into memory; regions of large files mapped, with what is
 * needed to tell later that the file changed; external data opened beneath
 * a directory in one step; protobuf messages streamed to a file. */
#ifndef ONNXSHAPE_FILEIO_H
#define ONNXSHAPE_FILEIO_H

#include <protobuf-c/protobuf-c.h>
#include <stdint.h>
#include <sys/stat.h>

#include "onnxshape.h"

/* A mapped region of a file. The file stays open while it is mapped, so that
 * a write of the region can be a file-to-file copy and a check can compare
 * the file with what it was when mapped. */
typedef struct onnxshape__map {
  void *base;        /* page-aligned start of the mapping, or NULL */
  size_t len;        /* bytes mapped at base */
  const unsigned char *data; /* the region asked for, inside the mapping */
  int fd;            /* the file, or -1 */
  uint64_t offset;   /* the file offset of base */
  struct stat seen;  /* the file when it was mapped */
  char *name;        /* the file's name for messages (owned), or NULL */
} onnxshape__map;

/* Opens `path` (relative to dirfd, or AT_FDCWD) for reading: non-blocking,
 * so that a FIFO or device never blocks the open, and refused unless it is a
 * regular file. `shown` names the file in messages. */
onnxshape_status onnxshape__open_file(int dirfd, const char *path, const char *shown, int *fd,
                                      struct stat *sb, onnxshape_diag *diag);

/* The directory part of `path` in *dir (".", "/" or a copy, to free) and
 * its last component in *base (within path). */
onnxshape_status onnxshape__parent_name(const char *path, const char **base, char **dir,
                                        onnxshape_diag *diag);

/* Opens the directory part of `path` ("." when it has none), sets *dir to
 * its name (heap, for the caller to free) and *base to the last component
 * (a pointer into path). */
onnxshape_status onnxshape__open_parent(const char *path, int *dirfd, const char **base,
                                        char **dir, onnxshape_diag *diag);

/* Opens the directory `dir`. */
onnxshape_status onnxshape__open_dir(const char *dir, int *dirfd, onnxshape_diag *diag);

/* Opens `relative` beneath the directory dirfd (named `dir_shown`) in one
 * step: openat2 with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS where the
 * kernel has it, else one component at a time with O_NOFOLLOW. Absolute
 * locations, `..` components and symbolic links are refused, so nothing
 * outside the directory is ever opened. The result is a regular file. */
onnxshape_status onnxshape__open_beneath(int dirfd, const char *relative, const char *dir_shown,
                                         int *fd, struct stat *sb, onnxshape_diag *diag);

/* Reads the whole regular file fd (sb from opening it) into a new heap
 * buffer; a file that is not the size it had when opened is an error. */
onnxshape_status onnxshape__read_all(int fd, const struct stat *sb, const char *shown,
                                     unsigned char **bytes, size_t *len, onnxshape_diag *diag);

/* Maps [offset, offset + len) of the regular file fd, which the mapping then
 * owns (closed by onnxshape__unmap, also on failure). len may be 0 (no
 * mapping). */
onnxshape_status onnxshape__map_region(int fd, const struct stat *sb, uint64_t offset, size_t len,
                                       const char *shown, onnxshape__map *m,
                                       onnxshape_diag *diag);
void onnxshape__unmap(onnxshape__map *m);
/* ERR_IO, naming the file, when it is no longer the size (or modification
 * time) it had when mapped: its mapped bytes may have raised SIGBUS or
 * changed under the reader. */
onnxshape_status onnxshape__map_check(const onnxshape__map *m, onnxshape_diag *diag);

/* Writes a file in pieces through a staging buffer: an append of 64 KiB or
 * more that lies in a live mapping is copied from its file (never read
 * through the mapping), others from memory. Errors are kept for the end. */
typedef struct onnxshape__sink onnxshape__sink;
/* A sink writing to fd at its current position, or NULL when out of memory. */
onnxshape__sink *onnxshape__sink_new(int fd);
void onnxshape__sink_append(onnxshape__sink *s, const void *data, size_t len);
/* Flushes and frees s; ERR_IO naming `shown` when a write failed or a mapped
 * source file came up short (it changed size while in use). */
onnxshape_status onnxshape__sink_finish(onnxshape__sink *s, const char *shown,
                                        onnxshape_diag *diag);

/* Writes a whole file into fd, named `shown` in messages. */
typedef onnxshape_status (*onnxshape__fd_writer)(int fd, const char *shown, const void *ctx,
                                                 onnxshape_diag *diag);
/* Writes `path` with writer(ctx) through a temporary file with a unique name
 * in its directory (mode 0644) and a rename; on failure the temporary file
 * is removed and path is left as it was. */
onnxshape_status onnxshape__write_file_via(const char *path, onnxshape__fd_writer writer,
                                           const void *ctx, onnxshape_diag *diag);

/* Serializes msg into the open file fd (named `shown` in messages); bytes
 * fields that lie in a live mapping are copied from its file. */
onnxshape_status onnxshape__write_message_fd(int fd, const ProtobufCMessage *msg,
                                             const char *shown, onnxshape_diag *diag);
/* The same into `path`, through onnxshape__write_file_via. */
onnxshape_status onnxshape__write_message_file(const char *path, const ProtobufCMessage *msg,
                                               onnxshape_diag *diag);

#endif
