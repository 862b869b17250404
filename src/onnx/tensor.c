/* SPDX-License-Identifier: Apache-2.0 */
/* TensorProto to onnxshape tensors and back (docs/semantics.md, "Storage"). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/internal.h"
#include "../core/le.h"
#include "alloc.h"
#include "arena.h"
#include "fileio.h"
#include "model.h"
#include "onnx_subset.pb-c.h"
#include "pbfast.h"
#include "wire.h"


void onnxshape_owned_tensor_free(onnxshape_owned_tensor *t) {
  if (t == NULL) return;
  onnxshape__unmap(&t->map);
  onnxshape__arena_release(t->arena); /* a standalone tensor lives in it */
}

const onnxshape_tensor *onnxshape_owned_tensor_get(const onnxshape_owned_tensor *t) {
  return t != NULL ? &t->view : NULL;
}

const char *onnxshape_owned_tensor_name(const onnxshape_owned_tensor *t) {
  return t != NULL ? t->name : NULL;
}

onnxshape_status onnxshape_owned_tensor_check_file(const onnxshape_owned_tensor *t,
                                                   onnxshape_diag *diag) {
  if (t == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "owned_tensor_check_file: NULL argument",
                ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = onnxshape__map_check(&t->map, diag);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

void onnxshape__extdir_close(onnxshape__extdir *ext) {
  if (ext != NULL && ext->fd >= 0) {
    close(ext->fd);
    ext->fd = -1;
  }
}

/* Opens ext's directory at its first use; one opened after the model
 * (ext->file set) must still hold the model file. */
static onnxshape_status open_model_dir(onnxshape__extdir *ext, onnxshape_diag *diag) {
  onnxshape_status st = onnxshape__open_dir(ext->path, &ext->fd, diag);
  if (st != ONNXSHAPE_OK || ext->file == NULL) return st;
  /* Opened and fstat'ed, as the model was (not stat'ed by name: the two
   * can give different st_dev on some overlay file systems). */
  struct stat sb;
  int fd = openat(ext->fd, ext->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  int same = fd >= 0 && fstat(fd, &sb) == 0 && sb.st_dev == ext->dev && sb.st_ino == ext->ino;
  if (fd >= 0) close(fd);
  if (!same) {
    onnxshape__extdir_close(ext);
    return onnxshape__error(diag, ONNXSHAPE_ERR_IO,
                            "the directory '{}' no longer holds the model '{}' (it changed while "
                            "the model was loaded); external data is not read from it",
                            ONNXSHAPE__ARGS(ARG_NAME(ext->path), ARG_NAME(ext->file)));
  }
  return ONNXSHAPE_OK;
}

/* Tensor names quoted in messages: '<name>' or "(unnamed)". */
static const char *label(const Onnx__TensorProto *tp) {
  return tp->name != NULL && tp->name[0] != '\0' ? tp->name : "(unnamed)";
}

static int is_external(const Onnx__TensorProto *tp) {
  return tp->n_external_data > 0 ||
         (tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL);
}

/* Which payload fields are present, for the one-payload rule. */
static int payload_fields(const Onnx__TensorProto *tp) {
  return (tp->has_raw_data ? 1 : 0) + (tp->n_float_data > 0) + (tp->n_int32_data > 0) +
         (tp->n_string_data > 0) + (tp->n_int64_data > 0) + (tp->n_double_data > 0) +
         (tp->n_uint64_data > 0) + is_external(tp);
}

/* ---- typed fields ------------------------------------------------------------- */

/* int32_data holds 8/16-bit integers, bool, float16/bfloat16/float8 bit
 * patterns, or packed 4-bit/2-bit bytes; each entry must fit its slot. */
static void int32_range(int32_t type, int64_t *lo, int64_t *hi, unsigned *width) {
  *width = 1;
  *lo = 0;
  *hi = UINT8_MAX;
  switch (type) {
    case ONNXSHAPE_TYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; *width = 4; break;
    case ONNXSHAPE_TYPE_INT16: *lo = INT16_MIN; *hi = INT16_MAX; *width = 2; break;
    case ONNXSHAPE_TYPE_UINT16:
    case ONNXSHAPE_TYPE_FLOAT16:
    case ONNXSHAPE_TYPE_BFLOAT16: *hi = UINT16_MAX; *width = 2; break;
    case ONNXSHAPE_TYPE_INT8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case ONNXSHAPE_TYPE_BOOL: *hi = 1; break;
    default: break; /* uint8, the float8 types and packed sub-byte bytes */
  }
}

/* The typed field a type's values live in. */
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
    default: return F_INT32;
  }
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

/* The field the values are in must be the type's, with one entry per
 * element (two per complex element, one per packed byte of a sub-byte
 * type); *count is its number of entries. */
static onnxshape_status check_typed_field(const Onnx__TensorProto *tp, int32_t type, int64_t n,
                                          size_t bytes, size_t *count, onnxshape_diag *diag) {
  field_kind have;
  *count = present_field_count(tp, &have);
  field_kind want = field_of(type);
  if (have != want) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': a {} tensor keeps its values in {}, not {}",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_STR(onnxshape_type_name(type)),
                                ARG_STR(field_names[want]), ARG_STR(field_names[have])));
  }
  uint64_t expected = (uint64_t)n;
  if (type == ONNXSHAPE_TYPE_COMPLEX64 || type == ONNXSHAPE_TYPE_COMPLEX128) expected *= 2u;
  uint32_t bits = onnxshape_type_get(type)->bits;
  if (bits > 0 && bits < 8) expected = bytes;
  if ((uint64_t)*count != expected) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': {} holds {} values; dims need {}",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_STR(field_names[have]), ARG_UINT(*count),
                                ARG_UINT(expected)));
  }
  return ONNXSHAPE_OK;
}

/* Stores entry i of the typed field into the little-endian storage out. */
static onnxshape_status store_typed(const Onnx__TensorProto *tp, int32_t type, size_t i,
                                    unsigned char *out, onnxshape_diag *diag) {
  uint32_t u32;
  uint64_t u64;
  switch (field_of(type)) {
    case F_FLOAT:
      memcpy(&u32, &tp->float_data[i], 4);
      onnxshape__store_le(out + 4 * i, u32, 4);
      return ONNXSHAPE_OK;
    case F_DOUBLE:
      memcpy(&u64, &tp->double_data[i], 8);
      onnxshape__store_le(out + 8 * i, u64, 8);
      return ONNXSHAPE_OK;
    case F_INT64:
      onnxshape__store_le(out + 8 * i, (uint64_t)tp->int64_data[i], 8);
      return ONNXSHAPE_OK;
    case F_UINT64:
      if (type == ONNXSHAPE_TYPE_UINT64) {
        onnxshape__store_le(out + 8 * i, tp->uint64_data[i], 8);
        return ONNXSHAPE_OK;
      }
      if (tp->uint64_data[i] > UINT32_MAX) {
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                    "tensor '{}': uint64_data[{}] = {} does not fit uint32",
                    ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(i), ARG_UINT(tp->uint64_data[i])));
      }
      onnxshape__store_le(out + 4 * i, tp->uint64_data[i], 4);
      return ONNXSHAPE_OK;
    default: {
      int64_t lo, hi;
      unsigned width;
      int32_range(type, &lo, &hi, &width);
      int64_t v = tp->int32_data[i];
      if (v < lo || v > hi) {
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                    "tensor '{}': int32_data[{}] = {} is out of range for {} ({} to {})",
                    ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(i), ARG_INT(v),
                                    ARG_STR(onnxshape_type_name(type)), ARG_INT(lo), ARG_INT(hi)));
      }
      onnxshape__store_le(out + width * i, (uint64_t)v, width);
      return ONNXSHAPE_OK;
    }
  }
}

static onnxshape_status decode_typed(const Onnx__TensorProto *tp, onnxshape_owned_tensor *t,
                                     int64_t n, size_t bytes, onnxshape__arena *arena,
                                     onnxshape_diag *diag) {
  int32_t type = t->view.type;
  size_t count;
  onnxshape_status st = check_typed_field(tp, type, n, bytes, &count, diag);
  if (st != ONNXSHAPE_OK) return st;
  if (type == ONNXSHAPE_TYPE_STRING) {
    onnxshape_string *s = onnxshape__arena_alloc(arena, count * sizeof *s);
    if (s == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
    for (size_t i = 0; i < count; i++) {
      s[i].data = (const char *)tp->string_data[i].data;
      s[i].length = tp->string_data[i].len;
    }
    t->view.data = s;
    t->view.data_bytes = count * sizeof *s;
    return ONNXSHAPE_OK;
  }
  unsigned char *out = onnxshape__arena_alloc(arena, bytes);
  if (out == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  t->view.data = out;
  t->view.data_bytes = bytes;
  for (size_t i = 0; i < count; i++) {
    st = store_typed(tp, type, i, out, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}

/* ---- external data ------------------------------------------------------------ */

/* The keys of an external-data entry (EXTERNAL-KEYS). */
typedef struct external_keys {
  const char *location;
  int has_offset, has_length;
  uint64_t offset, length;
} external_keys;

int onnxshape__parse_u64(const char *s, uint64_t *v) {
  if (s == NULL || *s < '0' || *s > '9') return 0;
  uint64_t x = 0;
  for (; *s != '\0'; s++) {
    if (*s < '0' || *s > '9') return 0;
    unsigned d = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - d) / 10u) return 0;
    x = x * 10u + d;
  }
  *v = x;
  return 1;
}

/* Each key at most once: ONNX's loader takes the last of a repeated key and
 * other readers the first, so a repeated key is refused. */
static onnxshape_status read_external_keys(const Onnx__TensorProto *tp, external_keys *k,
                                           onnxshape_diag *diag) {
  memset(k, 0, sizeof *k);
  int seen_checksum = 0;
  for (size_t i = 0; i < tp->n_external_data; i++) {
    const char *key = tp->external_data[i]->key != NULL ? tp->external_data[i]->key : "";
    const char *value = tp->external_data[i]->value != NULL ? tp->external_data[i]->value : "";
    int twice = 0;
    if (strcmp(key, "location") == 0) {
      twice = k->location != NULL;
      k->location = value;
    } else if (strcmp(key, "offset") == 0 || strcmp(key, "length") == 0) {
      int is_offset = key[0] == 'o';
      twice = is_offset ? k->has_offset : k->has_length;
      if (!onnxshape__parse_u64(value, is_offset ? &k->offset : &k->length)) {
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                    "tensor '{}': external data {} '{}' is not a non-negative integer",
                    ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_STR(key), ARG_NAME(value)));
      }
      *(is_offset ? &k->has_offset : &k->has_length) = 1;
    } else if (strcmp(key, "checksum") == 0) {
      twice = seen_checksum; /* a SHA-1 of the data; not checked */
      seen_checksum = 1;
    } else {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                  "tensor '{}': external data key '{}' is not one of location, offset, length, "
                  "checksum",
                  ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_NAME(key)));
    }
    if (twice) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                  "tensor '{}': external data key '{}' is given twice; readers disagree on which "
                  "one holds",
                  ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_STR(key)));
    }
  }
  if (k->location == NULL || k->location[0] == '\0') {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': external data without a location",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
  }
  return ONNXSHAPE_OK;
}

/* The region [offset, offset + bytes) of the file must exist, and a given
 * length must be what the dims need. */
static onnxshape_status check_external_region(const Onnx__TensorProto *tp, const external_keys *k,
                                              uint64_t file_size, size_t bytes,
                                              onnxshape_diag *diag) {
  if (k->has_length && k->length != bytes) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '{}': external data length {} does not match the {} bytes its dims need",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(k->length), ARG_UINT(bytes)));
  }
  if (k->offset > file_size) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '{}': external data offset {} is past the end of '{}' ({} bytes)",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(k->offset), ARG_NAME(k->location),
                                ARG_UINT(file_size)));
  }
  if ((uint64_t)bytes > file_size - k->offset) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '{}': its {} bytes at offset {} run past the end of '{}' ({} bytes)",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(bytes), ARG_UINT(k->offset),
                                ARG_NAME(k->location), ARG_UINT(file_size)));
  }
  return ONNXSHAPE_OK;
}

static onnxshape_status decode_external(const Onnx__TensorProto *tp, onnxshape_owned_tensor *t,
                                        size_t bytes, onnxshape__extdir *ext,
                                        onnxshape_diag *diag) {
  if (t->view.type == ONNXSHAPE_TYPE_STRING) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': string tensors cannot use external data",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
  }
  external_keys k;
  onnxshape_status st = read_external_keys(tp, &k, diag);
  if (st != ONNXSHAPE_OK) return st;
  if (ext == NULL || ext->path == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '{}': external data is not allowed here (no model directory)",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
  }
  if (ext->fd < 0) {
    st = open_model_dir(ext, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  int fd;
  struct stat sb;
  st = onnxshape__open_beneath(ext->fd, k.location, ext->path, &fd, &sb, diag);
  if (st != ONNXSHAPE_OK) return st;
  st = check_external_region(tp, &k, (uint64_t)sb.st_size, bytes, diag);
  if (st != ONNXSHAPE_OK) {
    close(fd);
    return st;
  }
  st = onnxshape__map_region(fd, &sb, k.offset, bytes, k.location, &t->map, diag);
  if (st != ONNXSHAPE_OK) return st;
  t->view.data = bytes > 0 ? t->map.data : NULL;
  t->view.data_bytes = bytes;
  return ONNXSHAPE_OK;
}

/* ---- TensorProto to tensor --------------------------------------------------- */

/* A known type, no segment, dims that are not negative and whose element
 * count and byte count fit; *n and *bytes are those counts. */
static onnxshape_status check_header(const Onnx__TensorProto *tp, int64_t *n, size_t *bytes,
                                     onnxshape_diag *diag) {
  if (!tp->has_data_type || onnxshape_type_get(tp->data_type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': data_type {} is not a known type (1 to {})",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_INT(tp->has_data_type ? tp->data_type : 0),
                                ARG_INT(ONNXSHAPE_TYPE_LAST)));
  }
  if (tp->segment != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': segmented tensors are not supported",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
  }
  for (size_t i = 0; i < tp->n_dims; i++) {
    if (tp->dims[i] < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': dims[{}] = {} is negative",
                  ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(i), ARG_INT(tp->dims[i])));
    }
  }
  if (onnxshape_dims_count(tp->dims, tp->n_dims, n) != ONNXSHAPE_OK) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW, "tensor '{}': the element count overflows int64",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
  }
  if (onnxshape_type_storage_bytes(tp->data_type, *n, bytes) != ONNXSHAPE_OK) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_OVERFLOW, "tensor '{}': {} elements of {} do not fit in memory",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_INT(*n),
                                ARG_STR(onnxshape_type_name(tp->data_type))));
  }
  if (payload_fields(tp) > 1) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                "tensor '{}': more than one of raw_data, external data and the typed fields is set",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
  }
  return ONNXSHAPE_OK;
}

/* The payload: external data, raw_data, a typed field, or none (only for a
 * tensor without elements). */
static onnxshape_status decode_payload(const Onnx__TensorProto *tp, onnxshape_owned_tensor *t,
                                       int64_t n, size_t bytes, onnxshape__extdir *ext,
                                       onnxshape__arena *arena, onnxshape_diag *diag) {
  if (is_external(tp)) return decode_external(tp, t, bytes, ext, diag);
  if (tp->has_raw_data) {
    if (tp->data_type == ONNXSHAPE_TYPE_STRING) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR,
                  "tensor '{}': string tensors keep their values in string_data, never raw_data",
                  ONNXSHAPE__ARGS(ARG_NAME(label(tp))));
    }
    if (tp->raw_data.len != bytes) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': raw_data holds {} bytes; {} elements of {} need {}",
                  ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_UINT(tp->raw_data.len), ARG_INT(n),
                                  ARG_STR(onnxshape_type_name(tp->data_type)), ARG_UINT(bytes)));
    }
    t->view.data = tp->raw_data.data;
    t->view.data_bytes = bytes;
    return ONNXSHAPE_OK;
  }
  if (payload_fields(tp) == 1) return decode_typed(tp, t, n, bytes, arena, diag);
  if (n > 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_TENSOR, "tensor '{}': {} elements but no data",
                ONNXSHAPE__ARGS(ARG_NAME(label(tp)), ARG_INT(n)));
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__tensor_from_proto(const void *msg, onnxshape__extdir *ext,
                                              onnxshape__arena *arena,
                                              onnxshape_owned_tensor **out,
                                              onnxshape_diag *diag) {
  const Onnx__TensorProto *tp = msg;
  int64_t n;
  size_t bytes;
  onnxshape_status st = check_header(tp, &n, &bytes, diag);
  if (st != ONNXSHAPE_OK) return st;
  onnxshape_owned_tensor *t = onnxshape__arena_alloc(arena, sizeof *t); /* zeroed */
  if (t == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  t->map.fd = -1;
  t->name = tp->name != NULL ? tp->name : "";
  t->view.type = tp->data_type;
  t->view.rank = tp->n_dims;
  t->view.dims = tp->dims; /* int64_t in the arena: aligned */
  st = decode_payload(tp, t, n, bytes, ext, arena, diag);
  if (st != ONNXSHAPE_OK) {
    onnxshape__unmap(&t->map);
    return st;
  }
  *out = t;
  return ONNXSHAPE_OK;
}

/* ---- tensor files -------------------------------------------------------------- */

/* Decodes a TensorProto whose bytes are b (len) into its own arena; when
 * `raw` is not NULL it is the raw_data to use (in a mapping), the bytes
 * holding the other fields only. Messages name the file `shown` of
 * file_len bytes, or the bytes when shown is NULL. */
static onnxshape_status decode_standalone(const uint8_t *b, size_t len,
                                          const ProtobufCBinaryData *raw, onnxshape__extdir *ext,
                                          const char *shown, size_t file_len,
                                          onnxshape_owned_tensor **out, onnxshape_diag *diag) {
  onnxshape__arena *arena;
  ProtobufCMessage *msg;
  int limited;
  onnxshape_status st = onnxshape__pb_decode(&onnx__tensor_proto__descriptor, b, len,
                                             onnxshape__memory_limit(len), 0, &arena, &msg,
                                             &limited);
  if (st == ONNXSHAPE_ERR_MALFORMED) {
    if (shown != NULL) {
      return onnxshape__error(diag, st, "'{}' is not a valid TensorProto file ({} bytes)",
                  ONNXSHAPE__ARGS(ARG_NAME(shown), ARG_UINT(file_len)));
    }
    return onnxshape__error(diag, st, "not a valid TensorProto ({} bytes)", ONNXSHAPE__ARGS(ARG_UINT(len)));
  }
  if (st != ONNXSHAPE_OK) {
    if (!limited) return onnxshape__out_of_memory(NULL, NULL, diag);
    return onnxshape__error(diag, st,
                "decoding {} ({} bytes) would take more than {} MiB of memory "
                "(" ONNXSHAPE__LIMIT_TEXT ")",
                ONNXSHAPE__ARGS(ARG_NAME(shown != NULL ? shown : "the tensor"), ARG_UINT(file_len),
                                ARG_UINT(onnxshape__memory_limit(len) >> 20)));
  }
  Onnx__TensorProto *tp = (Onnx__TensorProto *)msg;
  /* A file without a data_type is no tensor (a model, or anything whose
   * bytes happen to decode: an empty file does); a model's tensors keep
   * check_header's message, which names the tensor. */
  if (!tp->has_data_type || tp->data_type == ONNXSHAPE_TYPE_UNDEFINED) {
    onnxshape__arena_release(arena);
    if (shown != NULL) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_MALFORMED,
                  "'{}' does not look like a TensorProto (no data_type; an ONNX model or "
                  "another file?)",
                  ONNXSHAPE__ARGS(ARG_NAME(shown)));
    }
    return onnxshape__error(diag, ONNXSHAPE_ERR_MALFORMED,
                "the {} bytes do not look like a TensorProto (no data_type; an ONNX model or "
                "something else?)",
                ONNXSHAPE__ARGS(ARG_UINT(len)));
  }
  if (arena->nul_name != NULL) {
    st = onnxshape__pb_nul_name(shown, arena->nul_name, arena->nul_name_len,
                                ONNXSHAPE_ERR_INVALID_TENSOR, diag);
    onnxshape__arena_release(arena);
    return st;
  }
  if (raw != NULL) {
    tp->has_raw_data = 1; /* the bytes have none: find_raw_data took the only one */
    tp->raw_data = *raw;
  }
  onnxshape_owned_tensor *t;
  st = onnxshape__tensor_from_proto(tp, ext, arena, &t, diag);
  if (st != ONNXSHAPE_OK) {
    onnxshape__arena_release(arena);
    return st;
  }
  t->arena = arena;
  *out = t;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_tensor_parse(const void *bytes, size_t len, const char *base_dir,
                                        onnxshape_owned_tensor **out, onnxshape_diag *diag) {
  if (out == NULL || (bytes == NULL && len > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_parse: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st;
  if (onnxshape__npy_magic(bytes, len)) {
    st = onnxshape__npy_decode(bytes, len, NULL, 0, NULL, out, diag);
  } else {
    onnxshape__extdir ext = {base_dir, -1, NULL, 0, 0};
    st = decode_standalone(bytes != NULL ? bytes : (const uint8_t *)"", len, NULL, &ext, NULL,
                           len, out, diag);
    onnxshape__extdir_close(&ext);
  }
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

/* Finds the one raw_data field (9) of a TensorProto in b. 0 when there is
 * none, more than one, or b is not a plain sequence of well-formed fields
 * (the decoder then reports it). */
static int find_raw_data(const uint8_t *b, size_t len, wire_field *raw, size_t *start,
                         size_t *end) {
  const uint8_t *p = b, *stop = b + len;
  int found = 0;
  wire_field f;
  while (p < stop) {
    const uint8_t *at = p;
    if (!wire_field_read(&p, stop, &f)) return 0;
    if (f.number == 9 && f.wire == WIRE_LEN) {
      if (found) return 0;
      found = 1;
      *raw = f;
      *start = (size_t)(at - b);
      *end = (size_t)(p - b);
    }
  }
  return found;
}

/* The smallest raw_data used in place (smaller ones are cheaper to copy).
 * A variable, not a constant, so that the fuzz target can lower it. */
size_t onnxshape__inplace_min = 64u << 10;

/* A mapped TensorProto file whose raw_data the tensor uses in place: the
 * other fields are copied and decoded. ONNXSHAPE_ERR_NOT_FOUND when the file
 * has no single raw_data of at least onnxshape__inplace_min bytes (the
 * caller decodes it whole). */
static onnxshape_status parse_in_place(const onnxshape__map *m, onnxshape__extdir *ext,
                                       const char *shown, onnxshape_owned_tensor **out,
                                       onnxshape_diag *diag) {
  wire_field raw;
  size_t start, end, len = m->len;
  const uint8_t *b = m->data;
  if (!find_raw_data(b, len, &raw, &start, &end) || raw.v < onnxshape__inplace_min) {
    return ONNXSHAPE_ERR_NOT_FOUND;
  }
  size_t rest_len = len - (end - start);
  uint8_t *rest = onnxshape__malloc(rest_len);
  if (rest == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  memcpy(rest, b, start);
  memcpy(rest + start, b + end, len - end);
  ProtobufCBinaryData data = {(size_t)raw.v, (uint8_t *)(uintptr_t)raw.at};
  onnxshape_status st = decode_standalone(rest, rest_len, &data, ext, shown, len, out, diag);
  onnxshape__free(rest);
  return st;
}

/* A tensor file, TensorProto or .npy (by its first bytes): small ones are
 * read and decoded; a large one is mapped and its raw_data (or .npy data
 * that needs no conversion) used in place, or else decoded from the
 * mapping. */
static onnxshape_status read_tensor_file(const char *path, const char *base,
                                         onnxshape__extdir *ext, onnxshape_owned_tensor **out,
                                         onnxshape_diag *diag) {
  int fd;
  struct stat sb;
  onnxshape_status st = onnxshape__open_file(ext->fd, base, path, &fd, &sb, diag);
  if (st != ONNXSHAPE_OK) return st;
  if ((uint64_t)sb.st_size < onnxshape__inplace_min) {
    unsigned char *bytes;
    size_t len;
    st = onnxshape__read_all(fd, &sb, path, &bytes, &len, diag);
    close(fd);
    if (st != ONNXSHAPE_OK) return st;
    if (onnxshape__npy_magic(bytes, len)) {
      st = onnxshape__npy_decode(bytes, len, path, 0, NULL, out, diag);
    } else {
      st = decode_standalone(bytes, len, NULL, ext, path, len, out, diag);
    }
    onnxshape__free(bytes);
    return st;
  }
  if ((uint64_t)sb.st_size > SIZE_MAX) {
    close(fd);
    return onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "'{}' ({} bytes) is too large for this machine",
                ONNXSHAPE__ARGS(ARG_NAME(path), ARG_UINT((uint64_t)sb.st_size)));
  }
  onnxshape__map m;
  st = onnxshape__map_region(fd, &sb, 0, (size_t)sb.st_size, path, &m, diag);
  if (st != ONNXSHAPE_OK) return st;
  int in_place = 0;
  if (onnxshape__npy_magic(m.data, m.len)) {
    st = onnxshape__npy_decode(m.data, m.len, path, 1, &in_place, out, diag);
  } else {
    st = parse_in_place(&m, ext, path, out, diag);
    in_place = st == ONNXSHAPE_OK;
    if (st == ONNXSHAPE_ERR_NOT_FOUND) {
      st = decode_standalone(m.data, m.len, NULL, ext, path, m.len, out, diag);
    }
  }
  /* The file must still be what was mapped: one cut short while it was read
   * gives this error, not a tensor of zeros (or a decoding error). */
  onnxshape_status now = onnxshape__map_check(&m, diag);
  if (now != ONNXSHAPE_OK && st == ONNXSHAPE_OK) {
    onnxshape_owned_tensor_free(*out);
    *out = NULL; /* the caller frees what *out holds on failure too */
  }
  if (now == ONNXSHAPE_OK && in_place) {
    (*out)->map = m; /* the tensor's now */
  } else {
    onnxshape__unmap(&m);
  }
  return now != ONNXSHAPE_OK ? now : st;
}

onnxshape_status onnxshape_tensor_read_file(const char *path, onnxshape_owned_tensor **out,
                                            onnxshape_diag *diag) {
  if (path == NULL || out == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_read_file: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  /* External data resolves in the directory the file was opened from. */
  onnxshape__extdir ext = {NULL, -1, NULL, 0, 0};
  const char *base;
  char *dir;
  onnxshape_status st = onnxshape__open_parent(path, &ext.fd, &base, &dir, diag);
  if (st != ONNXSHAPE_OK) return st;
  ext.path = dir;
  st = read_tensor_file(path, base, &ext, out, diag);
  onnxshape__extdir_close(&ext);
  free(dir);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

/* ---- writing ------------------------------------------------------------------ */

/* A TensorProto for t: raw_data for every type but string, string_data for
 * strings (*strs, to free, holds their descriptors). */
static onnxshape_status tensor_proto(const char *name, const onnxshape_tensor *t,
                                     Onnx__TensorProto *tp, ProtobufCBinaryData **strs,
                                     onnxshape_diag *diag) {
  *strs = NULL;
  if (t == NULL || (t->dims == NULL && t->rank > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_write: NULL tensor or dims", ONNXSHAPE__NO_ARGS);
  }
  if (onnxshape_type_get(t->type) == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_UNKNOWN_TYPE, "cannot write element type {}", ONNXSHAPE__ARGS(ARG_INT(t->type)));
  }
  int64_t n;
  onnxshape_status st = onnxshape_dims_count(t->dims, t->rank, &n);
  if (st != ONNXSHAPE_OK) return onnxshape__error(diag, st, "cannot write a tensor with invalid dims", ONNXSHAPE__NO_ARGS);
  size_t bytes;
  st = onnxshape_type_storage_bytes(t->type, n, &bytes);
  if (st != ONNXSHAPE_OK) return onnxshape__error(diag, st, "tensor too large to write", ONNXSHAPE__NO_ARGS);
  if (t->data_bytes < bytes || (t->data == NULL && bytes > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_DATA_SIZE, "tensor holds {} bytes; its dims need {}",
                ONNXSHAPE__ARGS(ARG_UINT(t->data_bytes), ARG_UINT(bytes)));
  }
  Onnx__TensorProto init = ONNX__TENSOR_PROTO__INIT;
  *tp = init;
  tp->n_dims = t->rank;
  tp->dims = (int64_t *)(uintptr_t)t->dims;
  tp->has_data_type = 1;
  tp->data_type = t->type;
  tp->name = (char *)(uintptr_t)(name != NULL ? name : "");
  if (t->type != ONNXSHAPE_TYPE_STRING) {
    tp->has_raw_data = 1;
    tp->raw_data.len = bytes;
    tp->raw_data.data = (uint8_t *)(uintptr_t)t->data;
    return ONNXSHAPE_OK;
  }
  const onnxshape_string *s = t->data;
  *strs = onnxshape__malloc_n((size_t)n, sizeof **strs);
  if (*strs == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  for (int64_t i = 0; i < n; i++) {
    (*strs)[i].len = s[i].length;
    (*strs)[i].data = (uint8_t *)(uintptr_t)s[i].data;
  }
  tp->n_string_data = (size_t)n;
  tp->string_data = *strs;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_tensor_write_file(const char *path, const char *name,
                                             const onnxshape_tensor *t, onnxshape_diag *diag) {
  if (path == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_write_file: NULL path", ONNXSHAPE__NO_ARGS);
  }
  Onnx__TensorProto tp;
  ProtobufCBinaryData *strs;
  onnxshape_status st = tensor_proto(name, t, &tp, &strs, diag);
  if (st == ONNXSHAPE_OK) st = onnxshape__write_message_file(path, &tp.base, diag);
  onnxshape__free(strs);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}

onnxshape_status onnxshape_tensor_write_fd(int fd, const char *shown, const char *name,
                                           const onnxshape_tensor *t, onnxshape_diag *diag) {
  if (fd < 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "tensor_write_fd: no file", ONNXSHAPE__NO_ARGS);
  }
  Onnx__TensorProto tp;
  ProtobufCBinaryData *strs;
  onnxshape_status st = tensor_proto(name, t, &tp, &strs, diag);
  if (st == ONNXSHAPE_OK) {
    st = onnxshape__write_message_fd(fd, &tp.base, shown != NULL ? shown : "the output", diag);
  }
  onnxshape__free(strs);
  if (st == ONNXSHAPE_OK) onnxshape__diag_clear(diag);
  return st;
}
