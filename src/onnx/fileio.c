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
#include <sys/stat.h>
#include <unistd.h>

#include "../core/internal.h"

#define FAIL(st, ...) onnxshape__fail(diag, st, NULL, 0, __VA_ARGS__)

/* The live mappings whose file descriptor stays open, so that their bytes
 * can be moved file-to-file when written (onnxshape__copy_from_mapping). */
typedef struct live_map {
  const unsigned char *base;
  size_t len;
  int fd;
  struct live_map *next;
} live_map;

static live_map *live_maps;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

onnxshape_status onnxshape__map_file(const char *path, onnxshape__map *m, onnxshape_diag *diag) {
  m->base = NULL;
  m->len = 0;
  m->fd = -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FAIL(ONNXSHAPE_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    close(fd);
    return FAIL(ONNXSHAPE_ERR_IO, "'%s' is not a regular file", path);
  }
  if (sb.st_size > 0) {
    if ((uintmax_t)sb.st_size > SIZE_MAX) {
      close(fd);
      return FAIL(ONNXSHAPE_ERR_IO, "'%s' is too large to map", path);
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      close(fd);
      return FAIL(ONNXSHAPE_ERR_IO, "cannot map '%s': %s", path, strerror(e));
    }
    m->base = p;
    m->len = (size_t)sb.st_size;
    live_map *l = malloc(sizeof *l);
    if (l != NULL) { /* without it, writes just use write() */
      l->base = p;
      l->len = m->len;
      l->fd = fd;
      pthread_mutex_lock(&live_lock);
      l->next = live_maps;
      live_maps = l;
      pthread_mutex_unlock(&live_lock);
      m->fd = fd;
      return ONNXSHAPE_OK;
    }
  }
  close(fd);
  return ONNXSHAPE_OK;
}

void onnxshape__unmap(onnxshape__map *m) {
  if (m->fd >= 0) {
    pthread_mutex_lock(&live_lock);
    for (live_map **p = &live_maps; *p != NULL; p = &(*p)->next) {
      if ((*p)->base == m->base) {
        live_map *dead = *p;
        *p = dead->next;
        free(dead);
        break;
      }
    }
    pthread_mutex_unlock(&live_lock);
    close(m->fd);
  }
  if (m->base != NULL) munmap(m->base, m->len);
  m->base = NULL;
  m->len = 0;
  m->fd = -1;
}

/* Writes len bytes at data, which lie inside a live mapping, to fd_out by
 * copy_file_range from the mapped file (the kernel moves the bytes; they are
 * never faulted into this process). Returns the number of bytes moved: 0
 * when data is in no mapping or the file system cannot do it (the caller
 * then writes the rest itself). */
static size_t copy_from_mapping(int fd_out, const uint8_t *data, size_t len) {
  int fd_in = -1;
  loff_t off = 0;
  pthread_mutex_lock(&live_lock);
  for (live_map *l = live_maps; l != NULL; l = l->next) {
    if (data >= l->base && (size_t)(data - l->base) <= l->len &&
        len <= l->len - (size_t)(data - l->base)) {
      fd_in = l->fd;
      off = (loff_t)(data - l->base);
      break;
    }
  }
  pthread_mutex_unlock(&live_lock);
  if (fd_in < 0) return 0;
  size_t done = 0;
  while (done < len) {
    ssize_t n = copy_file_range(fd_in, &off, fd_out, NULL, len - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; /* EXDEV, ENOSYS, EINVAL...: write() does the rest */
    done += (size_t)n;
  }
  return done;
}

void onnxshape__dirname(const char *path, char *dir, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (slash == NULL) {
    snprintf(dir, cap, ".");
  } else if (slash == path) {
    snprintf(dir, cap, "/");
  } else {
    snprintf(dir, cap, "%.*s", (int)(slash - path), path);
  }
}

onnxshape_status onnxshape__resolve_inside(const char *dir, const char *relative, char *out,
                                           size_t cap, onnxshape_diag *diag) {
  if (relative[0] == '/') {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "external data location '%s' is absolute; it must be relative to the model",
                relative);
  }
  char root[PATH_MAX], joined[PATH_MAX * 2], real[PATH_MAX];
  if (realpath(dir, root) == NULL) {
    return FAIL(ONNXSHAPE_ERR_IO, "cannot resolve directory '%s': %s", dir, strerror(errno));
  }
  snprintf(joined, sizeof joined, "%s/%s", root, relative);
  if (realpath(joined, real) == NULL) {
    return FAIL(ONNXSHAPE_ERR_IO, "external data file '%s' not found in '%s': %s", relative, dir,
                strerror(errno));
  }
  size_t n = strlen(root);
  int inside = strncmp(real, root, n) == 0 && (real[n] == '/' || (n == 1 && root[0] == '/'));
  if (!inside) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "external data location '%s' resolves outside the model directory", relative);
  }
  if (strlen(real) + 1 > cap) return FAIL(ONNXSHAPE_ERR_IO, "path too long: '%s'", real);
  memcpy(out, real, strlen(real) + 1);
  return ONNXSHAPE_OK;
}

/* A ProtobufCBuffer that writes through a small staging buffer; large
 * appends (raw_data) go straight from the caller's memory to the file. */
typedef struct file_sink {
  ProtobufCBuffer base;
  int fd;
  int failed;
  size_t used;
  unsigned char stage[1 << 16];
} file_sink;

static int write_all(int fd, const uint8_t *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return 0;
    }
    p += w;
    n -= (size_t)w;
  }
  return 1;
}

static void sink_flush(file_sink *s) {
  if (!s->failed && s->used > 0 && !write_all(s->fd, s->stage, s->used)) s->failed = 1;
  s->used = 0;
}

static void sink_append(ProtobufCBuffer *b, size_t len, const uint8_t *data) {
  file_sink *s = (file_sink *)b;
  /* protobuf-c appends empty fields (an empty raw_data) with data == NULL. */
  if (s->failed || len == 0) return;
  if (len > sizeof s->stage - s->used) {
    sink_flush(s);
    if (len >= sizeof s->stage) {
      /* Large payloads: file-to-file when they are a region of a mapped
       * input, else straight from their memory. */
      size_t moved = len >= (1u << 20) ? copy_from_mapping(s->fd, data, len) : 0;
      if (!write_all(s->fd, data + moved, len - moved)) s->failed = 1;
      return;
    }
  }
  memcpy(s->stage + s->used, data, len);
  s->used += len;
}

onnxshape_status onnxshape__write_message_file(const char *path, const ProtobufCMessage *msg,
                                               onnxshape_diag *diag) {
  char dir[PATH_MAX], tmp[PATH_MAX + 32];
  onnxshape__dirname(path, dir, sizeof dir);
  snprintf(tmp, sizeof tmp, "%s/.onnxshape-XXXXXX", dir);
  int fd = mkstemp(tmp);
  if (fd < 0) return FAIL(ONNXSHAPE_ERR_IO, "cannot create a file in '%s': %s", dir, strerror(errno));
  file_sink *s = malloc(sizeof *s);
  if (s == NULL) {
    close(fd);
    unlink(tmp);
    return FAIL(ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory");
  }
  s->base.append = sink_append;
  s->fd = fd;
  s->failed = 0;
  s->used = 0;
  protobuf_c_message_pack_to_buffer(msg, &s->base);
  sink_flush(s);
  int failed = s->failed;
  free(s);
  (void)fchmod(fd, 0644);
  if (close(fd) != 0) failed = 1;
  if (failed || rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return FAIL(ONNXSHAPE_ERR_IO, "cannot write '%s': %s", path, strerror(e));
  }
  return ONNXSHAPE_OK;
}
