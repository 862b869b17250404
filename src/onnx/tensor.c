/* SPDX-License-Identifier: Apache-2.0 */
/* TensorProto to onnxshape tensors and back (docs/semantics.md, "Storage"). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/internal.h"
#include "arena.h"
#include "fileio.h"
#include "model.h"
#include "onnx_subset.pb-c.h"

#define FAIL(st, ...) onnxshape__fail(diag, st, NULL, 0, __VA_ARGS__)

void onnxshape__owned_tensor_init(onnxshape_owned_tensor *t) {
  t->name = "";
  t->map_fd = -1;
}

void onnxshape_owned_tensor_free(onnxshape_owned_tensor *t) {
  if (t == NULL) return;
  if (!t->dims_inline) free(t->dims);
  free(t->heap);
  if (t->proto != NULL) {
    Onnx__TensorProto *tp = t->proto;
    if (t->raw_borrowed) {
      tp->raw_data.data = NULL;
      tp->raw_data.len = 0;
      tp->has_raw_data = 0;
    }
    onnx__tensor_proto__free_unpacked(tp, NULL);
  }
  if (t->map != NULL) {
    onnxshape__map m = {t->map, t->map_len, t->map_fd};
    onnxshape__unmap(&m);
  }
  free(t->name_copy);
  if (!t->in_arena) free(t);
}

const onnxshape_tensor *onnxshape_owned_tensor_get(const onnxshape_owned_tensor *t) {
  return t != NULL ? &t->view : NULL;
}

const char *onnxshape_owned_tensor_name(const onnxshape_owned_tensor *t) {
  return t != NULL ? t->name : NULL;
}

/* Tensor names quoted in messages: '<name>' or "unnamed". */
static const char *label(const Onnx__TensorProto *tp) {
  return tp->name != NULL && tp->name[0] != '\0' ? tp->name : "(unnamed)";
}

/* Which payload fields are present, for the one-payload rule. */
static int payload_fields(const Onnx__TensorProto *tp) {
  return (tp->has_raw_data ? 1 : 0) + (tp->n_float_data > 0) + (tp->n_int32_data > 0) +
         (tp->n_string_data > 0) + (tp->n_int64_data > 0) + (tp->n_double_data > 0) +
         (tp->n_uint64_data > 0) + (tp->n_external_data > 0 ||
                                     (tp->has_data_location &&
                                      tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL));
}

static void store_le(unsigned char *p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* int32_data holds 8/16-bit integers, bool, float16/bfloat16/float8 bit
 * patterns, or packed 4-bit/2-bit bytes; each entry must fit its slot. */
static int int32_range(int32_t type, int64_t *lo, int64_t *hi, unsigned *width) {
  *width = 1;
  switch (type) {
    case ONNXSHAPE_TYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; *width = 4; return 1;
    case ONNXSHAPE_TYPE_INT16: *lo = INT16_MIN; *hi = INT16_MAX; *width = 2; return 1;
    case ONNXSHAPE_TYPE_UINT16:
    case ONNXSHAPE_TYPE_FLOAT16:
    case ONNXSHAPE_TYPE_BFLOAT16: *lo = 0; *hi = UINT16_MAX; *width = 2; return 1;
    case ONNXSHAPE_TYPE_INT8: *lo = INT8_MIN; *hi = INT8_MAX; return 1;
    case ONNXSHAPE_TYPE_BOOL: *lo = 0; *hi = 1; return 1;
    case ONNXSHAPE_TYPE_UINT8:
    case ONNXSHAPE_TYPE_FLOAT8E4M3FN:
    case ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ:
    case ONNXSHAPE_TYPE_FLOAT8E5M2:
    case ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ:
    case ONNXSHAPE_TYPE_FLOAT8E8M0:
    case ONNXSHAPE_TYPE_UINT4:
    case ONNXSHAPE_TYPE_INT4:
    case ONNXSHAPE_TYPE_FLOAT4E2M1:
    case ONNXSHAPE_TYPE_UINT2:
    case ONNXSHAPE_TYPE_INT2: *lo = 0; *hi = UINT8_MAX; return 1;
  }
  return 0;
}

/* The typed field a type's values live in, and how many entries n elements
 * take there. */
typedef enum { F_NONE, F_FLOAT, F_DOUBLE, F_INT32, F_INT64, F_UINT64, F_STRING } field_kind;
static const char *const field_names[] = {"none", "float_data", "double_data", "int32_data",
                                          "int64_data", "uint64_data", "string_data"};

static field_kind field_of(int32_t type) {
  switch (type) {
    case ONNXSHAPE_TYPE_FLOAT:
    case ONNXSHAPE_TYPE_COMPLEX64: return F_FLOAT;
    case ONNXSHAPE_TYPE_DOUBLE:
    case ONNXSHAPE_TYPE_COMPLEX128: return F_DOUBLE;
    case ONNXSHAPE_TYPE_INT64: return F_INT64;
    case ONNXSHAPE_TYPE_UINT32:
    case ONNXSHAPE_TYPE_UINT64: return F_UINT64;
    case ONNXSHAPE_TYPE_STRING: return F_STRING;
  }
  return F_INT32;
}

static size_t present_field_count(const Onnx__TensorProto *tp, field_kind *which) {
  const struct { field_kind k; size_t n; } f[] = {
      {F_FLOAT, tp->n_float_data},   {F_DOUBLE, tp->n_double_data}, {F_INT32, tp->n_int32_data},
      {F_INT64, tp->n_int64_data},   {F_UINT64, tp->n_uint64_data}, {F_STRING, tp->n_string_data}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    if (f[i].n > 0) {
      *which = f[i].k;
      return f[i].n;
    }
  }
  *which = F_NONE;
  return 0;
}

static onnxshape_status decode_typed(const Onnx__TensorProto *tp, onnxshape_owned_tensor *t,
                                     int64_t n, size_t bytes, onnxshape_diag *diag) {
  int32_t type = t->view.type;
  field_kind have;
  size_t count = present_field_count(tp, &have);
  field_kind want = field_of(type);
  if (have != want) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': a %s tensor keeps its values in %s, not %s", label(tp),
                onnxshape_type_name(type), field_names[want], field_names[have]);
  }
  const onnxshape_type_info *info = onnxshape_type_get(type);
  /* Entries expected: 2 per complex element, 1 per packed byte for sub-byte
   * types, else 1 per element. */
  uint64_t expected = (uint64_t)n;
  if (type == ONNXSHAPE_TYPE_COMPLEX64 || type == ONNXSHAPE_TYPE_COMPLEX128) expected *= 2u;
  if (info->bits > 0 && info->bits < 8) expected = bytes;
  if ((uint64_t)count != expected) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': %s holds %zu values; dims need %llu", label(tp), field_names[have],
                count, (unsigned long long)expected);
  }
  if (want == F_STRING) {
    onnxshape_string *s = calloc(count, sizeof *s);
    if (s == NULL) return FAIL(ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < count; i++) {
      s[i].data = (const char *)tp->string_data[i].data;
      s[i].length = tp->string_data[i].len;
    }
    t->heap = s;
    t->view.data = s;
    t->view.data_bytes = count * sizeof *s;
    return ONNXSHAPE_OK;
  }
  unsigned char *out = malloc(bytes > 0 ? bytes : 1);
  if (out == NULL) return FAIL(ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory");
  t->heap = out;
  t->view.data = out;
  t->view.data_bytes = bytes;
  for (size_t i = 0; i < count; i++) {
    switch (want) {
      case F_FLOAT: {
        uint32_t u;
        memcpy(&u, &tp->float_data[i], 4);
        store_le(out + 4 * i, u, 4);
        break;
      }
      case F_DOUBLE: {
        uint64_t u;
        memcpy(&u, &tp->double_data[i], 8);
        store_le(out + 8 * i, u, 8);
        break;
      }
      case F_INT64: store_le(out + 8 * i, (uint64_t)tp->int64_data[i], 8); break;
      case F_UINT64:
        if (type == ONNXSHAPE_TYPE_UINT32) {
          if (tp->uint64_data[i] > UINT32_MAX) {
            return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                        "tensor '%s': uint64_data[%zu] = %llu does not fit uint32", label(tp), i,
                        (unsigned long long)tp->uint64_data[i]);
          }
          store_le(out + 4 * i, tp->uint64_data[i], 4);
        } else {
          store_le(out + 8 * i, tp->uint64_data[i], 8);
        }
        break;
      case F_INT32: {
        int64_t lo = 0, hi = 0;
        unsigned width = 1;
        (void)int32_range(type, &lo, &hi, &width);
        int64_t v = tp->int32_data[i];
        if (v < lo || v > hi) {
          return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                      "tensor '%s': int32_data[%zu] = %lld is out of range for %s (%lld to %lld)",
                      label(tp), i, (long long)v, onnxshape_type_name(type), (long long)lo,
                      (long long)hi);
        }
        store_le(out + width * i, (uint64_t)v, width);
        break;
      }
      default: break;
    }
  }
  return ONNXSHAPE_OK;
}

static const char *external_key(const Onnx__TensorProto *tp, const char *key) {
  for (size_t i = 0; i < tp->n_external_data; i++) {
    const Onnx__StringStringEntryProto *e = tp->external_data[i];
    if (e->key != NULL && strcmp(e->key, key) == 0) return e->value != NULL ? e->value : "";
  }
  return NULL;
}

static int parse_u64(const char *s, uint64_t *v) {
  if (s == NULL || *s < '0' || *s > '9') return 0;
  errno = 0;
  char *end;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *v = x;
  return 1;
}

static onnxshape_status decode_external(const Onnx__TensorProto *tp, onnxshape_owned_tensor *t,
                                        size_t bytes, const char *base_dir,
                                        onnxshape_diag *diag) {
  if (t->view.type == ONNXSHAPE_TYPE_STRING) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': string tensors cannot use external data", label(tp));
  }
  const char *location = external_key(tp, "location");
  if (location == NULL || location[0] == '\0') {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': external data without a location",
                label(tp));
  }
  if (base_dir == NULL) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': external data is not allowed here (no model directory)", label(tp));
  }
  uint64_t offset = 0, length = 0;
  const char *off_s = external_key(tp, "offset"), *len_s = external_key(tp, "length");
  if (off_s != NULL && !parse_u64(off_s, &offset)) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': external data offset '%s' is not a "
                "non-negative integer", label(tp), off_s);
  }
  if (len_s != NULL && !parse_u64(len_s, &length)) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': external data length '%s' is not a "
                "non-negative integer", label(tp), len_s);
  }
  char path[PATH_MAX];
  onnxshape_status st = onnxshape__resolve_inside(base_dir, location, path, sizeof path, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape__map m;
  st = onnxshape__map_file(path, &m, diag);
  if (st != ONNXSHAPE_OK) return st;
  uint64_t available = offset <= m.len ? m.len - offset : 0;
  if (offset > m.len) {
    onnxshape__unmap(&m);
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': external data offset %llu is past the end of '%s' (%zu bytes)",
                label(tp), (unsigned long long)offset, location, m.len);
  }
  if (len_s == NULL) length = available;
  if (length > available || length != bytes) {
    onnxshape__unmap(&m);
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': external data in '%s' holds %llu bytes at offset %llu; dims need %zu",
                label(tp), location, (unsigned long long)(length > available ? available : length),
                (unsigned long long)offset, bytes);
  }
  t->map = m.base;
  t->map_len = m.len;
  t->map_fd = m.fd;
  t->view.data = bytes > 0 ? (const unsigned char *)m.base + offset : NULL;
  t->view.data_bytes = bytes;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__tensor_from_proto(const void *msg, const char *base_dir,
                                              onnxshape_owned_tensor **out,
                                              onnxshape_diag *diag) {
  return onnxshape__tensor_from_proto_in(msg, base_dir, NULL, out, diag);
}

onnxshape_status onnxshape__tensor_from_proto_in(const void *msg, const char *base_dir,
                                                 struct onnxshape__arena *arena,
                                                 onnxshape_owned_tensor **out,
                                                 onnxshape_diag *diag) {
  const Onnx__TensorProto *tp = msg;
  if (!tp->has_data_type || onnxshape_type_get(tp->data_type) == NULL) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': data_type %ld is not a known type "
                "(1 to %d)", label(tp), tp->has_data_type ? (long)tp->data_type : 0L,
                ONNXSHAPE_TYPE_LAST);
  }
  if (tp->segment != NULL) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': segmented tensors are not supported",
                label(tp));
  }
  int64_t n;
  for (size_t i = 0; i < tp->n_dims; i++) {
    if (tp->dims[i] < 0) {
      return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': dims[%zu] = %lld is negative",
                  label(tp), i, (long long)tp->dims[i]);
    }
  }
  if (onnxshape_dims_count(tp->dims, tp->n_dims, &n) != ONNXSHAPE_OK) {
    return FAIL(ONNXSHAPE_ERR_OVERFLOW, "tensor '%s': the element count overflows int64",
                label(tp));
  }
  size_t bytes;
  if (onnxshape_type_storage_bytes(tp->data_type, n, &bytes) != ONNXSHAPE_OK) {
    return FAIL(ONNXSHAPE_ERR_OVERFLOW, "tensor '%s': %lld elements of %s do not fit in memory",
                label(tp), (long long)n, onnxshape_type_name(tp->data_type));
  }
  if (payload_fields(tp) > 1) {
    return FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': more than one of raw_data, external data and the typed fields is set",
                label(tp));
  }
  /* The tensor and its dims in one block (n_dims * 8 cannot overflow: the
   * dims came from a buffer that long). */
  size_t block = sizeof(onnxshape_owned_tensor) + tp->n_dims * sizeof(int64_t);
  onnxshape_owned_tensor *t =
      arena != NULL ? onnxshape__arena_alloc(arena, block) : calloc(1, block);
  if (t == NULL) return FAIL(ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory");
  onnxshape__owned_tensor_init(t);
  t->in_arena = arena != NULL;
  t->name = tp->name != NULL ? tp->name : "";
  t->view.type = tp->data_type;
  t->view.rank = tp->n_dims;
  if (tp->n_dims > 0) {
    t->dims = (int64_t *)(void *)(t + 1);
    t->dims_inline = 1;
    memcpy(t->dims, tp->dims, tp->n_dims * sizeof *t->dims);
  }
  t->view.dims = t->dims;
  onnxshape_status st = ONNXSHAPE_OK;
  int external = tp->n_external_data > 0 ||
                 (tp->has_data_location &&
                  tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL);
  if (external) {
    st = decode_external(tp, t, bytes, base_dir, diag);
  } else if (tp->has_raw_data) {
    if (tp->data_type == ONNXSHAPE_TYPE_STRING) {
      st = FAIL(ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '%s': string tensors keep their values in string_data, never raw_data",
                label(tp));
    } else if (tp->raw_data.len != bytes) {
      st = FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': raw_data holds %zu bytes; %lld "
                "elements of %s need %zu", label(tp), tp->raw_data.len, (long long)n,
                onnxshape_type_name(tp->data_type), bytes);
    } else {
      t->view.data = tp->raw_data.data;
      t->view.data_bytes = bytes;
    }
  } else if (payload_fields(tp) == 1) {
    st = decode_typed(tp, t, n, bytes, diag);
  } else if (n > 0) {
    st = FAIL(ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '%s': %lld elements but no data", label(tp),
              (long long)n);
  } else if (tp->data_type == ONNXSHAPE_TYPE_STRING) {
    t->view.data = NULL;
    t->view.data_bytes = 0;
  }
  if (st != ONNXSHAPE_OK) {
    onnxshape_owned_tensor_free(t);
    return st;
  }
  *out = t;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_tensor_parse(const void *bytes, size_t len, const char *base_dir,
                                        onnxshape_owned_tensor **out, onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return FAIL(ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_parse: NULL argument");
  }
  Onnx__TensorProto *tp = onnx__tensor_proto__unpack(NULL, len, bytes);
  if (tp == NULL) return FAIL(ONNXSHAPE_ERR_MALFORMED, "not a valid TensorProto (%zu bytes)", len);
  onnxshape_owned_tensor *t;
  onnxshape_status st = onnxshape__tensor_from_proto(tp, base_dir, &t, diag);
  if (st != ONNXSHAPE_OK) {
    onnx__tensor_proto__free_unpacked(tp, NULL);
    return st;
  }
  t->proto = tp;
  *out = t;
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* Reads a protobuf varint at *i (< len); 0 when malformed. */
static int read_varint(const uint8_t *b, size_t len, size_t *i, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; shift < 64 && *i < len; shift += 7) {
    uint8_t c = b[(*i)++];
    *v |= (uint64_t)(c & 0x7f) << shift;
    if ((c & 0x80) == 0) return 1;
  }
  return 0;
}

int onnxshape__pb_next(const uint8_t *b, size_t len, size_t *i, onnxshape__pb_field *f) {
  f->start = *i;
  uint64_t key, v;
  if (!read_varint(b, len, i, &key)) return 0;
  f->number = key >> 3;
  f->wire = (unsigned)(key & 7);
  f->payload = *i;
  f->payload_len = 0;
  switch (f->wire) {
    case 0: if (!read_varint(b, len, i, &v)) return 0; break;
    case 1: if (len - *i < 8) return 0; *i += 8; break;
    case 5: if (len - *i < 4) return 0; *i += 4; break;
    case 2:
      if (!read_varint(b, len, i, &v) || v > len - *i) return 0;
      f->payload = *i;
      f->payload_len = (size_t)v;
      *i += (size_t)v;
      break;
    default: return 0;
  }
  f->end = *i;
  return 1;
}

/* Finds the one raw_data field (9) of a TensorProto in b. 0 when there is
 * none, more than one, or b is not a plain sequence of well-formed fields
 * (the ordinary decoder then reports it). */
static int find_raw_data(const uint8_t *b, size_t len, onnxshape__pb_field *raw) {
  size_t i = 0;
  int found = 0;
  onnxshape__pb_field f;
  while (i < len) {
    if (!onnxshape__pb_next(b, len, &i, &f)) return 0;
    if (f.number == 9 && f.wire == 2) {
      if (found) return 0;
      found = 1;
      *raw = f;
    }
  }
  return found;
}

/* The smallest raw_data used in place (smaller ones are cheaper to copy).
 * A variable, not a constant, so that the fuzz target can lower it. */
size_t onnxshape__inplace_min = 64u << 10;

/* A TensorProto file whose raw_data the tensor uses in place, in the
 * mapping: only the other fields are decoded (and copied). 0 when the file
 * has no single raw_data of at least onnxshape__inplace_min bytes; the
 * caller decodes it whole. */
static int parse_mapped(onnxshape__map *m, const char *dir, onnxshape_owned_tensor **out,
                        onnxshape_status *st, onnxshape_diag *diag) {
  onnxshape__pb_field raw;
  if (m->len < onnxshape__inplace_min || !find_raw_data(m->base, m->len, &raw) ||
      raw.payload_len < onnxshape__inplace_min) {
    return 0;
  }
  size_t field = raw.start, field_len = raw.end - raw.start, off = raw.payload,
         n = raw.payload_len;
  size_t rest_len = m->len - field_len;
  uint8_t *rest = malloc(rest_len > 0 ? rest_len : 1);
  if (rest == NULL) return 0;
  const uint8_t *b = m->base;
  memcpy(rest, b, field);
  memcpy(rest + field, b + field + field_len, m->len - field - field_len);
  Onnx__TensorProto *tp = onnx__tensor_proto__unpack(NULL, rest_len, rest);
  free(rest);
  if (tp == NULL || tp->has_raw_data) {
    if (tp != NULL) onnx__tensor_proto__free_unpacked(tp, NULL);
    return 0;
  }
  tp->has_raw_data = 1;
  tp->raw_data.data = (uint8_t *)b + off;
  tp->raw_data.len = n;
  onnxshape_owned_tensor *t;
  *st = onnxshape__tensor_from_proto(tp, dir, &t, diag);
  if (*st != ONNXSHAPE_OK) {
    tp->raw_data.data = NULL;
    tp->raw_data.len = 0;
    tp->has_raw_data = 0;
    onnx__tensor_proto__free_unpacked(tp, NULL);
    return 1;
  }
  t->proto = tp;
  t->raw_borrowed = 1;
  t->map = m->base;
  t->map_len = m->len;
  t->map_fd = m->fd;
  m->base = NULL; /* now the tensor's */
  m->fd = -1;
  *out = t;
  onnxshape__diag_clear(diag);
  return 1;
}

onnxshape_status onnxshape_tensor_read_file(const char *path, onnxshape_owned_tensor **out,
                                            onnxshape_diag *diag) {
  if (path == NULL || out == NULL) {
    return FAIL(ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_read_file: NULL argument");
  }
  onnxshape__map m;
  onnxshape_status st = onnxshape__map_file(path, &m, diag);
  if (st != ONNXSHAPE_OK) return st;
  char dir[PATH_MAX];
  onnxshape__dirname(path, dir, sizeof dir);
  size_t len = m.len;
  /* Large raw_data stays in the mapping; other files are decoded whole. */
  if (!parse_mapped(&m, dir, out, &st, diag)) {
    st = onnxshape_tensor_parse(m.base, len, dir, out, diag);
  }
  onnxshape__unmap(&m);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    (void)FAIL(st, "'%s' is not a valid TensorProto file (%zu bytes)", path, len);
  }
  return st;
}

onnxshape_status onnxshape_tensor_write_file(const char *path, const char *name,
                                             const onnxshape_tensor *t, onnxshape_diag *diag) {
  if (path == NULL || t == NULL || (t->dims == NULL && t->rank > 0)) {
    return FAIL(ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_write_file: NULL argument");
  }
  if (onnxshape_type_get(t->type) == NULL) {
    return FAIL(ONNXSHAPE_ERR_UNKNOWN_TYPE, "cannot write element type %ld", (long)t->type);
  }
  int64_t n;
  onnxshape_status st = onnxshape_dims_count(t->dims, t->rank, &n);
  if (st != ONNXSHAPE_OK) return FAIL(st, "cannot write a tensor with invalid dims");
  size_t bytes;
  st = onnxshape_type_storage_bytes(t->type, n, &bytes);
  if (st != ONNXSHAPE_OK) return FAIL(st, "tensor too large to write");
  if (t->data_bytes < bytes || (t->data == NULL && bytes > 0)) {
    return FAIL(ONNXSHAPE_ERR_DATA_SIZE, "tensor holds %zu bytes; its dims need %zu",
                t->data_bytes, bytes);
  }
  Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT;
  tp.n_dims = t->rank;
  tp.dims = (int64_t *)(uintptr_t)t->dims;
  tp.has_data_type = 1;
  tp.data_type = t->type;
  tp.name = (char *)(uintptr_t)(name != NULL ? name : "");
  ProtobufCBinaryData *strs = NULL;
  if (t->type == ONNXSHAPE_TYPE_STRING) {
    const onnxshape_string *s = t->data;
    strs = calloc((size_t)n > 0 ? (size_t)n : 1, sizeof *strs);
    if (strs == NULL) return FAIL(ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t i = 0; i < n; i++) {
      strs[i].len = s[i].length;
      strs[i].data = (uint8_t *)(uintptr_t)s[i].data;
    }
    tp.n_string_data = (size_t)n;
    tp.string_data = strs;
  } else {
    tp.has_raw_data = 1;
    tp.raw_data.len = bytes;
    tp.raw_data.data = (uint8_t *)(uintptr_t)t->data;
  }
  st = onnxshape__write_message_file(path, &tp.base, diag);
  free(strs);
  return st;
}
