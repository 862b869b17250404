/* SPDX-License-Identifier: Apache-2.0 */
/* The fast protobuf decoder (src/onnx/pbfast.c): on plain encodings it
 * decodes exactly what protobuf-c decodes; on the encodings it leaves to
 * protobuf-c it returns NULL, and the model loader still loads them. Each
 * input is built here, byte by byte. */
#include <stdlib.h>

#include "harness.h"
#include "onnx_subset.pb-c.h"
#include "pb/pb_equal.h"
#include "pbfast.h"

/* ---- a small protobuf writer -------------------------------------------- */

typedef struct buf {
  uint8_t b[1024];
  size_t n;
} buf;

static void put_byte(buf *o, uint8_t v) {
  if (o->n < sizeof o->b) o->b[o->n++] = v;
}

static void put_varint(buf *o, uint64_t v) {
  while (v >= 0x80) {
    put_byte(o, (uint8_t)(v | 0x80));
    v >>= 7;
  }
  put_byte(o, (uint8_t)v);
}

static void put_tag(buf *o, unsigned number, unsigned wire) {
  put_varint(o, (uint64_t)number << 3 | wire);
}

static void put_int(buf *o, unsigned number, uint64_t v) {
  put_tag(o, number, 0);
  put_varint(o, v);
}

static void put_bytes(buf *o, unsigned number, const void *p, size_t n) {
  put_tag(o, number, 2);
  put_varint(o, n);
  for (size_t i = 0; i < n; i++) put_byte(o, ((const uint8_t *)p)[i]);
}

static void put_str(buf *o, unsigned number, const char *s) {
  put_bytes(o, number, s, strlen(s));
}

static void put_msg(buf *o, unsigned number, const buf *m) {
  put_bytes(o, number, m->b, m->n);
}

static void put_fixed32(buf *o, unsigned number, uint32_t v) {
  put_tag(o, number, 5);
  for (int i = 0; i < 4; i++) put_byte(o, (uint8_t)(v >> (8 * i)));
}

/* ---- decoding both ways --------------------------------------------------- */

typedef struct both {
  onnxshape__arena *arena;
  ProtobufCMessage *fast, *ref;
} both;

static both decode_both(const ProtobufCMessageDescriptor *d, const buf *in) {
  both r = {onnxshape__arena_new(SIZE_MAX), NULL, NULL};
  if (r.arena != NULL) r.fast = onnxshape__pb_fast_decode(d, in->b, in->n, r.arena);
  r.ref = protobuf_c_message_unpack(d, NULL, in->n, in->b);
  return r;
}

static void release(both *r) {
  if (r->ref != NULL) protobuf_c_message_free_unpacked(r->ref, NULL);
  onnxshape__arena_release(r->arena);
}

/* A model: ir_version 8, opset 14, graph g with node Size(x) -> y; x is a
 * float tensor [2, N], y an int64 one of unknown shape. */
static void small_model(buf *model, const buf *extra_graph_fields) {
  buf opset = {{0}, 0}, dim0 = {{0}, 0}, dim1 = {{0}, 0}, shape = {{0}, 0}, tensor = {{0}, 0};
  buf type = {{0}, 0}, in = {{0}, 0}, out = {{0}, 0}, node = {{0}, 0}, graph = {{0}, 0};
  buf out_tensor = {{0}, 0}, out_type = {{0}, 0};
  put_str(&opset, 1, "");
  put_int(&opset, 2, 14);
  put_int(&dim0, 1, 2);
  put_str(&dim1, 2, "N");
  put_msg(&shape, 1, &dim0);
  put_msg(&shape, 1, &dim1);
  put_int(&tensor, 1, 1);
  put_msg(&tensor, 2, &shape);
  put_msg(&type, 1, &tensor);
  put_str(&in, 1, "x");
  put_msg(&in, 2, &type);
  put_int(&out_tensor, 1, 7);
  put_msg(&out_type, 1, &out_tensor);
  put_str(&out, 1, "y");
  put_msg(&out, 2, &out_type);
  put_str(&node, 1, "x");
  put_str(&node, 2, "y");
  put_str(&node, 4, "Size");
  put_msg(&graph, 1, &node);
  put_str(&graph, 2, "g");
  put_msg(&graph, 11, &in);
  put_msg(&graph, 12, &out);
  if (extra_graph_fields != NULL) {
    for (size_t i = 0; i < extra_graph_fields->n; i++) put_byte(&graph, extra_graph_fields->b[i]);
  }
  put_int(model, 1, 8);
  put_msg(model, 8, &opset);
  put_msg(model, 7, &graph);
}

/* covers: MODEL-DECODE */
static void test_plain_model_decodes_as_protobuf_c(void) {
  buf model = {{0}, 0};
  small_model(&model, NULL);
  both r = decode_both(&onnx__model_proto__descriptor, &model);
  CHECK(r.fast != NULL && r.ref != NULL);
  CHECK(pb_message_equal(r.fast, r.ref));
  const Onnx__ModelProto *mp = (const Onnx__ModelProto *)r.fast;
  if (mp != NULL && mp->graph != NULL && mp->graph->n_input == 1 && mp->n_opset_import == 1) {
    CHECK(mp->has_ir_version);
    CHECK_I64(mp->ir_version, 8);
    CHECK_STR(mp->opset_import[0]->domain, "");
    CHECK_I64(mp->opset_import[0]->version, 14);
    CHECK_STR(mp->graph->name, "g");
    CHECK_I64(mp->graph->n_node, 1);
    CHECK_STR(mp->graph->node[0]->op_type, "Size");
    CHECK_STR(mp->graph->node[0]->input[0], "x");
    CHECK(mp->graph->node[0]->domain == NULL);
    const Onnx__TypeProto *tp = mp->graph->input[0]->type;
    CHECK_I64(tp->value_case, ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE);
    CHECK_I64(tp->tensor_type->elem_type, 1);
    const Onnx__TensorShapeProto *sp = tp->tensor_type->shape;
    CHECK_I64(sp->n_dim, 2);
    CHECK_I64(sp->dim[0]->value_case, ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE);
    CHECK_I64(sp->dim[0]->dim_value, 2);
    CHECK_I64(sp->dim[1]->value_case, ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM);
    CHECK_STR(sp->dim[1]->dim_param, "N");
    CHECK_I64(mp->graph->output[0]->type->tensor_type->elem_type, 7);
    CHECK(mp->graph->output[0]->type->tensor_type->shape == NULL);
  } else {
    CHECK(0);
  }
  release(&r);
}

/* covers: MODEL-DECODE */
static void test_unknown_fields_are_skipped(void) {
  buf extra = {{0}, 0};
  put_int(&extra, 99, 7);       /* varint */
  put_str(&extra, 50, "later"); /* length-delimited */
  put_fixed32(&extra, 51, 1);   /* 32-bit */
  put_tag(&extra, 52, 1);       /* 64-bit */
  for (int i = 0; i < 8; i++) put_byte(&extra, 0xff);
  buf model = {{0}, 0};
  small_model(&model, &extra);
  both r = decode_both(&onnx__model_proto__descriptor, &model);
  CHECK(r.fast != NULL && r.ref != NULL);
  CHECK(pb_message_equal(r.fast, r.ref));
  release(&r);
}

/* covers: MODEL-MAPPED */
/* With the arena's borrow flag (a mapped model file), raw_data and
 * string_data point into the input where the fast decoder found them; the
 * values equal protobuf-c's either way, and without the flag they are
 * copies. */
static void test_borrowed_bytes_point_into_the_input(void) {
  static const uint8_t raw[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  buf t = {{0}, 0};
  put_int(&t, 1, 3);  /* dims */
  put_int(&t, 2, 6);  /* data_type int32 */
  put_str(&t, 8, "w"); /* name */
  put_bytes(&t, 9, raw, sizeof raw);
  put_str(&t, 6, "s0"); /* string_data, twice */
  put_str(&t, 6, "s1");
  for (int borrow = 0; borrow <= 1; borrow++) {
    onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
    CHECK(a != NULL);
    a->borrow = borrow;
    const Onnx__TensorProto *fast =
        (const Onnx__TensorProto *)onnxshape__pb_fast_decode(&onnx__tensor_proto__descriptor,
                                                              t.b, t.n, a);
    ProtobufCMessage *ref = protobuf_c_message_unpack(&onnx__tensor_proto__descriptor, NULL, t.n, t.b);
    CHECK(fast != NULL && ref != NULL);
    CHECK(pb_message_equal(&fast->base, ref));
    CHECK_I64((int64_t)fast->raw_data.len, (int64_t)sizeof raw);
    CHECK(memcmp(fast->raw_data.data, raw, sizeof raw) == 0);
    CHECK_I64((int64_t)fast->n_string_data, 2);
    /* raw_data follows its tag and length, at offset 9: 1+1 dims,
     * 1+1 data_type, 1+1+1 name, 1+1 raw_data's tag and length. */
    int in_input = fast->raw_data.data == t.b + 9 && fast->string_data[0].data == t.b + 9 + 12 + 2 &&
                   fast->string_data[1].data == t.b + 9 + 12 + 2 + 2 + 2;
    CHECK(in_input == borrow);
    protobuf_c_message_free_unpacked(ref, NULL);
    onnxshape__arena_release(a);
  }
}

/* covers: MODEL-DECODE */
static void test_packed_and_unpacked_repeated_scalars(void) {
  buf t = {{0}, 0}, packed = {{0}, 0};
  put_varint(&packed, 2);
  put_varint(&packed, 300);
  put_bytes(&t, 1, packed.b, packed.n); /* dims, packed */
  put_int(&t, 1, 5);                    /* and one more, unpacked */
  put_int(&t, 2, UINT64_MAX);           /* data_type -1: 10 bytes; int32 keeps the low bits */
  put_fixed32(&t, 4, 0x3f800000u);      /* float_data 1.0, unpacked */
  put_fixed32(&t, 4, 0x40000000u);      /* 2.0 */
  put_str(&t, 8, "t");
  put_bytes(&t, 9, "", 0); /* empty raw_data */
  both r = decode_both(&onnx__tensor_proto__descriptor, &t);
  CHECK(r.fast != NULL && r.ref != NULL);
  CHECK(pb_message_equal(r.fast, r.ref));
  const Onnx__TensorProto *tp = (const Onnx__TensorProto *)r.fast;
  if (tp != NULL) {
    CHECK_DIMS(tp->dims, tp->n_dims, 2, 300, 5);
    CHECK(tp->has_data_type);
    CHECK_I64(tp->data_type, -1);
    CHECK_I64(tp->n_float_data, 2);
    CHECK(tp->n_float_data == 2 && tp->float_data[0] == 1.0f && tp->float_data[1] == 2.0f);
    CHECK(tp->has_raw_data);
    CHECK_I64(tp->raw_data.len, 0);
  }
  release(&r);
}

/* covers: MODEL-DECODE */
static void test_many_repeated_values(void) {
  /* More repeated values than the first pass records (16): the second pass
   * reads the message again. 40 dims, unpacked, around a name. */
  buf t = {{0}, 0};
  for (unsigned i = 0; i < 20; i++) put_int(&t, 1, i + 1);
  put_str(&t, 8, "many");
  for (unsigned i = 20; i < 40; i++) put_int(&t, 1, i + 1);
  both r = decode_both(&onnx__tensor_proto__descriptor, &t);
  CHECK(r.fast != NULL && r.ref != NULL);
  CHECK(pb_message_equal(r.fast, r.ref));
  const Onnx__TensorProto *tp = (const Onnx__TensorProto *)r.fast;
  CHECK(tp != NULL && tp->n_dims == 40 && tp->dims[0] == 1 && tp->dims[39] == 40);
  CHECK(tp != NULL && strcmp(tp->name, "many") == 0);
  release(&r);
}

/* Encodings the fast path leaves to protobuf-c: it returns NULL, and what
 * protobuf-c makes of them is protobuf-c's ruling (ref_ok says whether it
 * accepts them). */
static void check_declined(const ProtobufCMessageDescriptor *d, const buf *in, int ref_ok) {
  both r = decode_both(d, in);
  CHECK(r.fast == NULL);
  CHECK_I64(r.ref != NULL, ref_ok);
  release(&r);
}

/* covers: MODEL-DECODE */
static void test_unusual_encodings_go_to_protobuf_c(void) {
  buf b = {{0}, 0}, g = {{0}, 0};
  put_str(&g, 2, "g");
  /* A singular message given twice (protobuf-c merges the two). */
  put_msg(&b, 7, &g);
  put_msg(&b, 7, &g);
  check_declined(&onnx__model_proto__descriptor, &b, 1);
  /* A singular scalar given twice (the last one wins). */
  b.n = 0;
  put_int(&b, 1, 7);
  put_int(&b, 1, 8);
  check_declined(&onnx__model_proto__descriptor, &b, 1);
  /* Two members of a oneof (the last one wins). */
  b.n = 0;
  put_int(&b, 1, 4);
  put_str(&b, 2, "N");
  check_declined(&onnx__tensor_shape_proto__dimension__descriptor, &b, 1);
  /* A tag in 6 bytes (protobuf-c reads at most 5). */
  b.n = 0;
  const uint8_t long_tag[] = {0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01};
  for (size_t i = 0; i < sizeof long_tag; i++) put_byte(&b, long_tag[i]);
  check_declined(&onnx__model_proto__descriptor, &b, 0);
  /* Malformed: a cut varint, field number 0, a wrong wire type, a length
   * past the end, a group. */
  b.n = 0;
  put_byte(&b, 0x08);
  put_byte(&b, 0x80);
  check_declined(&onnx__model_proto__descriptor, &b, 0);
  b.n = 0;
  put_int(&b, 0, 1);
  check_declined(&onnx__model_proto__descriptor, &b, 0);
  b.n = 0;
  put_str(&b, 1, "8");
  check_declined(&onnx__model_proto__descriptor, &b, 0);
  b.n = 0;
  put_tag(&b, 2, 2);
  put_varint(&b, 10);
  put_byte(&b, 'a');
  check_declined(&onnx__model_proto__descriptor, &b, 0);
  b.n = 0;
  put_tag(&b, 60, 3);
  put_tag(&b, 60, 4);
  both r = decode_both(&onnx__model_proto__descriptor, &b);
  CHECK(r.fast == NULL);
  release(&r);
}

/* covers: MODEL-NAMES-NUL */
/* A name holding a NUL byte is recorded on both paths (by the fast
 * decoder; after protobuf-c, by a walk of the names) and the model refused,
 * naming the name; other text fields (doc_string) may hold one. */
static void test_names_with_nul(void) {
  static const char nul_name[] = {'x', 0, 'a'};
  buf extra = {{0}, 0};
  put_bytes(&extra, 10, nul_name, sizeof nul_name); /* graph.doc_string */
  buf model = {{0}, 0};
  small_model(&model, &extra);
  onnxshape_model *m = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_model_parse(model.b, model.n, NULL, &m, &d), ONNXSHAPE_OK);
  onnxshape_model_free(m);
  m = NULL;
  for (int fallback = 0; fallback < 2; fallback++) {
    extra.n = 0;
    buf vi = {{0}, 0};
    put_bytes(&vi, 1, nul_name, sizeof nul_name);
    /* the graph's name twice, before the name: the fast decoder declines
     * there, and protobuf-c decodes the model */
    if (fallback) put_str(&extra, 2, "h");
    put_msg(&extra, 13, &vi); /* a value_info named "x\0a" */
    model.n = 0;
    small_model(&model, &extra);
    onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
    CHECK(a != NULL && (onnxshape__pb_fast_decode(&onnx__model_proto__descriptor, model.b, model.n,
                                                  a) == NULL) == fallback);
    /* the fast decoder decoded the model and recorded the name, or declined before it */
    CHECK((a != NULL && a->nul_name != NULL) == !fallback);
    onnxshape__arena_release(a);
    ProtobufCMessage *msg = NULL;
    int limited;
    CHECK_STATUS(onnxshape__pb_decode(&onnx__model_proto__descriptor, model.b, model.n, SIZE_MAX, 0,
                                      &a, &msg, &limited),
                 ONNXSHAPE_OK);
    CHECK(a != NULL && msg != NULL && a->nul_name != NULL && a->nul_name_len == 3 &&
          memcmp(a->nul_name, nul_name, 3) == 0);
    onnxshape__arena_release(a);
    CHECK_STATUS(onnxshape_model_parse(model.b, model.n, NULL, &m, &d), ONNXSHAPE_ERR_INVALID_MODEL);
    CHECK_STR(d.message, "the name 'x\\x00a' holds a NUL byte; onnxshape refuses such names (as C "
                         "strings they would end there, and two names could read as one)");
    CHECK(m == NULL);
  }
}

/* covers: MODEL-DECODE */
static void test_loader_falls_back_to_protobuf_c(void) {
  /* The graph's name given twice: protobuf-c takes the last; the model
   * loads either way. */
  buf extra = {{0}, 0};
  put_str(&extra, 2, "h");
  buf model = {{0}, 0};
  small_model(&model, &extra);
  onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
  CHECK(a != NULL &&
        onnxshape__pb_fast_decode(&onnx__model_proto__descriptor, model.b, model.n, a) == NULL);
  onnxshape__arena_release(a);
  onnxshape_model *m = NULL;
  onnxshape_diag d;
  onnxshape_diag_init(&d);
  CHECK_STATUS(onnxshape_model_parse(model.b, model.n, NULL, &m, &d), ONNXSHAPE_OK);
  CHECK_STR(onnxshape_model_input_name(m, 0), "x");
  CHECK_STR(onnxshape_model_output_name(m, 0), "y");
  onnxshape_model_free(m);
  /* Malformed bytes: the loader's error. */
  model.n -= 3;
  CHECK_STATUS(onnxshape_model_parse(model.b, model.n, NULL, &m, &d), ONNXSHAPE_ERR_MALFORMED);
  CHECK_STR(d.message, "not a valid ONNX model (protobuf decoding failed)");
}

/* ---- every field of every message ------------------------------------------ */

/* Memory for the filled messages (what protobuf-c packs only reads it). */
static unsigned char pool[1 << 20];
static size_t pool_used;

static void *pool_alloc(size_t n) {
  size_t at = (pool_used + 15) / 16 * 16;
  if (at + n > sizeof pool) return NULL;
  pool_used = at + n;
  return memset(pool + at, 0, n);
}

/* A distinct value for field `id`, element k. */
static uint64_t value_of(unsigned id, size_t k) {
  return 1000u * id + 7u * k + 1u;
}

/* Fills every field of m (a message of d) with a distinct value: repeated
 * fields with two elements, messages down to depth 3; of a oneof only the
 * member whose place among the oneof members is `pick`. */
static void fill_all(ProtobufCMessage *m, const ProtobufCMessageDescriptor *d, int depth,
                     unsigned pick) {
  d->message_init(m);
  char *base = (char *)m;
  unsigned oneof_seen = 0;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *fd = &d->fields[i];
    if (fd->type == PROTOBUF_C_TYPE_MESSAGE && depth >= 3) continue;
    if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      if (oneof_seen++ != pick) continue;
      uint32_t id = fd->id;
      memcpy(base + fd->quantifier_offset, &id, sizeof id);
    }
    int repeated = fd->label == PROTOBUF_C_LABEL_REPEATED;
    size_t n = repeated ? 2 : 1;
    size_t size = pb_elem_size(fd);
    char *dst = base + fd->offset;
    if (repeated) {
      char *arr = pool_alloc(n * size);
      if (arr == NULL) return;
      memcpy(dst, &arr, sizeof arr);
      memcpy(base + fd->quantifier_offset, &n, sizeof n);
      dst = arr;
    } else if (!(fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && fd->quantifier_offset != 0) {
      protobuf_c_boolean yes = 1;
      memcpy(base + fd->quantifier_offset, &yes, sizeof yes);
    }
    for (size_t k = 0; k < n; k++, dst += size) {
      uint64_t v = value_of(fd->id, k);
      switch (fd->type) {
        case PROTOBUF_C_TYPE_INT32:
        case PROTOBUF_C_TYPE_ENUM: {
          int32_t x = (int32_t)v;
          memcpy(dst, &x, 4);
          break;
        }
        case PROTOBUF_C_TYPE_FLOAT: {
          float x = (float)v;
          memcpy(dst, &x, 4);
          break;
        }
        case PROTOBUF_C_TYPE_DOUBLE: {
          double x = (double)v + 0.5;
          memcpy(dst, &x, 8);
          break;
        }
        case PROTOBUF_C_TYPE_INT64:
        case PROTOBUF_C_TYPE_UINT64:
          memcpy(dst, &v, 8);
          break;
        case PROTOBUF_C_TYPE_STRING: {
          char *str = pool_alloc(24);
          if (str != NULL) snprintf(str, 24, "s%llu", (unsigned long long)v);
          memcpy(dst, &str, sizeof str);
          break;
        }
        case PROTOBUF_C_TYPE_BYTES: {
          ProtobufCBinaryData bd = {3, pool_alloc(3)};
          if (bd.data != NULL) memcpy(bd.data, &v, 3);
          memcpy(dst, &bd, sizeof bd);
          break;
        }
        default: {
          const ProtobufCMessageDescriptor *sd = fd->descriptor;
          ProtobufCMessage *sub = pool_alloc(sd->sizeof_message);
          if (sub != NULL) fill_all(sub, sd, depth + 1, pick);
          memcpy(dst, &sub, sizeof sub);
          break;
        }
      }
    }
  }
}

static const ProtobufCMessageDescriptor *const all_messages[] = {
    &onnx__model_proto__descriptor,
    &onnx__graph_proto__descriptor,
    &onnx__node_proto__descriptor,
    &onnx__attribute_proto__descriptor,
    &onnx__tensor_proto__descriptor,
    &onnx__tensor_proto__segment__descriptor,
    &onnx__value_info_proto__descriptor,
    &onnx__type_proto__descriptor,
    &onnx__type_proto__tensor__descriptor,
    &onnx__tensor_shape_proto__descriptor,
    &onnx__tensor_shape_proto__dimension__descriptor,
    &onnx__operator_set_id_proto__descriptor,
    &onnx__string_string_entry_proto__descriptor,
};

/* covers: MODEL-DECODE */
static void test_every_field_of_every_message(void) {
  /* Packed by protobuf-c with every field set (each oneof member in turn),
   * decoded by the fast path: the same values, field by field. A field the
   * fast decoder missed or misplaced would differ. */
  for (size_t i = 0; i < sizeof all_messages / sizeof all_messages[0]; i++) {
    for (unsigned pick = 0; pick < 5; pick++) {
      const ProtobufCMessageDescriptor *d = all_messages[i];
      pool_used = 0;
      ProtobufCMessage *m = pool_alloc(d->sizeof_message);
      CHECK(m != NULL);
      if (m == NULL) return;
      fill_all(m, d, 0, pick);
      size_t n = protobuf_c_message_get_packed_size(m);
      uint8_t *bytes = pool_alloc(n);
      CHECK(bytes != NULL && protobuf_c_message_pack(m, bytes) == n);
      onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
      ProtobufCMessage *fast = onnxshape__pb_fast_decode(d, bytes, n, a);
      ProtobufCMessage *ref = protobuf_c_message_unpack(d, NULL, n, bytes);
      CHECK(fast != NULL && ref != NULL);
      CHECK(pb_message_equal(fast, m)); /* what was packed */
      CHECK(pb_message_equal(fast, ref));
      if (fast == NULL || !pb_message_equal(fast, m)) {
        fprintf(stderr, "  message %s, oneof member %u\n", d->name, pick);
      }
      if (ref != NULL) protobuf_c_message_free_unpacked(ref, NULL);
      onnxshape__arena_release(a);
    }
  }
  /* A descriptor it has no decoder for, no descriptor, no arena: NULL. */
  ProtobufCMessageDescriptor other = onnx__tensor_proto__descriptor;
  onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
  const uint8_t empty[1] = {0};
  CHECK(a != NULL &&
        onnxshape__pb_fast_decode(&onnx__tensor_proto__descriptor, empty, 0, a) != NULL);
  CHECK(onnxshape__pb_fast_decode(&other, empty, 0, a) == NULL);
  CHECK(onnxshape__pb_fast_decode(NULL, empty, 0, a) == NULL);
  CHECK(onnxshape__pb_fast_decode(&onnx__tensor_proto__descriptor, empty, 0, NULL) == NULL);
  CHECK(onnxshape__pb_fast_decode(&onnx__tensor_proto__descriptor, NULL, 1, a) == NULL);
  onnxshape__arena_release(a);
}

/* covers: MODEL-DECODE */
static void test_every_allocation_may_fail(void) {
  /* Every message with every field set, decoded from an arena that may grow
   * no block (limit 0) and whose first block has `room` bytes left, for
   * room = 0, 16, 32, ... (allocations are rounded to 16): each allocation
   * of each decoder in turn is the one refused. Refused, the decoder
   * returns NULL and the arena says over_limit; given room enough, the same
   * values as protobuf-c packed. Each message needs at least one allocation
   * (itself), so room 0 fails every one. */
  size_t tried = 0;
  for (size_t i = 0; i < sizeof all_messages / sizeof all_messages[0]; i++) {
    for (unsigned pick = 0; pick < 5; pick++) {
      const ProtobufCMessageDescriptor *d = all_messages[i];
      pool_used = 0;
      ProtobufCMessage *m = pool_alloc(d->sizeof_message);
      CHECK(m != NULL);
      if (m == NULL) return;
      fill_all(m, d, 0, pick);
      size_t n = protobuf_c_message_get_packed_size(m);
      uint8_t *bytes = pool_alloc(n);
      CHECK(bytes != NULL && protobuf_c_message_pack(m, bytes) == n);
      if (bytes == NULL) return;
      /* A message that takes more than the first block (only GraphProto,
       * filled to depth 3; the ModelProto's graph has every field too) is
       * left out. */
      onnxshape__arena *whole = onnxshape__arena_new(SIZE_MAX);
      CHECK(whole != NULL);
      if (whole == NULL) return;
      int fits = onnxshape__pb_fast_decode(d, bytes, n, whole) != NULL && whole->blocks == NULL;
      onnxshape__arena_release(whole);
      if (!fits) {
        CHECK(d == &onnx__graph_proto__descriptor);
        continue;
      }
      int decoded = 0;
      size_t fails = 0;
      for (size_t room = 0; !decoded; room += ONNXSHAPE__ARENA_ALIGN) {
        onnxshape__arena *a = onnxshape__arena_new(0);
        CHECK(a != NULL);
        if (a == NULL) return;
        size_t free_bytes = (size_t)(a->end - a->cur);
        if (room >= free_bytes) { /* never decoded within the first block */
          CHECK(room < free_bytes);
          fprintf(stderr, "  message %s, oneof member %u\n", d->name, pick);
          onnxshape__arena_release(a);
          break;
        }
        if (free_bytes - room > 0) CHECK(onnxshape__arena_alloc(a, free_bytes - room) != NULL);
        CHECK((size_t)(a->end - a->cur) == room);
        ProtobufCMessage *fast = onnxshape__pb_fast_decode(d, bytes, n, a);
        if (fast == NULL) {
          CHECK(a->over_limit == 1 && a->out_of_memory == 0);
          fails++;
        } else {
          CHECK(a->over_limit == 0);
          CHECK(pb_message_equal(fast, m));
          decoded = 1;
        }
        onnxshape__arena_release(a);
      }
      CHECK(decoded && fails >= 1);
      tried++;
    }
  }
  CHECK(tried == 12 * 5);
}

/* One value of field fd on the wire: its own wire type (`wrong` 0), or
 * one it cannot have (`wrong` 1). Messages are empty, strings "a". */
static void put_field(buf *o, const ProtobufCFieldDescriptor *fd, int wrong) {
  switch (fd->type) {
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
      if (wrong) {
        put_int(o, fd->id, 1);
      } else {
        put_bytes(o, fd->id, "a", fd->type == PROTOBUF_C_TYPE_MESSAGE ? 0 : 1);
      }
      break;
    case PROTOBUF_C_TYPE_FLOAT:
      if (wrong) put_int(o, fd->id, 1);
      else put_fixed32(o, fd->id, 0x3f800000u);
      break;
    case PROTOBUF_C_TYPE_DOUBLE:
      if (wrong) {
        put_int(o, fd->id, 1);
      } else {
        put_tag(o, fd->id, 1);
        for (int i = 0; i < 8; i++) put_byte(o, i == 7 ? 0x3f : i == 6 ? 0xf0 : 0);
      }
      break;
    default: /* the varint types */
      if (wrong) put_fixed32(o, fd->id, 1);
      else put_int(o, fd->id, 300); /* two bytes */
      break;
  }
}

/* covers: MODEL-DECODE */
static void test_every_field_malformed(void) {
  /* In every message: malformed fields (cut tags and values, a varint past
   * 64 bits, lengths past the end or past INT_MAX, fixed values cut off,
   * groups, wire types 6 and 7, field number 0) are declined; each field
   * given once decodes as protobuf-c does; with the wrong wire type, or a
   * singular field twice, or a packed run that is no whole number of
   * values, it is declined. */
  static const uint8_t bad[][14] = {
      {1, 0x80},                                          /* a tag cut off */
      {3, 0x98, 0x06, 0x80},                              /* field 99: its varint cut */
      {12, 0x98, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, /* past 64 bits */
      {12, 0x98, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, /* 10 bytes, the last past 64 bits */
      {5, 0x99, 0x06, 1, 2, 3},                           /* fixed64 cut */
      {4, 0x9d, 0x06, 1, 2},                              /* fixed32 cut */
      {5, 0x9a, 0x06, 5, 'a', 'b'},                       /* length past the end */
      {8, 0x9a, 0x06, 0x85, 0x80, 0x80, 0x80, 0x80, 0x00}, /* a length in 6 bytes */
      {7, 0x9a, 0x06, 0x80, 0x80, 0x80, 0x80, 0x08},      /* a length of 2^31 */
      {2, 0x9b, 0x06},                                    /* a group */
      {3, 0x9e, 0x06, 0},                                 /* wire type 6 */
      {3, 0x9f, 0x06, 0},                                 /* wire type 7 */
      {2, 0x00, 0x01},                                    /* field number 0 */
  };
  for (size_t i = 0; i < sizeof all_messages / sizeof all_messages[0]; i++) {
    const ProtobufCMessageDescriptor *d = all_messages[i];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      buf b = {{0}, 0};
      for (uint8_t j = 1; j <= bad[k][0]; j++) put_byte(&b, bad[k][j]);
      onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
      CHECK(a != NULL && onnxshape__pb_fast_decode(d, b.b, b.n, a) == NULL);
      if (onnxshape__pb_fast_decode(d, b.b, b.n, a) != NULL) fprintf(stderr, "  %s, input %zu\n", d->name, k);
      onnxshape__arena_release(a);
    }
    for (unsigned f = 0; f < d->n_fields; f++) {
      const ProtobufCFieldDescriptor *fd = &d->fields[f];
      int repeated = fd->label == PROTOBUF_C_LABEL_REPEATED;
      int scalar = fd->type != PROTOBUF_C_TYPE_STRING && fd->type != PROTOBUF_C_TYPE_BYTES &&
                   fd->type != PROTOBUF_C_TYPE_MESSAGE;
      buf once = {{0}, 0}, wrong = {{0}, 0}, twice = {{0}, 0}, run = {{0}, 0};
      put_field(&once, fd, 0);
      put_field(&wrong, fd, 1);
      put_field(&twice, fd, 0);
      put_field(&twice, fd, 0);
      both r = decode_both(d, &once);
      CHECK(r.fast != NULL && r.ref != NULL && pb_message_equal(r.fast, r.ref));
      if (r.fast == NULL) fprintf(stderr, "  %s.%s once\n", d->name, fd->name);
      release(&r);
      r = decode_both(d, &wrong);
      CHECK(r.fast == NULL);
      if (r.fast != NULL) fprintf(stderr, "  %s.%s wrong wire type\n", d->name, fd->name);
      release(&r);
      r = decode_both(d, &twice);
      CHECK((r.fast == NULL) == !repeated);
      if (repeated) CHECK(r.fast != NULL && r.ref != NULL && pb_message_equal(r.fast, r.ref));
      release(&r);
      if (repeated && scalar) {
        /* a packed run: 3 bytes of fixed values, or a varint cut off */
        put_bytes(&run, fd->id, "\x80\x80\x80", fd->type == PROTOBUF_C_TYPE_FLOAT ||
                                                        fd->type == PROTOBUF_C_TYPE_DOUBLE ? 3 : 1);
        r = decode_both(d, &run);
        CHECK(r.fast == NULL && r.ref == NULL);
        if (r.fast != NULL) fprintf(stderr, "  %s.%s bad run\n", d->name, fd->name);
        release(&r);
      }
    }
  }
}

/* covers: MODEL-DECODE */
static void test_second_pass_over_every_field(void) {
  /* Past 16 repeated values a decoder's second pass reads the whole
   * message again: in every message with a repeated field, every field
   * once, unknown fields of each wire type (with tags and values of more
   * than one byte), and 17 more values of one repeated field. Decoded as
   * protobuf-c does. */
  size_t tried = 0;
  for (size_t i = 0; i < sizeof all_messages / sizeof all_messages[0]; i++) {
    const ProtobufCMessageDescriptor *d = all_messages[i];
    for (unsigned r = 0; r < d->n_fields; r++) {
      const ProtobufCFieldDescriptor *rep = &d->fields[r];
      if (rep->label != PROTOBUF_C_LABEL_REPEATED) continue;
      buf b = {{0}, 0};
      for (unsigned f = 0; f < d->n_fields; f++) {
        if (!(d->fields[f].flags & PROTOBUF_C_FIELD_FLAG_ONEOF) || d->fields[f].id == d->fields[0].id ||
            f == r) {
          put_field(&b, &d->fields[f], 0);
        }
      }
      put_int(&b, 99, 300);
      put_tag(&b, 2000, 1);
      for (int k = 0; k < 8; k++) put_byte(&b, (uint8_t)k);
      put_tag(&b, 2001, 5);
      for (int k = 0; k < 4; k++) put_byte(&b, (uint8_t)k);
      put_str(&b, 2002, "unknown");
      for (int k = 0; k < 17; k++) put_field(&b, rep, 0);
      CHECK(b.n < sizeof b.b);
      both res = decode_both(d, &b);
      CHECK(res.fast != NULL && res.ref != NULL && pb_message_equal(res.fast, res.ref));
      if (res.fast == NULL) fprintf(stderr, "  %s.%s\n", d->name, rep->name);
      release(&res);
      tried++;
    }
  }
  CHECK(tried >= 20);
}

static int all_zero(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (p[i] != 0) return 0;
  }
  return 1;
}

/* Allocates n blocks of `size` from each of k new arenas alive at once,
 * checks each is zero, fills it with 0xff, and releases the arenas (which
 * keeps them as the spares). */
static void dirty_arenas(size_t k, size_t n, size_t size) {
  onnxshape__arena *a[3] = {NULL, NULL, NULL};
  for (size_t j = 0; j < k && j < 3; j++) {
    a[j] = onnxshape__arena_new(SIZE_MAX);
    CHECK(a[j] != NULL);
    for (size_t i = 0; a[j] != NULL && i < n; i++) {
      unsigned char *p = onnxshape__arena_alloc(a[j], size);
      CHECK(p != NULL && all_zero(p, size));
      if (p != NULL) memset(p, 0xff, size);
    }
  }
  for (size_t j = 0; j < 3; j++) onnxshape__arena_release(a[j]);
}

static void dirty_arena(size_t n, size_t size) { dirty_arenas(1, n, size); }

/* covers: MODEL-DECODE */
static void test_arena_memory_is_zeroed(void) {
  /* The decoder sets only a message's descriptor: every other default of
   * every message must be zero bytes. */
  for (size_t i = 0; i < sizeof all_messages / sizeof all_messages[0]; i++) {
    const ProtobufCMessageDescriptor *d = all_messages[i];
    _Alignas(max_align_t) unsigned char raw[512] = {0};
    CHECK(d->sizeof_message <= sizeof raw);
    if (d->sizeof_message > sizeof raw) continue;
    ProtobufCMessage *m = (ProtobufCMessage *)(void *)raw;
    d->message_init(m);
    CHECK(m->descriptor == d);
    m->descriptor = NULL;
    CHECK(all_zero(raw, d->sizeof_message));
    if (!all_zero(raw, d->sizeof_message)) fprintf(stderr, "  message %s\n", d->name);
  }
  /* Arena memory is zero, in a fresh arena and in one that reuses a dirty
   * first block: used in part, and used in full before a second block. */
  dirty_arena(5, 100);
  dirty_arena(5, 100);  /* checks the spare cleared after the first */
  dirty_arena(40, 300); /* 12,000 bytes: past the first block */
  dirty_arena(200, 300);
  /* A model and its result: two spares kept, each cleared; a third arena
   * released while both are held is freed. */
  dirty_arenas(2, 5, 100);
  dirty_arenas(2, 5, 100);
  dirty_arenas(3, 20, 300);
  dirty_arenas(3, 20, 300);
#if defined(__GNUC__)
  /* Two kept, and taken again by the next two arenas. */
  CHECK(onnxshape__arena_spares() == 2);
  onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
  CHECK(onnxshape__arena_spares() == 1);
  onnxshape__arena *b = onnxshape__arena_new(SIZE_MAX);
  CHECK(onnxshape__arena_spares() == 0);
  onnxshape__arena_release(a);
  onnxshape__arena_release(b);
  CHECK(onnxshape__arena_spares() == 2);
#endif
}

/* covers: MODEL-DECODE */
static void test_arena(void) {
  onnxshape__arena *a = onnxshape__arena_new(SIZE_MAX);
  CHECK(a != NULL);
  if (a == NULL) return;
  /* Small blocks, then one larger than any block: all distinct, aligned and
   * writable (ASan and valgrind see any overlap or overrun). */
  unsigned char *p[64];
  for (int i = 0; i < 64; i++) {
    p[i] = onnxshape__arena_alloc(a, (size_t)(i * 37 + 1));
    CHECK(p[i] != NULL && (uintptr_t)p[i] % ONNXSHAPE__ARENA_ALIGN == 0);
    if (p[i] != NULL) memset(p[i], i, (size_t)(i * 37 + 1));
  }
  for (int i = 0; i < 64; i++) CHECK(p[i] != NULL && p[i][i * 37] == (unsigned char)i);
  unsigned char *big = onnxshape__arena_alloc(a, 100000);
  CHECK(big != NULL);
  if (big != NULL) memset(big, 1, 100000);
  CHECK(onnxshape__arena_alloc(a, SIZE_MAX) == NULL);
  CHECK(onnxshape__arena_alloc(a, SIZE_MAX / 2 + 1) == NULL);
  onnxshape__arena_release(a);
  onnxshape__arena_release(NULL);
}

int main(void) {
  static const h_test tests[] = {
      TEST_ENTRY(test_plain_model_decodes_as_protobuf_c),
      TEST_ENTRY(test_arena_memory_is_zeroed),
      TEST_ENTRY(test_unknown_fields_are_skipped),
      TEST_ENTRY(test_borrowed_bytes_point_into_the_input),
      TEST_ENTRY(test_packed_and_unpacked_repeated_scalars),
      TEST_ENTRY(test_unusual_encodings_go_to_protobuf_c),
      TEST_ENTRY(test_loader_falls_back_to_protobuf_c),
      TEST_ENTRY(test_names_with_nul),
      TEST_ENTRY(test_many_repeated_values),
      TEST_ENTRY(test_every_field_of_every_message),
      TEST_ENTRY(test_every_allocation_may_fail),
      TEST_ENTRY(test_every_field_malformed),
      TEST_ENTRY(test_second_pass_over_every_field),
      TEST_ENTRY(test_arena),
  };
  return h_run(tests, sizeof tests / sizeof tests[0]);
}
