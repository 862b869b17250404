/* SPDX-License-Identifier: Apache-2.0 */
/* Writing NumPy .npy files (docs/npy.md): byte for byte what NumPy's
 * np.save writes. */
#include <stdint.h>
#include <string.h>

#include "../core/le.h"
#include "alloc.h"
#include "fileio.h"
#include "npy.h"

/* ---- writing ---------------------------------------------------------------- */

/* What is written: the header (magic to newline) and the element layout. */
typedef struct npy_plan {
  const onnxshape_tensor *t;
  unsigned char *header; /* heap */
  size_t header_len;
  size_t n;     /* elements */
  size_t bytes; /* data bytes of a numeric tensor */
  size_t width; /* bytes per string element ('|S<width>') */
  char descr[24];
} npy_plan;

/* A plain allocation failed while writing: "cannot write '<file>': " and
 * onnxshape__out_of_memory's wording, as npy_no_memory words it for
 * reading. */
static onnxshape_status write_no_memory(const char *shown, onnxshape_diag *diag) {
  onnxshape_diag inner;
  onnxshape_status st = onnxshape__npy_no_memory_text(NULL, NULL, &inner);
  return onnxshape__error(diag, st, "cannot write '{}': {}",
                          ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_TEXT(inner.message)));
}

/* Decimal digits of v into d (at least 20 bytes); returns their count. */
static size_t decimal(char *d, uint64_t v) {
  char tmp[20];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + (v % 10u));
    v /= 10u;
  } while (v != 0u);
  for (size_t i = 0; i < n; i++) d[i] = tmp[n - 1u - i];
  return n;
}

/* The descr NumPy writes for row d ('|' or '<', the kind, the size; for
 * 'S' the string width) into out; assumes width >= 1 when d's size is 0. */
static void descr_text(char out[24], const npy_dtype *d, size_t width) {
  out[0] = d->unit == 1u ? '|' : '<';
  out[1] = d->kind;
  out[2 + decimal(out + 2, d->size != 0u ? d->size : width)] = '\0';
}

/* The header's dict as numpy 1.24 writes it (keys sorted, repr of the shape
 * tuple, then spare spaces for the first axis to grow), into out, or only
 * measured when out is NULL; its length. The caller has checked that the
 * length fits size_t. */
static size_t dict_text(char *out, const char *descr, const onnxshape_tensor *t) {
  size_t n = 0;
  char num[20];
#define NPY_PUT(p, k)                           \
  do {                                          \
    if (out != NULL) memcpy(out + n, (p), (k)); \
    n += (k);                                   \
  } while (0)
  NPY_PUT("{'descr': '", 11u);
  NPY_PUT(descr, strlen(descr));
  NPY_PUT("', 'fortran_order': False, 'shape': (", 37u);
  for (size_t i = 0; i < t->rank; i++) {
    if (i > 0u) NPY_PUT(", ", 2u);
    NPY_PUT(num, decimal(num, (uint64_t)t->dims[i]));
  }
  if (t->rank == 1u) NPY_PUT(",", 1u);
  NPY_PUT("), }", 4u);
  if (t->rank > 0u) {
    size_t digits = decimal(num, (uint64_t)t->dims[0]);
    for (size_t i = digits; i < NPY_GROWTH_DIGITS; i++) NPY_PUT(" ", 1u);
  }
#undef NPY_PUT
  return n;
}

/* Builds the whole header: version 1.0 when its length fits 2 bytes, else
 * 2.0; spaces and a newline so that the data starts at a multiple of 64. */
static onnxshape_status build_header(npy_plan *p, const char *shown, onnxshape_diag *diag) {
  /* A dim takes at most 21 bytes (", " and 19 digits). */
  if (p->t->rank > (SIZE_MAX - 256u) / 21u) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW,
                            "cannot write '{}': a .npy header for {} dims does not fit in memory",
                            ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(p->t->rank)));
  }
  size_t text = dict_text(NULL, p->descr, p->t);
  size_t line = text + 1u; /* the newline */
  size_t prefix = 10u;
  size_t pad = NPY_ALIGN - (prefix + line) % NPY_ALIGN;
  if (line + pad > 65535u) {
    prefix = 12u;
    pad = NPY_ALIGN - (prefix + line) % NPY_ALIGN;
  }
  if ((uint64_t)line + pad > UINT32_MAX || line + pad > SIZE_MAX - prefix) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW,
                            "cannot write '{}': its .npy header for {} dims would pass 4 GiB",
                            ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(p->t->rank)));
  }
  size_t total = prefix + line + pad;
  unsigned char *h = onnxshape__malloc(total);
  if (h == NULL) return write_no_memory(shown, diag);
  memcpy(h, onnxshape__npy_magic_bytes, sizeof onnxshape__npy_magic_bytes);
  h[6] = prefix == 10u ? 1u : 2u;
  h[7] = 0;
  onnxshape__store_le(h + 8, (uint64_t)(line + pad), prefix == 10u ? 2u : 4u);
  (void)dict_text((char *)h + prefix, p->descr, p->t);
  memset(h + prefix + text, ' ', pad);
  h[total - 1u] = '\n';
  p->header = h;
  p->header_len = total;
  return ONNXSHAPE_OK;
}

/* The element count p->n and the data bytes p->bytes of p->t (not NULL,
 * dims not NULL unless rank 0, type known); an error when a dim is
 * negative, a count overflows or the tensor holds fewer bytes. */
static onnxshape_status plan_size(npy_plan *p, const char *shown, onnxshape_diag *diag) {
  const onnxshape_tensor *t = p->t;
  int64_t n;
  onnxshape_status st = onnxshape_dims_count(t->dims, t->rank, &n);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__error(
        diag, st, "cannot write '{}': {}",
        ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_STR(st == ONNXSHAPE_ERR_NEGATIVE_DIM
                                                     ? "a dim is negative"
                                                     : "the element count overflows int64")));
  }
  size_t bytes;
  if (onnxshape_type_storage_bytes(t->type, n, &bytes) != ONNXSHAPE_OK) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW,
                            "cannot write '{}': {} elements do not fit in memory",
                            ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_INT(n)));
  }
  if (t->data_bytes < bytes || (t->data == NULL && bytes > 0u)) {
    return onnxshape__error(
        diag, ONNXSHAPE_ERR_DATA_SIZE,
        "cannot write '{}': the tensor holds {} bytes; its dims need {}",
        ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(t->data_bytes), ARG_UINT(bytes)));
  }
  p->n = (size_t)n; /* n elements lie in memory */
  p->bytes = bytes;
  return ONNXSHAPE_OK;
}

/* OK when each of the p->n bools of p->t (in memory: plan_size) is 0 or 1,
 * which .npy readers (this one too) take, else the first other one. */
static onnxshape_status check_write_bools(const npy_plan *p, const char *shown,
                                          onnxshape_diag *diag) {
  const unsigned char *b = p->t->data;
  for (size_t i = 0; i < p->n; i++) {
    if (b[i] > 1u) {
      return onnxshape__error(
          diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
          "cannot write '{}': bool element {} is {}; a .npy bool must be 0 or 1",
          ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(i), ARG_UINT(b[i])));
    }
  }
  return ONNXSHAPE_OK;
}

/* The width of '|S<width>' into p->width: the longest of the p->n strings
 * of p->t (in memory: plan_size), at least 1 as numpy makes it; their
 * total bytes into *text (at most the memory they are in). An error for a
 * string with a length but no data, or ending in a NUL, which numpy drops
 * (elements are NUL-padded), so it would not come back. */
static onnxshape_status string_width(npy_plan *p, const char *shown, uint64_t *text,
                                     onnxshape_diag *diag) {
  const onnxshape_string *s = p->t->data;
  p->width = 1;
  *text = 0;
  for (size_t i = 0; i < p->n; i++) {
    *text += s[i].length;
    if (s[i].length > 0u && s[i].data == NULL) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "cannot write '{}': string element {} has {} bytes but no data",
                              ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(i), ARG_UINT(s[i].length)));
    }
    if (s[i].length > 0u && s[i].data[s[i].length - 1u] == '\0') {
      return onnxshape__error(
          diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
          "cannot write '{}' as .npy: string element {} ends in a NUL byte, which "
          "NumPy drops ('S' strings are NUL-padded); write a TensorProto .pb instead",
          ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(i)));
    }
    if (s[i].length > p->width) p->width = s[i].length;
  }
  return ONNXSHAPE_OK;
}

/* p->width for a string tensor (string_width), and OK when the strings
 * padded to it stay within NPY-WRITE's bound: padding to the longest can
 * make a small tensor a huge file (a million empty strings and one of a
 * megabyte: a terabyte), so the file may take at most 16 times the text
 * plus 64 MiB. */
static onnxshape_status plan_strings(npy_plan *p, const char *shown, onnxshape_diag *diag) {
  uint64_t text;
  onnxshape_status st = string_width(p, shown, &text, diag);
  if (st != ONNXSHAPE_OK) return st;
  if (p->n > 0u && p->width > UINT64_MAX / p->n) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW,
                            "cannot write '{}': {} strings padded to {} bytes pass 2^64 bytes",
                            ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(p->n), ARG_UINT(p->width)));
  }
  uint64_t padded = (uint64_t)p->n * p->width;
  if (padded > 64u * 1024u * 1024u && (padded - 64u * 1024u * 1024u) / 16u > text) {
    return onnxshape__error(
        diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
        "cannot write '{}' as .npy: {} strings padded to the longest ({} bytes) take {} "
        "bytes for {} bytes of text, more than 16 times the text plus 64 MiB; write a "
        "TensorProto .pb instead",
        ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(p->n), ARG_UINT(p->width), ARG_UINT(padded),
                        ARG_UINT(text)));
  }
  return ONNXSHAPE_OK;
}

/* The plan for writing t as .npy into *p (its header in p->header, to
 * free with onnxshape__free even on failure); an error naming `shown` when
 * t cannot be written as .npy or NumPy would not read it back the same. */
static onnxshape_status plan_npy(const onnxshape_tensor *t, const char *shown, npy_plan *p,
                                 onnxshape_diag *diag) {
  memset(p, 0, sizeof *p);
  p->t = t;
  if (t == NULL || (t->dims == NULL && t->rank > 0u)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "tensor_write_npy: NULL tensor or dims", ONNXSHAPE__NO_ARGS);
  }
  if (onnxshape_type_get(t->type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                            "cannot write '{}': element type {} is unknown",
                            ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_INT(t->type)));
  }
  const npy_dtype *dtype = onnxshape__npy_dtype_of_type(t->type);
  if (dtype == NULL) {
    return onnxshape__error(
        diag, ONNXSHAPE_ERR_UNKNOWN_TYPE,
        "cannot write '{}' as .npy: NumPy has no {} type; write a TensorProto .pb "
        "instead",
        ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_STR(onnxshape_type_name(t->type))));
  }
  onnxshape_status st = plan_size(p, shown, diag);
  if (st == ONNXSHAPE_OK && t->type == ONNXSHAPE_TYPE_BOOL) st = check_write_bools(p, shown, diag);
  if (st == ONNXSHAPE_OK && t->type == ONNXSHAPE_TYPE_STRING) st = plan_strings(p, shown, diag);
  if (st != ONNXSHAPE_OK) return st;
  descr_text(p->descr, dtype, p->width);
  return build_header(p, shown, diag);
}

static onnxshape_status write_planned(int fd, const char *shown, const void *ctx,
                                      onnxshape_diag *diag) {
  const npy_plan *p = ctx;
  onnxshape__sink *s = onnxshape__sink_new(fd);
  if (s == NULL) return write_no_memory(shown, diag);
  onnxshape__sink_append(s, p->header, p->header_len);
  if (p->t->type != ONNXSHAPE_TYPE_STRING) {
    /* Copied from its file when it lies in a live mapping. */
    onnxshape__sink_append(s, p->t->data, p->bytes);
  } else {
    static const unsigned char zeros[256];
    const onnxshape_string *str = p->t->data;
    for (size_t i = 0; i < p->n; i++) {
      onnxshape__sink_append(s, str[i].data, str[i].length);
      for (size_t pad = p->width - str[i].length; pad > 0u;) {
        size_t k = pad < sizeof zeros ? pad : sizeof zeros;
        onnxshape__sink_append(s, zeros, k);
        pad -= k;
      }
    }
  }
  return onnxshape__sink_finish(s, shown, diag);
}

/* Plans t and writes it into path through a temporary file and a rename,
 * or into fd when path is NULL (`shown` naming it); frees the plan, and
 * clears diag on success. Assumes the arguments checked. */
static onnxshape_status plan_and_write(int fd, const char *path, const char *shown,
                                       const onnxshape_tensor *t, onnxshape_diag *diag) {
  npy_plan p;
  onnxshape_status st = plan_npy(t, shown, &p, diag);
  if (st == ONNXSHAPE_OK) {
    st = path != NULL ? onnxshape__write_file_via(path, write_planned, &p, diag)
                      : write_planned(fd, shown, &p, diag);
  }
  onnxshape__free(p.header);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape_tensor_write_npy_fd(int fd, const char *shown, const onnxshape_tensor *t,
                                               onnxshape_diag *diag) {
  if (fd < 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_write_npy_fd: no file",
                            ONNXSHAPE__NO_ARGS);
  }
  return plan_and_write(fd, NULL, shown != NULL ? shown : "the output", t, diag);
}

onnxshape_status onnxshape_tensor_write_npy_file(const char *path, const onnxshape_tensor *t,
                                                 onnxshape_diag *diag) {
  if (path == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "tensor_write_npy_file: NULL path", ONNXSHAPE__NO_ARGS);
  }
  return plan_and_write(-1, path, path, t, diag);
}
