/* SPDX-License-Identifier: Apache-2.0 */
/* A fast protobuf decoder for the plain encodings of the ONNX subset, in
 * front of protobuf-c (see pbfast.h for the contract).
 *
 * protobuf-c's generic unpack spent about 115 instructions per byte of a
 * small model (13,500 of the 23,500 of a whole load and run). Here each
 * message of src/onnx/onnx_subset.proto has its own decoder: a switch on the
 * field number whose cases (one line per field, below) check the wire type
 * and store into the protobuf-c struct. A message is read once; repeated
 * fields are counted into their n_ member (and recorded) on the way, and
 * when there are any, each array is allocated once at its final size and a
 * second pass over the recorded fields fills it. Everything comes from the
 * model's arena (arena.h).
 *
 * It declines (returns NULL) on anything it does not decode exactly as
 * protobuf-c does, so that protobuf-c, not this code, decides every unusual
 * case (pbfast.h lists them). tests/test_pbfast.c packs every field of
 * every message with protobuf-c (so a field missing or misplaced below
 * fails it), and with fuzz/fuzz_pbfast.c checks that whatever this decoder
 * accepts, protobuf-c decodes to the same values. */
#include "pbfast.h"

#include <limits.h>
#include <string.h>

#include "../core/internal.h"
#include "../core/le.h"
#include "onnx_subset.pb-c.h"
#include "wire.h"

#define MAX_DEPTH 16    /* nesting; the subset nests 7 deep */
#define MAX_RECORDED 16 /* repeated values a first pass keeps for the second */
#define HOT_INLINE ONNXSHAPE__HOT

static uint32_t le32(const uint8_t *b) { return (uint32_t)onnxshape__load_le(b, 4); }

static uint64_t le64(const uint8_t *b) { return onnxshape__load_le(b, 8); }

/* ---- values ----------------------------------------------------------------- */

static HOT_INLINE void *alloc(onnxshape__arena *a, size_t n) {
  return onnxshape__arena_alloc(a, n > 0 ? n : 1);
}

/* 1 for the string fields of the subset that hold names (of values,
 * nodes, operators, domains, attributes, symbols, external-data keys and
 * values), which C strings would cut at a NUL byte, so that "x\0a" would
 * read as "x": such a name is refused (pbfast.h). Field names as in
 * onnx_subset.proto (the fast decoder passes its member's name, the check
 * after protobuf-c the descriptor's). */
static int is_name_field(const char *field) {
  static const char *const names[] = {"name",   "input",     "output",        "op_type",
                                      "domain", "overload",  "dim_param",     "ref_attr_name",
                                      "key",    "value",     "attribute"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(field, names[i]) == 0) return 1;
  }
  return 0;
}

/* Records that the name in f holds a NUL byte (the first one met). */
static void refuse_name(onnxshape__arena *a, const wire_field *f) {
  if (a->nul_name == NULL) {
    a->nul_name = f->at;
    a->nul_name_len = (size_t)f->v;
  }
}

/* A NUL-terminated copy, as protobuf-c makes of a string; a name holding a
 * NUL byte is recorded in the arena (its users refuse it). Names are mostly
 * a few bytes: those are copied in a loop, not through a call to memcpy. */
static HOT_INLINE char *copy_string(onnxshape__arena *a, const wire_field *f, int name) {
  size_t n = (size_t)f->v;
  if (name && a->nul_name == NULL && memchr(f->at, 0, n) != NULL) refuse_name(a, f);
  char *s = alloc(a, n + 1);
  if (s == NULL) return NULL;
  if (n <= 16) {
    for (size_t i = 0; i < n; i++) s[i] = (char)f->at[i];
  } else {
    memcpy(s, f->at, n);
  }
  s[n] = '\0';
  return s;
}

/* A copy of bytes, or with a->borrow the bytes where they are in the input
 * (raw_data then costs nothing to decode: a model file is mapped, and pages
 * of tensor data that nothing reads never come into memory). Empty bytes
 * get no buffer, as with protobuf-c. Nothing writes through out->data. */
static HOT_INLINE int copy_bytes(onnxshape__arena *a, const wire_field *f, ProtobufCBinaryData *out) {
  out->len = (size_t)f->v;
  out->data = NULL;
  if (f->v == 0) return 1;
  if (a->borrow) {
    out->data = (uint8_t *)(uintptr_t)f->at;
    return 1;
  }
  out->data = alloc(a, (size_t)f->v);
  if (out->data == NULL) return 0;
  memcpy(out->data, f->at, (size_t)f->v);
  return 1;
}

/* int32 and enum fields keep the low 32 bits of the varint (protobuf-c's
 * parse_int32); stored through memcpy since enums are 32-bit here. */
static HOT_INLINE void store32(void *dst, uint64_t v) {
  uint32_t x = (uint32_t)(v & 0xffffffffu);
  memcpy(dst, &x, sizeof x);
}

/* Marks field `bit` as seen; 0 when it already was (a singular field, or a
 * oneof, given twice: protobuf-c's ruling). */
static HOT_INLINE int once(uint32_t *seen, unsigned bit) {
  uint32_t b = (uint32_t)1u << bit;
  if (*seen & b) return 0;
  *seen |= b;
  return 1;
}

/* The values in a repeated scalar field: one value of wire type `wire`, or
 * a packed run of them; 0 when it is neither (or the run does not divide
 * into whole values). */
static HOT_INLINE int count_values(const wire_field *f, unsigned wire, size_t *n) {
  if (f->wire == wire) {
    (*n)++;
    return 1;
  }
  if (f->wire != WIRE_LEN) return 0;
  if (wire != WIRE_VARINT) {
    size_t size = wire == WIRE_32 ? 4u : 8u;
    if (f->v % size != 0) return 0;
    *n += (size_t)f->v / size;
    return 1;
  }
  const uint8_t *p = f->at, *end = f->at + f->v;
  while (p < end) {
    uint64_t v;
    if (!wire_varint(&p, end, &v)) return 0;
    (*n)++;
  }
  return 1;
}

/* Element k of an array of 4- or 8-byte elements. */
static HOT_INLINE void store_element(unsigned char *arr, size_t size, size_t k, uint64_t v) {
  if (size == 4) {
    store32(arr + k * 4, v);
  } else {
    memcpy(arr + k * 8, &v, 8);
  }
}

/* Stores the value(s) counted by count_values() into arr from index *n on;
 * `size` is the bytes of one element (4 or 8), `wire` the wire type of one
 * value. */
static void fill_values(const wire_field *f, unsigned wire, size_t size, void *arr, size_t *n) {
  unsigned char *out = arr;
  if (f->wire == wire) { /* one value */
    uint64_t v = wire == WIRE_VARINT ? f->v : wire == WIRE_32 ? le32(f->at) : le64(f->at);
    store_element(out, size, (*n)++, v);
    return;
  }
  const uint8_t *p = f->at, *end = f->at + f->v; /* a packed run */
  while (p < end) {
    uint64_t v = 0;
    if (wire == WIRE_VARINT) {
      (void)wire_varint(&p, end, &v); /* count_values() read each one */
    } else {
      v = wire == WIRE_32 ? le32(p) : le64(p);
      p += wire == WIRE_32 ? 4 : 8;
    }
    store_element(out, size, (*n)++, v);
  }
}

_Static_assert(sizeof(Onnx__AttributeProto__AttributeType) == 4 &&
                   sizeof(Onnx__TensorProto__DataLocation) == 4,
               "enum fields are stored as 32 bits");

/* ---- one decoder per message ------------------------------------------------- */

#define DECODER(name, T) \
  static T *name(const uint8_t *b, size_t len, onnxshape__arena *a, unsigned depth)

/* The start of a decoder: the message, at its defaults, and the first pass.
 * Arena memory is zeroed, and every message's defaults are zero but its
 * descriptor (tests/test_pbfast.c checks each INIT literal). */
#define BEGIN(T, desc)                         \
  if (depth > MAX_DEPTH) return NULL;          \
  T *m = alloc(a, sizeof *m);                  \
  if (m == NULL) return NULL;                  \
  m->base.descriptor = &desc;                  \
  uint32_t seen = 0;                           \
  int repeated = 0;                            \
  wire_field recs[MAX_RECORDED];                    \
  size_t n_rec = 0;                            \
  (void)seen;                                  \
  (void)repeated;                              \
  (void)recs;                                  \
  (void)n_rec;                                 \
  wire_field f;                                     \
  const uint8_t *p = b, *end = b + len;        \
  while (p < end) {                            \
    if (!wire_field_read(&p, end, &f)) return NULL; \
    switch (f.number) {
#define END_PASS                                                       \
  default:                                                             \
    break; /* an unknown field: skipped (protobuf-c keeps it aside) */ \
    }                                                                  \
    }

/* The second pass, over the repeated fields only: those pass 1 recorded
 * or, past MAX_RECORDED of them, all the fields again. */
#define FILL_PASS                                  \
  if (repeated) {                                  \
    size_t k_ = 0;                                 \
    p = b;                                         \
    for (;;) {                                     \
      if (n_rec <= MAX_RECORDED) {                 \
        if (k_ == n_rec) break;                    \
        f = recs[k_++];                            \
      } else {                                     \
        if (p >= end) break;                       \
        if (!wire_field_read(&p, end, &f)) return NULL; \
      }                                            \
      switch (f.number) {
#define CHECK_WIRE(w) \
  if (f.wire != (w)) return NULL

/* Singular fields (pass 1): a proto2 optional scalar or bytes sets its has_
 * flag; strings and messages are pointers (NULL when absent). */
#define OPT_INT64(n, mem)                 \
  case n:                                 \
    CHECK_WIRE(WIRE_VARINT);              \
    if (!once(&seen, n)) return NULL;     \
    m->has_##mem = 1;                     \
    memcpy(&m->mem, &f.v, sizeof m->mem); \
    break;
#define OPT_INT32(n, mem)             \
  case n:                             \
    CHECK_WIRE(WIRE_VARINT);          \
    if (!once(&seen, n)) return NULL; \
    m->has_##mem = 1;                 \
    store32(&m->mem, f.v);            \
    break;
#define OPT_FLOAT(n, mem)             \
  case n: {                           \
    CHECK_WIRE(WIRE_32);              \
    if (!once(&seen, n)) return NULL; \
    m->has_##mem = 1;                 \
    uint32_t x_ = le32(f.at);         \
    memcpy(&m->mem, &x_, sizeof x_);  \
    break;                            \
  }
#define OPT_BYTES(n, mem)                         \
  case n:                                         \
    CHECK_WIRE(WIRE_LEN);                         \
    if (!once(&seen, n)) return NULL;             \
    m->has_##mem = 1;                             \
    if (!copy_bytes(a, &f, &m->mem)) return NULL; \
    break;
#define STRING(n, mem)                                                         \
  case n:                                                                      \
    CHECK_WIRE(WIRE_LEN);                                                      \
    if (!once(&seen, n) || (m->mem = copy_string(a, &f, is_name_field(#mem))) == NULL) return NULL; \
    break;
#define MESSAGE(n, mem, dec)                                                                     \
  case n:                                                                                        \
    CHECK_WIRE(WIRE_LEN);                                                                        \
    if (!once(&seen, n) || (m->mem = dec(f.at, (size_t)f.v, a, depth + 1)) == NULL) return NULL; \
    break;

/* Members of a message's one oneof (bit 31 of `seen` stands for it). */
#define ONEOF 31
#define ONEOF_INT64(n, mem, which)        \
  case n:                                 \
    CHECK_WIRE(WIRE_VARINT);              \
    if (!once(&seen, ONEOF)) return NULL; \
    m->value_case = which;                \
    memcpy(&m->mem, &f.v, sizeof m->mem); \
    break;
#define ONEOF_STRING(n, mem, which)                                                \
  case n:                                                                          \
    CHECK_WIRE(WIRE_LEN);                                                          \
    if (!once(&seen, ONEOF) || (m->mem = copy_string(a, &f, is_name_field(#mem))) == NULL) return NULL; \
    m->value_case = which;                                                         \
    break;
#define ONEOF_BYTES(n, mem, which)                                       \
  case n:                                                                \
    CHECK_WIRE(WIRE_LEN);                                                \
    if (!once(&seen, ONEOF) || !copy_bytes(a, &f, &m->mem)) return NULL; \
    m->value_case = which;                                               \
    break;
#define ONEOF_MESSAGE(n, mem, dec, which)                                               \
  case n:                                                                               \
    CHECK_WIRE(WIRE_LEN);                                                               \
    if (!once(&seen, ONEOF) || (m->mem = dec(f.at, (size_t)f.v, a, depth + 1)) == NULL) \
      return NULL;                                                                      \
    m->value_case = which;                                                              \
    break;

/* Repeated fields, pass 1: counted into n_<mem>. */
#define RECORD                               \
  repeated = 1;                              \
  if (n_rec < MAX_RECORDED) recs[n_rec] = f; \
  n_rec++;
#define COUNT_LEN(n, mem) \
  case n:                 \
    CHECK_WIRE(WIRE_LEN); \
    m->n_##mem++;         \
    RECORD                \
    break;
#define COUNT_SCALAR(n, mem, wire)                         \
  case n:                                                  \
    if (!count_values(&f, wire, &m->n_##mem)) return NULL; \
    RECORD                                                 \
    break;

/* Between the passes: each counted array, allocated at its size; n_<mem>
 * then counts the values stored. */
#define ALLOCATE(mem)                                                          \
  if (m->n_##mem > 0) {                                                        \
    if (m->n_##mem > SIZE_MAX / 2 / sizeof *m->mem) return NULL;               \
    if ((m->mem = alloc(a, m->n_##mem * sizeof *m->mem)) == NULL) return NULL; \
    m->n_##mem = 0;                                                            \
  }

/* Repeated fields, pass 2. */
#define FILL_STRING(n, mem)                                               \
  case n:                                                                 \
    if ((m->mem[m->n_##mem++] = copy_string(a, &f, is_name_field(#mem))) == NULL) return NULL; \
    break;
#define FILL_BYTES(n, mem)                                      \
  case n:                                                       \
    if (!copy_bytes(a, &f, &m->mem[m->n_##mem++])) return NULL; \
    break;
#define FILL_MESSAGE(n, mem, dec)                                                           \
  case n:                                                                                   \
    if ((m->mem[m->n_##mem++] = dec(f.at, (size_t)f.v, a, depth + 1)) == NULL) return NULL; \
    break;
#define FILL_SCALAR(n, mem, wire)                               \
  case n:                                                       \
    fill_values(&f, wire, sizeof *m->mem, m->mem, &m->n_##mem); \
    break;

#define END_FILL \
  default:       \
    break;       \
    }            \
    }            \
    }

DECODER(dec_entry, Onnx__StringStringEntryProto) {
  BEGIN(Onnx__StringStringEntryProto, onnx__string_string_entry_proto__descriptor)
  STRING(1, key)
  STRING(2, value)
  END_PASS
  return m;
}

DECODER(dec_opset, Onnx__OperatorSetIdProto) {
  BEGIN(Onnx__OperatorSetIdProto, onnx__operator_set_id_proto__descriptor)
  STRING(1, domain)
  OPT_INT64(2, version)
  END_PASS
  return m;
}

DECODER(dec_segment, Onnx__TensorProto__Segment) {
  BEGIN(Onnx__TensorProto__Segment, onnx__tensor_proto__segment__descriptor)
  OPT_INT64(1, begin)
  OPT_INT64(2, end)
  END_PASS
  return m;
}

DECODER(dec_tensor, Onnx__TensorProto) {
  BEGIN(Onnx__TensorProto, onnx__tensor_proto__descriptor)
  COUNT_SCALAR(1, dims, WIRE_VARINT)
  OPT_INT32(2, data_type)
  MESSAGE(3, segment, dec_segment)
  COUNT_SCALAR(4, float_data, WIRE_32)
  COUNT_SCALAR(5, int32_data, WIRE_VARINT)
  COUNT_LEN(6, string_data)
  COUNT_SCALAR(7, int64_data, WIRE_VARINT)
  STRING(8, name)
  OPT_BYTES(9, raw_data)
  COUNT_SCALAR(10, double_data, WIRE_64)
  COUNT_SCALAR(11, uint64_data, WIRE_VARINT)
  STRING(12, doc_string)
  COUNT_LEN(13, external_data)
  OPT_INT32(14, data_location)
  END_PASS
  ALLOCATE(dims)
  ALLOCATE(float_data)
  ALLOCATE(int32_data)
  ALLOCATE(string_data)
  ALLOCATE(int64_data)
  ALLOCATE(double_data)
  ALLOCATE(uint64_data)
  ALLOCATE(external_data)
  FILL_PASS
  FILL_SCALAR(1, dims, WIRE_VARINT)
  FILL_SCALAR(4, float_data, WIRE_32)
  FILL_SCALAR(5, int32_data, WIRE_VARINT)
  FILL_BYTES(6, string_data)
  FILL_SCALAR(7, int64_data, WIRE_VARINT)
  FILL_SCALAR(10, double_data, WIRE_64)
  FILL_SCALAR(11, uint64_data, WIRE_VARINT)
  FILL_MESSAGE(13, external_data, dec_entry)
  END_FILL
  return m;
}

DECODER(dec_dimension, Onnx__TensorShapeProto__Dimension) {
  BEGIN(Onnx__TensorShapeProto__Dimension, onnx__tensor_shape_proto__dimension__descriptor)
  ONEOF_INT64(1, dim_value, ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
  ONEOF_STRING(2, dim_param, ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
  STRING(3, denotation)
  END_PASS
  return m;
}

DECODER(dec_shape, Onnx__TensorShapeProto) {
  BEGIN(Onnx__TensorShapeProto, onnx__tensor_shape_proto__descriptor)
  COUNT_LEN(1, dim)
  END_PASS
  ALLOCATE(dim)
  FILL_PASS
  FILL_MESSAGE(1, dim, dec_dimension)
  END_FILL
  return m;
}

DECODER(dec_type_tensor, Onnx__TypeProto__Tensor) {
  BEGIN(Onnx__TypeProto__Tensor, onnx__type_proto__tensor__descriptor)
  OPT_INT32(1, elem_type)
  MESSAGE(2, shape, dec_shape)
  END_PASS
  return m;
}

DECODER(dec_type, Onnx__TypeProto) {
  BEGIN(Onnx__TypeProto, onnx__type_proto__descriptor)
  ONEOF_MESSAGE(1, tensor_type, dec_type_tensor, ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
  ONEOF_BYTES(4, sequence_type, ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE)
  ONEOF_BYTES(5, map_type, ONNX__TYPE_PROTO__VALUE_MAP_TYPE)
  STRING(6, denotation)
  ONEOF_BYTES(8, sparse_tensor_type, ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE)
  ONEOF_BYTES(9, optional_type, ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE)
  END_PASS
  return m;
}

DECODER(dec_value_info, Onnx__ValueInfoProto) {
  BEGIN(Onnx__ValueInfoProto, onnx__value_info_proto__descriptor)
  STRING(1, name)
  MESSAGE(2, type, dec_type)
  STRING(3, doc_string)
  END_PASS
  return m;
}

DECODER(dec_attribute, Onnx__AttributeProto) {
  BEGIN(Onnx__AttributeProto, onnx__attribute_proto__descriptor)
  STRING(1, name)
  OPT_FLOAT(2, f)
  OPT_INT64(3, i)
  OPT_BYTES(4, s)
  MESSAGE(5, t, dec_tensor)
  OPT_BYTES(6, g)
  COUNT_SCALAR(7, floats, WIRE_32)
  COUNT_SCALAR(8, ints, WIRE_VARINT)
  COUNT_LEN(9, strings)
  COUNT_LEN(10, tensors)
  COUNT_LEN(11, graphs)
  STRING(13, doc_string)
  OPT_BYTES(14, tp)
  COUNT_LEN(15, type_protos)
  OPT_INT32(20, type)
  STRING(21, ref_attr_name)
  OPT_BYTES(22, sparse_tensor)
  COUNT_LEN(23, sparse_tensors)
  END_PASS
  ALLOCATE(floats)
  ALLOCATE(ints)
  ALLOCATE(strings)
  ALLOCATE(tensors)
  ALLOCATE(graphs)
  ALLOCATE(type_protos)
  ALLOCATE(sparse_tensors)
  FILL_PASS
  FILL_SCALAR(7, floats, WIRE_32)
  FILL_SCALAR(8, ints, WIRE_VARINT)
  FILL_BYTES(9, strings)
  FILL_MESSAGE(10, tensors, dec_tensor)
  FILL_BYTES(11, graphs)
  FILL_BYTES(15, type_protos)
  FILL_BYTES(23, sparse_tensors)
  END_FILL
  return m;
}

DECODER(dec_node, Onnx__NodeProto) {
  BEGIN(Onnx__NodeProto, onnx__node_proto__descriptor)
  COUNT_LEN(1, input)
  COUNT_LEN(2, output)
  STRING(3, name)
  STRING(4, op_type)
  COUNT_LEN(5, attribute)
  STRING(6, doc_string)
  STRING(7, domain)
  STRING(8, overload)
  END_PASS
  ALLOCATE(input)
  ALLOCATE(output)
  ALLOCATE(attribute)
  FILL_PASS
  FILL_STRING(1, input)
  FILL_STRING(2, output)
  FILL_MESSAGE(5, attribute, dec_attribute)
  END_FILL
  return m;
}

DECODER(dec_graph, Onnx__GraphProto) {
  BEGIN(Onnx__GraphProto, onnx__graph_proto__descriptor)
  COUNT_LEN(1, node)
  STRING(2, name)
  COUNT_LEN(5, initializer)
  STRING(10, doc_string)
  COUNT_LEN(11, input)
  COUNT_LEN(12, output)
  COUNT_LEN(13, value_info)
  COUNT_LEN(15, sparse_initializer)
  END_PASS
  ALLOCATE(node)
  ALLOCATE(initializer)
  ALLOCATE(input)
  ALLOCATE(output)
  ALLOCATE(value_info)
  ALLOCATE(sparse_initializer)
  FILL_PASS
  FILL_MESSAGE(1, node, dec_node)
  FILL_MESSAGE(5, initializer, dec_tensor)
  FILL_MESSAGE(11, input, dec_value_info)
  FILL_MESSAGE(12, output, dec_value_info)
  FILL_MESSAGE(13, value_info, dec_value_info)
  FILL_BYTES(15, sparse_initializer)
  END_FILL
  return m;
}

DECODER(dec_model, Onnx__ModelProto) {
  BEGIN(Onnx__ModelProto, onnx__model_proto__descriptor)
  OPT_INT64(1, ir_version)
  STRING(2, producer_name)
  STRING(3, producer_version)
  STRING(4, domain)
  OPT_INT64(5, model_version)
  STRING(6, doc_string)
  MESSAGE(7, graph, dec_graph)
  COUNT_LEN(8, opset_import)
  COUNT_LEN(14, metadata_props)
  COUNT_LEN(25, functions)
  END_PASS
  ALLOCATE(opset_import)
  ALLOCATE(metadata_props)
  ALLOCATE(functions)
  FILL_PASS
  FILL_MESSAGE(8, opset_import, dec_opset)
  FILL_MESSAGE(14, metadata_props, dec_entry)
  FILL_BYTES(25, functions)
  END_FILL
  return m;
}

/* ---- entry ------------------------------------------------------------------ */

/* The decoders as protobuf-c messages, by descriptor. */
#define ENTRY(name, dec)                                                             \
  static ProtobufCMessage *name(const uint8_t *b, size_t len, onnxshape__arena *a) { \
    void *m = dec(b, len, a, 0);                                                     \
    return m;                                                                        \
  }
ENTRY(entry_model, dec_model)
ENTRY(entry_tensor, dec_tensor)
ENTRY(entry_graph, dec_graph)
ENTRY(entry_node, dec_node)
ENTRY(entry_attribute, dec_attribute)
ENTRY(entry_value_info, dec_value_info)
ENTRY(entry_type, dec_type)
ENTRY(entry_type_tensor, dec_type_tensor)
ENTRY(entry_shape, dec_shape)
ENTRY(entry_dimension, dec_dimension)
ENTRY(entry_segment, dec_segment)
ENTRY(entry_opset, dec_opset)
ENTRY(entry_string_entry, dec_entry)

static const struct {
  const ProtobufCMessageDescriptor *desc;
  ProtobufCMessage *(*decode)(const uint8_t *b, size_t len, onnxshape__arena *a);
} decoders[] = {
    {&onnx__model_proto__descriptor, entry_model},
    {&onnx__tensor_proto__descriptor, entry_tensor},
    {&onnx__graph_proto__descriptor, entry_graph},
    {&onnx__node_proto__descriptor, entry_node},
    {&onnx__attribute_proto__descriptor, entry_attribute},
    {&onnx__value_info_proto__descriptor, entry_value_info},
    {&onnx__type_proto__descriptor, entry_type},
    {&onnx__type_proto__tensor__descriptor, entry_type_tensor},
    {&onnx__tensor_shape_proto__descriptor, entry_shape},
    {&onnx__tensor_shape_proto__dimension__descriptor, entry_dimension},
    {&onnx__tensor_proto__segment__descriptor, entry_segment},
    {&onnx__operator_set_id_proto__descriptor, entry_opset},
    {&onnx__string_string_entry_proto__descriptor, entry_string_entry},
};

ProtobufCMessage *onnxshape__pb_fast_decode(const ProtobufCMessageDescriptor *desc,
                                            const uint8_t *bytes, size_t len,
                                            onnxshape__arena *arena) {
  if (desc == NULL || arena == NULL || (bytes == NULL && len > 0)) return NULL;
  if (bytes == NULL) bytes = (const uint8_t *)"";
  for (size_t i = 0; i < sizeof decoders / sizeof decoders[0]; i++) {
    if (decoders[i].desc == desc) return decoders[i].decode(bytes, len, arena);
  }
  return NULL;
}

/* After protobuf-c decoded the message of desc in [p, end): records in a
 * the first of its names (or of the messages it holds) that has a NUL byte,
 * which protobuf-c's strings cannot show (they end there). Only messages
 * protobuf-c decoded are walked, so their nesting is bounded already. */
static int names_hold_nul(const ProtobufCMessageDescriptor *desc, const uint8_t *p,
                          const uint8_t *end, onnxshape__arena *a) {
  wire_field f;
  while (p < end && wire_field_read(&p, end, &f)) {
    if (f.wire != WIRE_LEN || f.number > UINT32_MAX) continue;
    const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field(desc, (unsigned)f.number);
    if (fd == NULL) continue;
    if (fd->type == PROTOBUF_C_TYPE_STRING && is_name_field(fd->name) &&
        memchr(f.at, 0, (size_t)f.v) != NULL) {
      refuse_name(a, &f);
      return 1;
    }
    if (fd->type == PROTOBUF_C_TYPE_MESSAGE &&
        names_hold_nul(fd->descriptor, f.at, f.at + f.v, a)) {
      return 1;
    }
  }
  return 0;
}

/* The fast decoder, else protobuf-c (from a fresh arena when fresh_limit
 * is not 0; *a then changes) with its names checked for NUL bytes. */
static ProtobufCMessage *decode_either(const ProtobufCMessageDescriptor *desc,
                                       const uint8_t *bytes, size_t len, onnxshape__arena **a,
                                       size_t fresh_limit) {
  ProtobufCMessage *m = onnxshape__pb_fast_decode(desc, bytes, len, *a);
  if (m != NULL || (*a)->over_limit || (*a)->out_of_memory) return m;
  /* An encoding the fast path leaves to protobuf-c, or malformed bytes. */
  if (fresh_limit != 0) {
    int borrow = (*a)->borrow;
    onnxshape__arena_release(*a);
    *a = onnxshape__arena_new(fresh_limit);
    if (*a == NULL) return NULL;
    (*a)->borrow = borrow;
  } else {
    (*a)->nul_name = NULL; /* what the fast decoder saw before declining */
  }
  m = protobuf_c_message_unpack(desc, &(*a)->allocator, len, bytes);
  if (m != NULL) (void)names_hold_nul(desc, bytes, bytes + len, *a);
  return m;
}

onnxshape_status onnxshape__pb_decode(const ProtobufCMessageDescriptor *desc, const uint8_t *bytes,
                                      size_t len, size_t limit, int borrow,
                                      onnxshape__arena **arena, ProtobufCMessage **msg,
                                      int *limited) {
  *limited = 0;
  *arena = NULL;
  *msg = NULL;
  onnxshape__arena *a = onnxshape__arena_new(limit);
  if (a == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  a->borrow = borrow;
  ProtobufCMessage *m = decode_either(desc, bytes, len, &a, limit);
  if (a == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  if (m == NULL) {
    *limited = a->over_limit;
    onnxshape_status st =
        a->over_limit || a->out_of_memory ? ONNXSHAPE_ERR_OUT_OF_MEMORY : ONNXSHAPE_ERR_MALFORMED;
    onnxshape__arena_release(a);
    return st;
  }
  *arena = a;
  *msg = m;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__pb_decode_in(const ProtobufCMessageDescriptor *desc,
                                         const uint8_t *bytes, size_t len, onnxshape__arena *arena,
                                         ProtobufCMessage **msg) {
  static const uint8_t none[1] = {0};
  if (bytes == NULL) bytes = none; /* empty bytes have no buffer */
  const uint8_t *before = arena->nul_name;
  ProtobufCMessage *m = decode_either(desc, bytes, len, &arena, 0);
  if (before != NULL && arena->nul_name == NULL) arena->nul_name = before;
  *msg = m;
  if (m != NULL) return ONNXSHAPE_OK;
  return arena->over_limit || arena->out_of_memory ? ONNXSHAPE_ERR_OUT_OF_MEMORY
                                                    : ONNXSHAPE_ERR_MALFORMED;
}

onnxshape_status onnxshape__pb_nul_name(const char *file, const uint8_t *name, size_t len,
                                        onnxshape_status st, onnxshape_diag *diag) {
  char shown[96];
  size_t need = onnxshape_escape(shown, sizeof shown, (const char *)name, len);
  if (need >= sizeof shown) {
    /* cut at an escape's end, as onnxshape_escape leaves it, and marked */
    memcpy(shown + sizeof shown - 4, "...", 4);
  }
  return onnxshape__error(diag, st,
                          "{}{}{}the name '{}' holds a NUL byte; onnxshape refuses such names (as "
                          "C strings they would end there, and two names could read as one)",
                          ONNXSHAPE__ARGS(ARG_STR(file != NULL ? "'" : ""),
                                          ARG_NAME(file != NULL ? file : ""),
                                          ARG_STR(file != NULL ? "': " : ""), ARG_TEXT(shown)));
}
