/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__) && defined(SYS_openat2)
#include <linux/openat2.h>
#endif

#include "../core/internal.h"
#include "alloc.h"


/* Flags of every open for reading: O_NONBLOCK so that opening a FIFO (or a
 * device) returns at once instead of waiting for a writer; the file type is
 * checked right after. */
#define READ_FLAGS (O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)

/* Copies of large regions are made through a buffer of this size: measured
 * on 256 MiB (docs/performance.md), 1 MiB chunks take 0.11 s, 512 KiB 0.23-0.28 s
 * and 4 MiB 0.12-0.24 s; copy_file_range from the unaligned offset of
 * raw_data takes 0.23-0.26 s. The bytes are never mapped into the process
 * (its peak memory stays at the buffer). */
#define COPY_CHUNK ((size_t)1 << 20)
/* The alignment whose residues copy_from_mapping matches (a cache line). */
#define COPY_ALIGN ((size_t)64)

static onnxshape_status errno_fail(onnxshape_diag *diag, const char *what, const char *shown,
                                   int e) {
  return onnxshape__error(diag, ONNXSHAPE_ERR_IO, "cannot {} '{}': {}",
              ONNXSHAPE__ARGS(ARG_STR(what), ARG_NAME(shown), ARG_STR(strerror(e))));
}

/* Keeps a regular file open by fd; refuses anything else (closing fd). */
static onnxshape_status require_regular(int fd, const char *shown, struct stat *sb,
                                        onnxshape_diag *diag) {
  if (fstat(fd, sb) != 0) {
    int e = errno;
    close(fd);
    return errno_fail(diag, "inspect", shown, e);
  }
  if (!S_ISREG(sb->st_mode)) {
    close(fd);
    return onnxshape__error(diag, ONNXSHAPE_ERR_IO, "'{}' is not a regular file", ONNXSHAPE__ARGS(ARG_NAME(shown)));
  }
  /* Regular files do not block; later reads need no O_NONBLOCK. Of
   * READ_FLAGS, O_NONBLOCK is the only status flag (F_SETFL ignores the
   * access mode and the creation flags), so setting none clears it: one
   * system call, not a read and a write of the flags (about 1 us of a
   * 25 us model load, docs/performance.md). */
  (void)fcntl(fd, F_SETFL, 0);
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__open_file(int dirfd, const char *path, const char *shown, int *fd,
                                      struct stat *sb, onnxshape_diag *diag) {
  int f = openat(dirfd, path, READ_FLAGS);
  if (f < 0) return errno_fail(diag, "open", shown, errno);
  onnxshape_status st = require_regular(f, shown, sb, diag);
  if (st == ONNXSHAPE_OK) *fd = f;
  return st;
}

onnxshape_status onnxshape__open_dir(const char *dir, int *dirfd, onnxshape_diag *diag) {
  int f = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (f < 0) return errno_fail(diag, "open the directory", dir, errno);
  *dirfd = f;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__parent_name(const char *path, const char **base, char **dir,
                                        onnxshape_diag *diag) {
  const char *slash = strrchr(path, '/');
  *base = slash != NULL ? slash + 1 : path;
  *dir = slash == NULL ? onnxshape__strndup(".", 1) : slash == path ? onnxshape__strndup("/", 1)
                                                     : onnxshape__strndup(path, (size_t)(slash - path));
  if (*dir == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__open_parent(const char *path, int *dirfd, const char **base,
                                        char **dir, onnxshape_diag *diag) {
  onnxshape_status st = onnxshape__parent_name(path, base, dir, diag);
  if (st != ONNXSHAPE_OK) return st;
  st = onnxshape__open_dir(*dir, dirfd, diag);
  if (st != ONNXSHAPE_OK) {
    onnxshape__free(*dir);
    *dir = NULL;
  }
  return st;
}

/* ---- external data: opened beneath the model's directory ----------------- */

/* One step below dirfd without following links, component by component:
 * the fallback where openat2 is missing (older kernels, qemu-user). */
static int open_beneath_walk(int dirfd, const char *relative) {
  int cur = dirfd;
  const char *p = relative;
  for (;;) {
    while (*p == '/') p++;
    const char *end = strchr(p, '/');
    size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
    const char *rest = p + n;
    while (*rest == '/') rest++;
    char *part = onnxshape__strndup(p, n);
    if (part == NULL) {
      if (cur != dirfd) close(cur);
      errno = ENOMEM;
      return -1;
    }
    int last = *rest == '\0';
    int next = openat(cur, part,
                      last ? READ_FLAGS | O_NOFOLLOW
                           : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    /* O_NOFOLLOW|O_DIRECTORY on a link says ENOTDIR: name it a link. */
    struct stat sb;
    if (next < 0 && e == ENOTDIR && fstatat(cur, part, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(sb.st_mode)) {
      e = ELOOP;
    }
    onnxshape__free(part);
    if (cur != dirfd) close(cur);
    if (next < 0) {
      errno = e;
      return -1;
    }
    if (last) return next;
    cur = next;
    p = rest;
  }
}

onnxshape_status onnxshape__open_beneath(int dirfd, const char *relative, const char *dir_shown,
                                         int *fd, struct stat *sb, onnxshape_diag *diag) {
  if (relative[0] == '/') {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                "external data location '{}' is absolute; it must be relative to the model",
                ONNXSHAPE__ARGS(ARG_NAME(relative)));
  }
  /* A `..` component could only lead out of the directory or back into it. */
  for (const char *p = relative; *p != '\0';) {
    const char *end = strchr(p, '/');
    size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                  "external data location '{}' has a '..' component; it must stay inside the "
                  "model directory",
                  ONNXSHAPE__ARGS(ARG_NAME(relative)));
    }
    p += n;
    while (*p == '/') p++;
  }
  int f = -1;
  int e = ENOSYS;
#if defined(__linux__) && defined(SYS_openat2)
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = READ_FLAGS;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  long r = syscall(SYS_openat2, dirfd, relative, &how, sizeof how);
  f = r >= 0 ? (int)r : -1;
  e = r >= 0 ? 0 : errno;
#endif
  /* ENOSYS: no openat2; EPERM: a seccomp filter refusing it. */
  if (f < 0 && (e == ENOSYS || e == EPERM)) {
    f = open_beneath_walk(dirfd, relative);
    e = f < 0 ? errno : 0;
  }
  if (f < 0) {
    if (e == ELOOP || e == EXDEV) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                  "external data location '{}' goes through a symbolic link; links are not "
                  "followed out of or inside the model directory '{}'",
                  ONNXSHAPE__ARGS(ARG_NAME(relative), ARG_NAME(dir_shown)));
    }
    return onnxshape__error(diag, ONNXSHAPE_ERR_IO, "cannot open external data file '{}' in '{}': {}",
                ONNXSHAPE__ARGS(ARG_NAME(relative), ARG_NAME(dir_shown), ARG_STR(strerror(e))));
  }
  onnxshape_status st = require_regular(f, relative, sb, diag);
  if (st == ONNXSHAPE_OK) *fd = f;
  return st;
}

/* ---- reading and mapping ---------------------------------------------------- */

static onnxshape_status changed(onnxshape_diag *diag, const char *shown, uint64_t was,
                                uint64_t now) {
  if (was == now) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_IO, "'{}' was modified while in use", ONNXSHAPE__ARGS(ARG_NAME(shown)));
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_IO, "'{}' changed size while in use ({} bytes, now {})",
              ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(was), ARG_UINT(now)));
}

onnxshape_status onnxshape__read_all(int fd, const struct stat *sb, const char *shown,
                                     unsigned char **bytes, size_t *len, onnxshape_diag *diag) {
  uint64_t size = (uint64_t)sb->st_size;
  if (size >= SIZE_MAX) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "'{}' ({} bytes) is too large for this machine",
                ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(size)));
  }
  unsigned char *b = onnxshape__malloc(size > 0 ? (size_t)size : 1);
  if (b == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "cannot hold '{}' ({} bytes) in memory",
                ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(size)));
  }
  size_t got = 0;
  for (;;) {
    /* Once the size is read, one byte more shows a file that grew. */
    char probe;
    ssize_t n = got < size ? read(fd, b + got, (size_t)size - got) : read(fd, &probe, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      onnxshape__free(b);
      return errno_fail(diag, "read", shown, e);
    }
    if (n == 0) break;
    if (got == size) { /* it grew */
      onnxshape__free(b);
      return changed(diag, shown, size, size + 1);
    }
    got += (size_t)n;
  }
  if (got != size) {
    onnxshape__free(b);
    return changed(diag, shown, size, got);
  }
  *bytes = b;
  *len = (size_t)size;
  return ONNXSHAPE_OK;
}

/* The live mappings: a region written out is copied from its file (never
 * read through the mapping, which would bring every page into memory). */
typedef struct live_map {
  const unsigned char *base;
  size_t len;
  int fd;
  uint64_t offset;
  struct live_map *next;
} live_map;

static live_map *live_maps;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

onnxshape_status onnxshape__map_region(int fd, const struct stat *sb, uint64_t offset, size_t len,
                                       const char *shown, onnxshape__map *m,
                                       onnxshape_diag *diag) {
  memset(m, 0, sizeof *m);
  m->fd = -1;
  if (len == 0) {
    close(fd);
    return ONNXSHAPE_OK;
  }
  long page = sysconf(_SC_PAGESIZE);
  uint64_t start = offset - offset % (uint64_t)(page > 0 ? page : 4096);
  uint64_t span = offset - start + len;
  if (span > SIZE_MAX || start > (uint64_t)INT64_MAX) {
    close(fd);
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "'{}': {} bytes at offset {} cannot be mapped",
                ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(len), ARG_UINT(offset)));
  }
  m->name = onnxshape__strndup(shown, SIZE_MAX);
  live_map *l = onnxshape__malloc(sizeof *l);
  void *p = m->name != NULL && l != NULL
                ? mmap(NULL, (size_t)span, PROT_READ, MAP_PRIVATE, fd, (off_t)start)
                : MAP_FAILED;
  if (p == MAP_FAILED) {
    int e = m->name != NULL && l != NULL ? errno : ENOMEM;
    onnxshape__free(l);
    onnxshape__free(m->name);
    m->name = NULL;
    close(fd);
    if (e == ENOMEM) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "cannot map {} bytes of '{}'",
                  ONNXSHAPE__ARGS(ARG_UINT(len), ARG_NAME(shown)));
    }
    return errno_fail(diag, "map", shown, e);
  }
  m->base = p;
  m->len = (size_t)span;
  m->data = (const unsigned char *)p + (offset - start);
  m->fd = fd;
  m->offset = start;
  m->seen = *sb;
  l->base = p;
  l->len = m->len;
  l->fd = fd;
  l->offset = start;
  pthread_mutex_lock(&live_lock);
  l->next = live_maps;
  live_maps = l;
  pthread_mutex_unlock(&live_lock);
  return ONNXSHAPE_OK;
}

void onnxshape__unmap(onnxshape__map *m) {
  if (m->base != NULL) {
    pthread_mutex_lock(&live_lock);
    for (live_map **p = &live_maps; *p != NULL; p = &(*p)->next) {
      if ((*p)->base == m->base) {
        live_map *dead = *p;
        *p = dead->next;
        onnxshape__free(dead);
        break;
      }
    }
    pthread_mutex_unlock(&live_lock);
    munmap(m->base, m->len);
  }
  if (m->fd >= 0) close(m->fd);
  onnxshape__free(m->name);
  memset(m, 0, sizeof *m);
  m->fd = -1;
}

onnxshape_status onnxshape__map_check(const onnxshape__map *m, onnxshape_diag *diag) {
  if (m->base == NULL) return ONNXSHAPE_OK;
  struct stat now;
  if (fstat(m->fd, &now) != 0) return errno_fail(diag, "inspect", m->name, errno);
  if (now.st_size != m->seen.st_size || now.st_mtim.tv_sec != m->seen.st_mtim.tv_sec ||
      now.st_mtim.tv_nsec != m->seen.st_mtim.tv_nsec) {
    return changed(diag, m->name, (uint64_t)m->seen.st_size, (uint64_t)now.st_size);
  }
  return ONNXSHAPE_OK;
}

/* ---- writing --------------------------------------------------------------- */

/* A ProtobufCBuffer that writes through a small staging buffer; large
 * appends (raw_data, .npy data) go straight from the caller's memory, or
 * from their file when they lie in a live mapping. */
struct onnxshape__sink {
  ProtobufCBuffer base;
  int fd;
  int error;    /* errno of the first failure, or 0 */
  int changed;  /* a mapped source file came up short */
  size_t used;
  unsigned char stage[1 << 16];
};
typedef struct onnxshape__sink file_sink;

static int write_all(int fd, const uint8_t *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (w == 0) return EIO;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static void sink_flush(file_sink *s) {
  if (s->error == 0 && s->used > 0) s->error = write_all(s->fd, s->stage, s->used);
  s->used = 0;
}

/* The address in buf (of COPY_ALIGN + more bytes) that has the residue
 * want modulo COPY_ALIGN. */
static unsigned char *at_residue(unsigned char *buf, size_t want) {
  size_t have = (size_t)((uintptr_t)buf % COPY_ALIGN);
  return buf + (want + COPY_ALIGN - have) % COPY_ALIGN;
}

/* Copies the len bytes at data, when they lie in a live mapping, from its
 * file through a buffer: never through the mapping, whose pages would all
 * come into memory (and which raises SIGBUS if the file was cut short; a
 * short pread is reported instead). 0 when data is in no mapping (nothing
 * done).
 *
 * The kernel copies (page cache to buffer, buffer to page cache) run at
 * half speed when source and destination differ in their offset modulo the
 * cache line, as raw_data's place in the input and in the output usually
 * do (16 and 18 bytes into the files): so pread lands at the residue of the
 * input offset, memcpy (fast on any alignment) moves the chunk to the
 * residue of the output offset, and write leaves from there. Measured on
 * 256 MiB: 0.11 s against 0.17-0.21 s for the plain pread/write loop, cp
 * 0.08-0.10 s (docs/performance.md). */
static int copy_from_mapping(file_sink *s, const uint8_t *data, size_t len) {
  int fd_in = -1;
  uint64_t off = 0;
  pthread_mutex_lock(&live_lock);
  for (live_map *l = live_maps; l != NULL; l = l->next) {
    if (data >= l->base && (size_t)(data - l->base) <= l->len &&
        len <= l->len - (size_t)(data - l->base)) {
      fd_in = l->fd;
      off = l->offset + (uint64_t)(data - l->base);
      break;
    }
  }
  pthread_mutex_unlock(&live_lock);
  if (fd_in < 0) return 0;
  size_t chunk = len < COPY_CHUNK ? len : COPY_CHUNK;
  off_t out_pos = lseek(s->fd, 0, SEEK_CUR); /* -1 on a pipe: any residue will do */
  size_t in_res = (size_t)(off % COPY_ALIGN);
  size_t out_res = out_pos < 0 ? in_res : (size_t)((uint64_t)out_pos % COPY_ALIGN);
  int shift = in_res != out_res;
  /* chunk <= COPY_CHUNK, so the sum cannot wrap. */
  unsigned char *buf = onnxshape__malloc((shift ? 2 : 1) * (chunk + COPY_ALIGN));
  if (buf == NULL) return 0; /* the caller writes from memory instead */
  unsigned char *in_at = at_residue(buf, in_res);
  unsigned char *out_at = shift ? at_residue(buf + chunk + COPY_ALIGN, out_res) : in_at;
  while (len > 0 && s->error == 0) {
    size_t want = len < chunk ? len : chunk;
    ssize_t n = pread(fd_in, in_at, want, (off_t)off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) { /* the file shrank under its mapping */
      s->changed = 1;
      s->error = n < 0 ? errno : EIO;
      break;
    }
    if (shift) memcpy(out_at, in_at, (size_t)n);
    s->error = write_all(s->fd, out_at, (size_t)n);
    off += (uint64_t)n;
    len -= (size_t)n;
  }
  onnxshape__free(buf);
  return 1;
}

static void sink_append(ProtobufCBuffer *b, size_t len, const uint8_t *data) {
  file_sink *s = (file_sink *)b;
  /* protobuf-c appends empty fields (an empty raw_data) with data == NULL. */
  if (s->error != 0 || len == 0) return;
  if (len > sizeof s->stage - s->used) {
    sink_flush(s);
    if (len >= sizeof s->stage) {
      if (!copy_from_mapping(s, data, len) && s->error == 0) {
        s->error = write_all(s->fd, data, len);
      }
      return;
    }
  }
  memcpy(s->stage + s->used, data, len);
  s->used += len;
}

onnxshape__sink *onnxshape__sink_new(int fd) {
  file_sink *s = onnxshape__malloc(sizeof *s);
  if (s == NULL) return NULL;
  s->base.append = sink_append;
  s->fd = fd;
  s->error = 0;
  s->changed = 0;
  s->used = 0;
  return s;
}

void onnxshape__sink_append(onnxshape__sink *s, const void *data, size_t len) {
  sink_append(&s->base, len, data);
}

onnxshape_status onnxshape__sink_finish(onnxshape__sink *s, const char *shown,
                                        onnxshape_diag *diag) {
  sink_flush(s);
  int e = s->error, was_changed = s->changed;
  onnxshape__free(s);
  if (was_changed) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_IO,
                "cannot write '{}': the file its data comes from changed size while in use",
                ONNXSHAPE__ARGS(ARG_NAME(shown)));
  }
  if (e != 0) return errno_fail(diag, "write", shown, e);
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__write_message_fd(int fd, const ProtobufCMessage *msg,
                                             const char *shown, onnxshape_diag *diag) {
  file_sink *s = onnxshape__sink_new(fd);
  if (s == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  protobuf_c_message_pack_to_buffer(msg, &s->base);
  return onnxshape__sink_finish(s, shown, diag);
}

static onnxshape_status write_message(int fd, const char *shown, const void *ctx,
                                      onnxshape_diag *diag) {
  return onnxshape__write_message_fd(fd, ctx, shown, diag);
}

onnxshape_status onnxshape__write_message_file(const char *path, const ProtobufCMessage *msg,
                                               onnxshape_diag *diag) {
  return onnxshape__write_file_via(path, write_message, msg, diag);
}

onnxshape_status onnxshape__write_file_via(const char *path, onnxshape__fd_writer writer,
                                           const void *ctx, onnxshape_diag *diag) {
  const char *slash = strrchr(path, '/');
  size_t dir_len = slash == NULL ? 0 : (size_t)(slash - path) + 1;
  static const char pattern[] = ".onnxshape-XXXXXX";
  char *tmp = onnxshape__malloc(dir_len + sizeof pattern);
  if (tmp == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  memcpy(tmp, path, dir_len);
  memcpy(tmp + dir_len, pattern, sizeof pattern);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    onnxshape__free(tmp);
    return errno_fail(diag, "create a file beside", path, e);
  }
  onnxshape_status st = writer(fd, path, ctx, diag);
  if (st == ONNXSHAPE_OK && fchmod(fd, 0644) != 0) st = errno_fail(diag, "write", path, errno);
  if (close(fd) != 0 && st == ONNXSHAPE_OK) st = errno_fail(diag, "write", path, errno);
  if (st == ONNXSHAPE_OK && rename(tmp, path) != 0) st = errno_fail(diag, "write", path, errno);
  if (st != ONNXSHAPE_OK) unlink(tmp);
  onnxshape__free(tmp);
  return st;
}
