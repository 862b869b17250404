/* SPDX-License-Identifier: Apache-2.0 */
/* Reading NumPy .npy files (docs/npy.md): the header, then the data, to a
 * tensor in its own arena; big-endian and Fortran-order data converted. */
#include <stdint.h>
#include <string.h>

#include "../core/le.h"
#include "alloc.h"
#include "fileio.h"
#include "npy.h"

/* ---- reading: context and messages ---------------------------------------- */

typedef struct npy_reader {
  const unsigned char *b; /* the whole file */
  size_t len;
  const char *shown; /* the file's name, or NULL for bytes in memory */
  onnxshape_diag *diag;
  onnxshape__arena *arena;
} npy_reader;

/* "'<file>': <what>" (".npy data: <what>" for bytes in memory). */
static onnxshape_status npy_fail(const npy_reader *r, onnxshape_status st, const char *fmt,
                                 const onnxshape__arg *args, size_t n_args) {
  if (r->diag == NULL) return st;
  char what[ONNXSHAPE_DIAG_SIZE];
  (void)onnxshape__format(what, sizeof what, fmt, args, n_args);
  if (r->shown != NULL) {
    return onnxshape__error(r->diag, st, "'{}': {}",
                            ONNXSHAPE__ARGS(ARG_NAME(r->shown), ARG_TEXT(what)));
  }
  return onnxshape__error(r->diag, st, ".npy data: {}", ONNXSHAPE__ARGS(ARG_TEXT(what)));
}

/* An arena allocation failed: the memory limit, or the machine's memory
 * (worded by onnxshape__out_of_memory, after the file's name). */
static onnxshape_status npy_no_memory(const npy_reader *r) {
  char doing[64];
  onnxshape_diag inner;
  (void)onnxshape__format(doing, sizeof doing, "reading its {} bytes",
                          ONNXSHAPE__ARGS(ARG_UINT(r->len)));
  onnxshape_status st = onnxshape__npy_no_memory_text(r->arena, doing, &inner);
  return npy_fail(r, st, "{}", ONNXSHAPE__ARGS(ARG_TEXT(inner.message)));
}

/* A mapped file rewritten while it was read: what a second pass over its
 * bytes found differs from the first. */
static onnxshape_status changed_while_read(const npy_reader *r) {
  return npy_fail(r, ONNXSHAPE_ERR_IO, "the file changed while it was read", ONNXSHAPE__NO_ARGS);
}

/* n items of `size` bytes from the arena, or NULL (also when n * size
 * overflows). */
static void *npy_alloc(npy_reader *r, size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size) {
    r->arena->over_limit = 1;
    return NULL;
  }
  return onnxshape__arena_alloc(r->arena, n * size);
}

/* The n bytes at p (printable ASCII: quoted() took them) as a
 * NUL-terminated string for messages: whole up to 64 bytes, else the first
 * and last 30 around "...", as ARG_NAME shortens a name. */
static void clip(char dst[72], const unsigned char *p, size_t n) {
  if (n <= 64u) {
    memcpy(dst, p, n);
    dst[n] = '\0';
    return;
  }
  memcpy(dst, p, 30);
  memcpy(dst + 30, "...", 3);
  memcpy(dst + 33, p + n - 30u, 30);
  dst[63] = '\0';
}

/* ---- reading: the header -------------------------------------------------- */

/* What the header says. */
typedef struct npy_header {
  unsigned major; /* format version 1, 2 or 3 */
  size_t data_at; /* file offset of the data */
  /* descr */
  char descr[72]; /* as written (clipped), for messages */
  int32_t type;   /* the ONNX element type */
  char kind;      /* 'S' bytes, 'U' UTF-32, 'n' numeric */
  size_t item;    /* bytes per element in the file */
  size_t unit;    /* bytes per value whose order swap reverses */
  int swap;       /* big-endian values */
  int fortran;    /* fortran_order */
  /* shape */
  size_t shape_at; /* file offset of the shape's '(' */
  size_t rank;
} npy_header;

typedef struct cursor {
  const unsigned char *p, *end;
  const unsigned char *file; /* for offsets in messages */
} cursor;

static size_t at_of(const cursor *c) {
  return (size_t)(c->p - c->file);
}

/* Python's whitespace between tokens (inside braces a newline is too). */
static void skip_space(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
    c->p++;
  }
}

static int peek(const cursor *c, unsigned char ch) {
  return c->p < c->end && *c->p == ch;
}

/* What the cursor is at, for messages: the character, or "the end". */
static void seen(const cursor *c, char out[16]) {
  if (c->p >= c->end) {
    memcpy(out, "the end", 8);
  } else if (*c->p >= 0x20u && *c->p < 0x7fu && *c->p != '\'') {
    out[0] = '\'';
    out[1] = (char)*c->p;
    out[2] = '\'';
    out[3] = '\0';
  } else {
    static const char hex[] = "0123456789abcdef";
    memcpy(out, "byte 0x", 7);
    out[7] = hex[*c->p >> 4];
    out[8] = hex[*c->p & 0xfu];
    out[9] = '\0';
  }
}

static onnxshape_status expected(const npy_reader *r, const cursor *c, const char *what) {
  char got[16];
  seen(c, got);
  return npy_fail(r, ONNXSHAPE_ERR_MALFORMED, "header: expected {} at byte {}, found {}",
                  ONNXSHAPE__ARGS(ARG_STR(what), ARG_UINT(at_of(c)), ARG_STR(got)));
}

/* A quoted string ('...' or "..."): printable ASCII, no escapes. */
static onnxshape_status quoted(const npy_reader *r, cursor *c, const unsigned char **s, size_t *n) {
  if (!peek(c, '\'') && !peek(c, '"')) return expected(r, c, "a quoted string");
  unsigned char q = *c->p++;
  *s = c->p;
  while (c->p < c->end && *c->p != q) {
    if (*c->p < 0x20u || *c->p >= 0x7fu || *c->p == '\\') {
      return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                      "header: byte {} in a string is a control character, a backslash or not "
                      "ASCII",
                      ONNXSHAPE__ARGS(ARG_UINT(at_of(c))));
    }
    c->p++;
  }
  if (c->p >= c->end) return expected(r, c, "the string's closing quote");
  *n = (size_t)(c->p - *s);
  c->p++;
  return ONNXSHAPE_OK;
}

static int is_word(const cursor *c, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return 0;
  if ((size_t)(c->end - c->p) == n) return 1;
  unsigned char next = c->p[n];
  return !((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
           (next >= '0' && next <= '9') || next == '_');
}

/* One dim of the shape: decimal digits (no sign, no leading zero), at most
 * INT64_MAX; in versions 1.0 and 2.0 an 'L' may follow, as Python 2 wrote
 * long integers (numpy reads it). A '-' gives the negative-dim message. */
static onnxshape_status shape_dim(const npy_reader *r, cursor *c, unsigned major, size_t i,
                                  int64_t *v) {
  int negative = peek(c, '-');
  if (negative) c->p++;
  if (!(c->p < c->end && *c->p >= '0' && *c->p <= '9')) return expected(r, c, "a dimension");
  const unsigned char *start = c->p;
  uint64_t x = 0;
  int too_large = 0;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    unsigned d = (unsigned)(*c->p - '0');
    if (x > ((uint64_t)INT64_MAX - d) / 10u) too_large = 1;
    if (!too_large) x = x * 10u + d;
    c->p++;
  }
  if (*start == '0' && c->p - start > 1) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "header: shape[{}] at byte {} has a leading zero, which Python does not allow",
                    ONNXSHAPE__ARGS(ARG_UINT(i), ARG_UINT((size_t)(start - c->file))));
  }
  if (major < 3u && (peek(c, 'L') || peek(c, 'l'))) c->p++;
  if (too_large) {
    return npy_fail(r, ONNXSHAPE_ERR_OVERFLOW, "shape[{}] is larger than int64 allows ({})",
                    ONNXSHAPE__ARGS(ARG_UINT(i), ARG_INT(INT64_MAX)));
  }
  if (negative && x != 0u) {
    return npy_fail(r, ONNXSHAPE_ERR_INVALID_TENSOR, "shape[{}] = -{} is negative",
                    ONNXSHAPE__ARGS(ARG_UINT(i), ARG_UINT(x)));
  }
  *v = (int64_t)x;
  return ONNXSHAPE_OK;
}

/* The shape: a tuple of dims, `()`, `(3,)` or `(2, 3)` (a trailing comma is
 * allowed; `(3)` is a number in Python, not a tuple). Counts the dims into
 * *rank, and stores them when dims is not NULL. */
static onnxshape_status shape_tuple(const npy_reader *r, cursor *c, unsigned major, int64_t *dims,
                                    size_t cap, size_t *rank) {
  if (!peek(c, '(')) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "header: the value of 'shape' at byte {} is not a tuple such as (2, 3)",
                    ONNXSHAPE__ARGS(ARG_UINT(at_of(c))));
  }
  c->p++;
  skip_space(c);
  size_t n = 0;
  int comma = 0;
  while (!peek(c, ')')) {
    int64_t v = 0;
    onnxshape_status st = shape_dim(r, c, major, n, &v);
    if (st != ONNXSHAPE_OK) return st;
    if (dims != NULL) {
      /* A mapped file rewritten between the two passes may hold more dims
       * now than the first pass counted. */
      if (n >= cap) return changed_while_read(r);
      dims[n] = v;
    }
    n++;
    skip_space(c);
    comma = peek(c, ',');
    if (comma) {
      c->p++;
      skip_space(c);
    } else if (!peek(c, ')')) {
      return expected(r, c, "',' or ')' in the shape");
    }
  }
  if (n == 1 && !comma) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "header: the shape at byte {} is a number in parentheses, not a tuple; "
                    "one dimension is written (n,)",
                    ONNXSHAPE__ARGS(ARG_UINT(at_of(c))));
  }
  c->p++;
  *rank = n;
  return ONNXSHAPE_OK;
}

/* Parses a decimal element size: digits only, no leading zero; 0 when
 * there are none or they do not fit. */
static int descr_size(const char *s, uint64_t *v) {
  if (s[0] == '0' && s[1] != '\0') return 0;
  return onnxshape__parse_u64(s, v);
}

/* A descr split into its parts: the byte order mark ('<', '>', '|', '='
 * or '\0' for none), the kind letter ('\0' for none) and the size after it
 * (sized: digits only, no leading zero, fitting uint64); bare when nothing
 * follows the kind. */
typedef struct descr_parts {
  char order;
  char kind;
  int sized;
  int bare;
  uint64_t size;
} descr_parts;

/* The parts of the descr of n bytes at s (any bytes; a descr of 24 bytes or
 * more, longer than any type read here, has neither order nor kind). */
static descr_parts split_descr(const unsigned char *s, size_t n) {
  descr_parts p = {'\0', '\0', 0, 0, 0};
  char d[24]; /* the text, NUL-terminated */
  if (n >= sizeof d) return p;
  memcpy(d, s, n);
  d[n] = '\0';
  if (d[0] != '\0' && strchr("<>|=", d[0]) != NULL) p.order = d[0];
  const char *rest = d + (p.order != '\0');
  p.kind = rest[0];
  if (p.kind != '\0') {
    p.bare = rest[1] == '\0';
    p.sized = descr_size(rest + 1, &p.size);
  }
  return p;
}

/* ERR_UNKNOWN_TYPE naming descr `name` when its kind is one NumPy has and
 * ONNX lacks (object, datetime, void, long double), else OK. */
static onnxshape_status refuse_kind(const npy_reader *r, const char *name, const descr_parts *p) {
  char kind = p->kind;
  if (kind == 'O') {
    return npy_fail(r, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                    "descr '{}' is an object array (pickled Python objects), which is never "
                    "unpickled; " NPY_SUGGEST,
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  if (kind == 'M' || kind == 'm') {
    return npy_fail(r, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                    "descr '{}' is a datetime64 or timedelta64 array, which has no ONNX type; "
                    "convert it to int64 or " NPY_SUGGEST,
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  if (kind == 'V') {
    return npy_fail(r, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                    "descr '{}' is a void (raw bytes) type, which has no ONNX type; " NPY_SUGGEST,
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  uint64_t size = p->sized ? p->size : 0u;
  if (((kind == 'g' || kind == 'G') && p->bare) ||
      (kind == 'f' && (size == 10u || size == 12u || size == 16u)) ||
      (kind == 'c' && (size == 20u || size == 24u || size == 32u))) {
    return npy_fail(r, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                    "descr '{}' is a long double (extended precision), which has no ONNX type; "
                    "convert it to float64 or " NPY_SUGGEST,
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  return ONNXSHAPE_OK;
}

/* The type, kind, element and value sizes of descr `name` into h, from its
 * row of the dtype table (npy.h); ERR_UNKNOWN_TYPE when it has none, ERR_MALFORMED or
 * ERR_OVERFLOW for a string size of 0 or past memory. */
static onnxshape_status descr_dtype(const npy_reader *r, const char *name, const descr_parts *p,
                                    npy_header *h) {
  const npy_dtype *dt = p->sized ? onnxshape__npy_dtype_of_descr(p->kind, p->size) : NULL;
  if (dt == NULL) {
    return npy_fail(r, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                    "descr '{}' is not a type onnxshape reads (b1, i1 to i8, u1 to u8, f2, f4, "
                    "f8, c8, c16, S, U); " NPY_SUGGEST,
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  h->type = dt->type;
  h->unit = dt->unit;
  if (dt->size != 0u) {
    h->kind = 'n';
    h->item = dt->size;
    return ONNXSHAPE_OK;
  }
  /* 'S' or 'U': the size counts characters of dt->unit bytes. */
  if (p->size == 0u) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "descr '{}' has elements of no characters, which NumPy never writes",
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  if (p->size > SIZE_MAX / 4u) {
    return npy_fail(r, ONNXSHAPE_ERR_OVERFLOW, "descr '{}': its elements do not fit in memory",
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  h->kind = p->kind;
  h->item = (size_t)p->size * dt->unit;
  return ONNXSHAPE_OK;
}

/* h->swap from the byte order mark of descr `name`; ERR_MALFORMED when a
 * type of wider values (h->unit > 1, set by descr_dtype) has no '<' or
 * '>': only a type of one-byte values may leave the order open. */
static onnxshape_status descr_order(const npy_reader *r, const char *name, char order,
                                    npy_header *h) {
  if (h->unit > 1u && (order == '\0' || order == '=')) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "descr '{}' gives no byte order (native to the machine that wrote it); "
                    "NumPy writes '<' or '>' into files; save it again with one, or " NPY_SUGGEST,
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  if (h->unit > 1u && order == '|') {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "descr '{}': '|' (no byte order) is only for one-byte types; NumPy writes "
                    "'<' or '>' for this one",
                    ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  h->swap = h->unit > 1u && order == '>';
  return ONNXSHAPE_OK;
}

/* The dtype of the descr of n bytes at s (printable ASCII: quoted() took
 * them) into h: h->descr (clipped, for messages), type, kind, sizes and
 * byte order; an error naming the descr when onnxshape does not read it. */
static onnxshape_status classify_descr(const npy_reader *r, const unsigned char *s, size_t n,
                                       npy_header *h) {
  clip(h->descr, s, n);
  descr_parts p = split_descr(s, n);
  onnxshape_status st = refuse_kind(r, h->descr, &p);
  if (st == ONNXSHAPE_OK) st = descr_dtype(r, h->descr, &p, h);
  if (st == ONNXSHAPE_OK) st = descr_order(r, h->descr, p.order, h);
  return st;
}

enum { KEY_DESCR, KEY_FORTRAN, KEY_SHAPE, KEY_COUNT };
static const char *const npy_keys[KEY_COUNT] = {"descr", "fortran_order", "shape"};

/* The value of one key. */
static onnxshape_status header_value(const npy_reader *r, cursor *c, int key, npy_header *h) {
  if (key == KEY_DESCR) {
    if (peek(c, '[')) {
      return npy_fail(r, ONNXSHAPE_ERR_UNKNOWN_TYPE,
                      "descr is a list: a structured dtype (named fields), which has no ONNX "
                      "type; save each field as its own array, or " NPY_SUGGEST,
                      ONNXSHAPE__NO_ARGS);
    }
    const unsigned char *s;
    size_t n;
    onnxshape_status st = quoted(r, c, &s, &n);
    return st != ONNXSHAPE_OK ? st : classify_descr(r, s, n, h);
  }
  if (key == KEY_FORTRAN) {
    if (is_word(c, "True") || is_word(c, "False")) {
      h->fortran = *c->p == 'T';
      c->p += h->fortran ? 4 : 5;
      return ONNXSHAPE_OK;
    }
    return expected(r, c, "True or False for 'fortran_order'");
  }
  h->shape_at = at_of(c);
  return shape_tuple(r, c, h->major, NULL, 0, &h->rank);
}

/* The preamble: magic, version and header length. Sets h->major and
 * h->data_at (where the data starts, within the file) and *start (where
 * the header's dict text starts); an error when the file is not .npy, is
 * of another version or is cut short. */
static onnxshape_status parse_preamble(const npy_reader *r, npy_header *h, size_t *start) {
  if (!onnxshape__npy_magic(r->b, r->len)) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "not a .npy file (it does not start with \\x93NUMPY)", ONNXSHAPE__NO_ARGS);
  }
  if (r->len < 8u) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED, "the file ends in its version ({} bytes)",
                    ONNXSHAPE__ARGS(ARG_UINT(r->len)));
  }
  unsigned major = r->b[6], minor = r->b[7];
  if (major < 1u || major > 3u || minor != 0u) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "format version {}.{} is not one onnxshape reads (1.0, 2.0 and 3.0)",
                    ONNXSHAPE__ARGS(ARG_UINT(major), ARG_UINT(minor)));
  }
  h->major = major;
  unsigned width = major == 1u ? 2u : 4u;
  *start = 8u + width;
  if (r->len < *start) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "the file ends in its header length ({} bytes; version {}.0 needs {} before "
                    "the header)",
                    ONNXSHAPE__ARGS(ARG_UINT(r->len), ARG_UINT(major), ARG_UINT(*start)));
  }
  uint64_t hlen = onnxshape__load_le(r->b + 8, width);
  if (hlen > (uint64_t)(r->len - *start)) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "the header length {} runs past the end of the file ({} bytes)",
                    ONNXSHAPE__ARGS(ARG_UINT(hlen), ARG_UINT(r->len)));
  }
  h->data_at = *start + (size_t)hlen;
  return ONNXSHAPE_OK;
}

/* The key the cursor is at (a quoted string), as KEY_DESCR, KEY_FORTRAN
 * or KEY_SHAPE in *key, marked in have[]; an error for any other key or
 * one already in have[]. Assumes the cursor past any spaces. */
static onnxshape_status header_key(const npy_reader *r, cursor *c, int have[KEY_COUNT], int *key) {
  const unsigned char *k;
  size_t kn;
  onnxshape_status st = quoted(r, c, &k, &kn);
  if (st != ONNXSHAPE_OK) return st;
  *key = KEY_COUNT;
  for (int i = 0; i < KEY_COUNT; i++) {
    if (strlen(npy_keys[i]) == kn && memcmp(npy_keys[i], k, kn) == 0) *key = i;
  }
  if (*key == KEY_COUNT) {
    char text[72];
    clip(text, k, kn);
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED,
                    "header: unknown key '{}' (a header has descr, fortran_order and shape)",
                    ONNXSHAPE__ARGS(ARG_NAME(text)));
  }
  if (have[*key]) {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED, "header: key '{}' is given twice",
                    ONNXSHAPE__ARGS(ARG_STR(npy_keys[*key])));
  }
  have[*key] = 1;
  return ONNXSHAPE_OK;
}

/* The header's dict, from '{' to '}' (the cursor left after it): each key
 * once, in any order, its value into h; an error naming the byte offset
 * for anything else, and for a key missing. Assumes the cursor past any
 * spaces. */
static onnxshape_status header_dict(const npy_reader *r, cursor *c, npy_header *h) {
  if (!peek(c, '{')) return expected(r, c, "'{' (the header is a Python dict)");
  c->p++;
  int have[KEY_COUNT] = {0, 0, 0};
  for (;;) {
    skip_space(c);
    if (peek(c, '}')) break;
    int key;
    onnxshape_status st = header_key(r, c, have, &key);
    if (st != ONNXSHAPE_OK) return st;
    skip_space(c);
    if (!peek(c, ':')) return expected(r, c, "':' after a key");
    c->p++;
    skip_space(c);
    st = header_value(r, c, key, h);
    if (st != ONNXSHAPE_OK) return st;
    skip_space(c);
    if (peek(c, ',')) {
      c->p++;
    } else if (!peek(c, '}')) {
      return expected(r, c, "',' or '}' after a value");
    }
  }
  c->p++;
  for (int i = 0; i < KEY_COUNT; i++) {
    if (!have[i]) {
      return npy_fail(r, ONNXSHAPE_ERR_MALFORMED, "header: the key '{}' is missing",
                      ONNXSHAPE__ARGS(ARG_STR(npy_keys[i])));
    }
  }
  return ONNXSHAPE_OK;
}

/* The preamble and the header of the file into h: a Python dict literal
 * with the keys descr, fortran_order and shape, padded with spaces and
 * ending in a newline; an error naming what is wrong and where. */
static onnxshape_status parse_header(const npy_reader *r, npy_header *h) {
  memset(h, 0, sizeof *h);
  size_t start = 0;
  onnxshape_status st = parse_preamble(r, h, &start);
  if (st != ONNXSHAPE_OK) return st;
  cursor c = {r->b + start, r->b + h->data_at, r->b};
  skip_space(&c);
  st = header_dict(r, &c, h);
  if (st != ONNXSHAPE_OK) return st;
  skip_space(&c);
  if (c.p != c.end) return expected(r, &c, "only spaces after the header's dict");
  if (r->b[h->data_at - 1u] != '\n') {
    return npy_fail(r, ONNXSHAPE_ERR_MALFORMED, "the header does not end with a newline",
                    ONNXSHAPE__NO_ARGS);
  }
  return ONNXSHAPE_OK;
}

/* ---- reading: the data ------------------------------------------------------ */

/* Where each element of the file goes in row-major (C) order: the element
 * after the one at `at`, walking the file's order. A Fortran-order file
 * varies its first dim fastest; C order is the identity. Dims of 1 change
 * neither order, so the walk counts only the dims above 1: each is at
 * least 2, so a step carries into the next dim at most every other
 * element, the one after it every fourth, and so on; n elements take
 * fewer than 2n counter steps, however many dims of 1 the shape has. */
typedef struct npy_axis {
  size_t size;   /* the dim, above 1 */
  size_t idx;    /* the current element's index along it */
  size_t stride; /* elements per step along it in C order */
} npy_axis;

typedef struct npy_walk {
  size_t at;      /* the C-order index of the current element */
  size_t n_axes;  /* dims above 1 when the orders differ, else 0 */
  npy_axis *axes; /* in the file's order: the fastest first */
  uint64_t steps; /* counter steps taken, for onnxshape__npy_walk_steps */
} npy_walk;

/* For tests (tests/test_npy.c): when not NULL, each read of reordered data
 * adds the counter steps its walk took. Never set by the library, so
 * threads that read files only read this pointer. */
uint64_t *onnxshape__npy_walk_steps;

static void walk_next(npy_walk *w) {
  if (w->n_axes == 0u) {
    w->at++;
    return;
  }
  for (size_t j = 0; j < w->n_axes; j++) {
    npy_axis *a = &w->axes[j];
    w->steps++;
    a->idx++;
    w->at += a->stride;
    if (a->idx < a->size) return;
    w->at -= a->idx * a->stride;
    a->idx = 0;
  }
}

/* Adds w's steps to the tests' counter. */
static void walk_done(const npy_walk *w) {
  if (onnxshape__npy_walk_steps != NULL) *onnxshape__npy_walk_steps += w->steps;
}

/* The number of dims above 1. */
static size_t big_dims(const npy_header *h, const int64_t *dims) {
  size_t big = 0;
  for (size_t j = 0; j < h->rank; j++) big += dims[j] > 1;
  return big;
}

/* Fortran order differs from C order only when two dims or more exceed 1. */
static int needs_reorder(const npy_header *h, const int64_t *dims) {
  return h->fortran && big_dims(h, dims) >= 2u;
}

/* The walk for n elements in the header's order: an axis per dim above 1
 * when the orders differ and n > 0 (no dim is then 0). */
static onnxshape_status walk_init(npy_reader *r, const npy_header *h, const int64_t *dims, size_t n,
                                  npy_walk *w) {
  memset(w, 0, sizeof *w);
  if (n == 0u || !needs_reorder(h, dims)) return ONNXSHAPE_OK;
  size_t big = big_dims(h, dims);
  w->axes = npy_alloc(r, big, sizeof *w->axes);
  if (w->axes == NULL) return npy_no_memory(r);
  /* Every product below is at most n, which fits size_t. Filled from the
   * last dim (stride 1 in C order) to the first, the fastest in the file. */
  size_t s = 1, k = big;
  for (size_t j = h->rank; j-- > 0;) {
    if (dims[j] <= 1) continue;
    npy_axis *a = &w->axes[--k];
    a->size = (size_t)dims[j];
    a->idx = 0;
    a->stride = s;
    s *= a->size;
  }
  w->n_axes = big;
  return ONNXSHAPE_OK;
}

/* A bool is one byte, 0 or 1 (checked in the file's order). */
static onnxshape_status check_bools(const npy_reader *r, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (p[i] > 1u) {
      return npy_fail(r, ONNXSHAPE_ERR_INVALID_TENSOR,
                      "bool element {} (in file order) is {}; a bool must be 0 or 1",
                      ONNXSHAPE__ARGS(ARG_UINT(i), ARG_UINT(p[i])));
    }
  }
  return ONNXSHAPE_OK;
}

/* Numeric data into ONNX's storage: little-endian, row-major. */
static onnxshape_status numeric_data(npy_reader *r, const npy_header *h, const int64_t *dims,
                                     const unsigned char *src, size_t n,
                                     onnxshape_owned_tensor *t) {
  size_t bytes = n * h->item;
  unsigned char *dst = npy_alloc(r, bytes, 1);
  if (dst == NULL) return npy_no_memory(r);
  npy_walk w;
  onnxshape_status st = walk_init(r, h, dims, n, &w);
  if (st != ONNXSHAPE_OK) return st;
  if (!h->swap && w.n_axes == 0u) {
    memcpy(dst, src, bytes);
  } else {
    size_t unit = h->unit, last = h->swap ? unit - 1u : 0u;
    for (size_t e = 0; e < n; e++, walk_next(&w)) {
      const unsigned char *s = src + e * h->item;
      unsigned char *d = dst + w.at * h->item;
      for (size_t v = 0; v < h->item; v += unit) {
        /* last - j when swapped, j when not (last is then 0). */
        for (size_t j = 0; j < unit; j++) d[v + j] = s[v + (h->swap ? last - j : j)];
      }
    }
  }
  walk_done(&w);
  t->view.data = dst;
  t->view.data_bytes = bytes;
  return ONNXSHAPE_OK;
}

/* Code unit k of a UTF-32 element. */
static uint32_t utf32_at(const unsigned char *p, size_t k, int swap) {
  const unsigned char *u = p + 4u * k;
  if (!swap) return (uint32_t)onnxshape__load_le(u, 4);
  return (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | (uint32_t)u[3];
}

/* The characters an element holds: numpy drops trailing NULs (NUL bytes
 * for 'S', NUL code points for 'U'). */
static size_t kept_units(const npy_header *h, const unsigned char *p) {
  size_t k = h->item / h->unit;
  if (h->kind == 'S') {
    while (k > 0u && p[k - 1u] == 0u) k--;
  } else {
    while (k > 0u && utf32_at(p, k - 1u, h->swap) == 0u) k--;
  }
  return k;
}

static size_t utf8_length(uint32_t cp) {
  return cp < 0x80u ? 1u : cp < 0x800u ? 2u : cp < 0x10000u ? 3u : 4u;
}

static size_t utf8_put(unsigned char *d, uint32_t cp) {
  size_t n = utf8_length(cp);
  if (n == 1u) {
    d[0] = (unsigned char)cp;
    return 1;
  }
  static const unsigned char lead[5] = {0, 0, 0xc0u, 0xe0u, 0xf0u};
  for (size_t i = n; i-- > 1u;) {
    d[i] = (unsigned char)(0x80u | (cp & 0x3fu));
    cp >>= 6;
  }
  d[0] = (unsigned char)(lead[n] | cp);
  return n;
}

/* Pass 1 over the strings: checks every UTF-32 code unit and counts the
 * bytes of every element once stored (UTF-8 for 'U'). */
static onnxshape_status string_bytes(const npy_reader *r, const npy_header *h,
                                     const unsigned char *src, size_t n, size_t *total) {
  size_t sum = 0;
  for (size_t e = 0; e < n; e++) {
    const unsigned char *p = src + e * h->item;
    size_t k = kept_units(h, p);
    if (h->kind == 'S') {
      sum += k;
      continue;
    }
    for (size_t i = 0; i < k; i++) {
      uint32_t cp = utf32_at(p, i, h->swap);
      if (cp > 0x10ffffu || (cp >= 0xd800u && cp <= 0xdfffu)) {
        char hex[16];
        static const char digits[] = "0123456789abcdef";
        size_t m = 0;
        hex[m++] = '0';
        hex[m++] = 'x';
        for (int sh = 28; sh >= 0; sh -= 4) {
          unsigned dgt = (unsigned)(cp >> (unsigned)sh) & 0xfu;
          if (dgt != 0u || m > 2u || sh == 0) hex[m++] = digits[dgt];
        }
        hex[m] = '\0';
        return npy_fail(
            r, ONNXSHAPE_ERR_INVALID_TENSOR,
            "string element {} (in file order), character {}, is {}: {}",
            ONNXSHAPE__ARGS(ARG_UINT(e), ARG_UINT(i), ARG_STR(hex),
                            ARG_STR(cp > 0x10ffffu ? "not a Unicode code point"
                                                   : "a surrogate, which UTF-8 cannot hold")));
      }
      /* At most 4 bytes from each 4-byte unit: the sum stays below the
       * file's size. */
      sum += utf8_length(cp);
    }
  }
  *total = sum;
  return ONNXSHAPE_OK;
}

/* String data: an onnxshape_string per element, pointing into one copy of
 * the kept bytes (UTF-8 for 'U'). */
static onnxshape_status string_data(npy_reader *r, const npy_header *h, const int64_t *dims,
                                    const unsigned char *src, size_t n, onnxshape_owned_tensor *t) {
  size_t total = 0;
  onnxshape_status st = string_bytes(r, h, src, n, &total);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape_string *s = npy_alloc(r, n, sizeof *s);
  unsigned char *text = s != NULL ? npy_alloc(r, total, 1) : NULL;
  if (s == NULL || text == NULL) return npy_no_memory(r);
  npy_walk w;
  st = walk_init(r, h, dims, n, &w);
  if (st != ONNXSHAPE_OK) return st;
  size_t used = 0;
  for (size_t e = 0; e < n; e++, walk_next(&w)) {
    const unsigned char *p = src + e * h->item;
    size_t k = kept_units(h, p), start = used;
    /* The bytes are read again: a mapped file rewritten since string_bytes
     * counted them must not write past what was allocated. */
    if (h->kind == 'S') {
      if (k > total - used) return changed_while_read(r);
      if (k > 0u) memcpy(text + used, p, k);
      used += k;
    } else {
      for (size_t i = 0; i < k; i++) {
        uint32_t cp = utf32_at(p, i, h->swap);
        if (cp > 0x10ffffu || (cp >= 0xd800u && cp <= 0xdfffu) ||
            utf8_length(cp) > total - used) {
          return changed_while_read(r);
        }
        used += utf8_put(text + used, cp);
      }
    }
    s[w.at].data = used > start ? (const char *)text + start : NULL;
    s[w.at].length = used - start;
  }
  walk_done(&w);
  t->view.data = n > 0u ? s : NULL;
  t->view.data_bytes = n * sizeof *s;
  return ONNXSHAPE_OK;
}

/* The dims (parsed again, now stored), the element count and the data's
 * size against what the file holds after the header. */
static onnxshape_status read_dims(npy_reader *r, const npy_header *h, int64_t **dims,
                                  size_t *count) {
  *dims = npy_alloc(r, h->rank > 0u ? h->rank : 1u, sizeof **dims);
  if (*dims == NULL) return npy_no_memory(r);
  cursor c = {r->b + h->shape_at, r->b + h->data_at, r->b};
  size_t rank;
  onnxshape_status st = shape_tuple(r, &c, h->major, *dims, h->rank, &rank);
  if (st != ONNXSHAPE_OK) return st; /* the first pass took it, unless the file changed */
  if (rank != h->rank) return changed_while_read(r);
  int64_t n;
  if (onnxshape_dims_count(*dims, h->rank, &n) != ONNXSHAPE_OK) {
    return npy_fail(r, ONNXSHAPE_ERR_OVERFLOW, "the element count of the shape overflows int64",
                    ONNXSHAPE__NO_ARGS);
  }
  uint64_t have = (uint64_t)(r->len - h->data_at);
  if ((uint64_t)n > UINT64_MAX / h->item) {
    return npy_fail(
        r, ONNXSHAPE_ERR_OVERFLOW,
        "{} elements of '{}' need more than 2^64 bytes; the file has {} after its "
        "{}-byte header",
        ONNXSHAPE__ARGS(ARG_INT(n), ARG_NAME(h->descr), ARG_UINT(have), ARG_UINT(h->data_at)));
  }
  uint64_t need = (uint64_t)n * h->item;
  if (need != have) {
    return npy_fail(r, ONNXSHAPE_ERR_INVALID_TENSOR,
                    "{} elements of '{}' need {} bytes of data after the {}-byte header; the "
                    "file has {}",
                    ONNXSHAPE__ARGS(ARG_INT(n), ARG_NAME(h->descr), ARG_UINT(need),
                                    ARG_UINT(h->data_at), ARG_UINT(have)));
  }
  size_t storage;
  if (onnxshape_type_storage_bytes(h->type, n, &storage) != ONNXSHAPE_OK) {
    return npy_fail(r, ONNXSHAPE_ERR_OVERFLOW, "{} elements of '{}' do not fit in memory",
                    ONNXSHAPE__ARGS(ARG_INT(n), ARG_NAME(h->descr)));
  }
  *count = (size_t)n; /* n * item bytes lie in the file */
  return ONNXSHAPE_OK;
}

static onnxshape_status decode(npy_reader *r, int in_place, int *used_in_place,
                               onnxshape_owned_tensor **out) {
  npy_header h;
  onnxshape_status st = parse_header(r, &h);
  if (st != ONNXSHAPE_OK) return st;
  int64_t *dims = NULL;
  size_t n = 0;
  st = read_dims(r, &h, &dims, &n);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape_owned_tensor *t = npy_alloc(r, 1, sizeof *t); /* zeroed */
  if (t == NULL) return npy_no_memory(r);
  t->map.fd = -1;
  t->name = "";
  t->view.type = h.type;
  t->view.rank = h.rank;
  t->view.dims = dims;
  const unsigned char *src = r->b + h.data_at;
  size_t bytes = n * h.item;
  if (h.type == ONNXSHAPE_TYPE_BOOL) {
    st = check_bools(r, src, n);
    if (st != ONNXSHAPE_OK) return st;
  }
  if (h.kind != 'n') {
    st = string_data(r, &h, dims, src, n, t);
  } else if (in_place && !h.swap && bytes > 0u && bytes >= onnxshape__inplace_min &&
             !needs_reorder(&h, dims)) {
    t->view.data = src;
    t->view.data_bytes = bytes;
    *used_in_place = 1;
  } else if (bytes > 0u) {
    st = numeric_data(r, &h, dims, src, n, t);
  }
  if (st != ONNXSHAPE_OK) return st;
  *out = t;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__npy_decode(const unsigned char *b, size_t len, const char *shown,
                                       int in_place, int *used_in_place,
                                       onnxshape_owned_tensor **out, onnxshape_diag *diag) {
  int used = 0;
  npy_reader r = {b, len, shown, diag, NULL};
  r.arena = onnxshape__arena_new(onnxshape__memory_limit(len));
  if (r.arena == NULL) return npy_no_memory(&r);
  onnxshape_owned_tensor *t = NULL;
  onnxshape_status st = decode(&r, in_place, &used, &t);
  if (st != ONNXSHAPE_OK) {
    onnxshape__arena_release(r.arena);
    used = 0;
  } else {
    t->arena = r.arena;
    *out = t;
  }
  if (used_in_place != NULL) *used_in_place = used;
  return st;
}

onnxshape_status onnxshape_tensor_parse_npy(const void *bytes, size_t len,
                                            onnxshape_owned_tensor **out, onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0u)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_parse_npy: NULL argument",
                            ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = onnxshape__npy_decode(bytes != NULL ? bytes : (const unsigned char *)"",
                                              len, NULL, 0, NULL, out, diag);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}
