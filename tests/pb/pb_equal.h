/* SPDX-License-Identifier: Apache-2.0 */
/* Field-by-field comparison of two protobuf-c messages of one descriptor:
 * the oracle for the fast decoder (tests/test_pbfast.c, fuzz/fuzz_pbfast.c).
 * Unknown fields are not compared (the fast decoder skips them). */
#ifndef ONNXSHAPE_PB_EQUAL_H
#define ONNXSHAPE_PB_EQUAL_H

#include <protobuf-c/protobuf-c.h>
#include <string.h>

static int pb_value_equal(const ProtobufCFieldDescriptor *fd, const void *a, const void *b);

/* Bytes of one value of field fd in a protobuf-c struct (an array element
 * for a repeated field). */
static size_t pb_elem_size(const ProtobufCFieldDescriptor *fd) {
  switch (fd->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_ENUM:
    case PROTOBUF_C_TYPE_FLOAT:
      return 4;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return 8;
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof(ProtobufCBinaryData);
    default:
      return sizeof(void *); /* strings and messages */
  }
}

static int pb_message_equal(const ProtobufCMessage *a, const ProtobufCMessage *b) {
  if (a == NULL || b == NULL) return a == b;
  if (a->descriptor != b->descriptor) return 0;
  const ProtobufCMessageDescriptor *d = a->descriptor;
  const char *pa = (const char *)a, *pb = (const char *)b;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *fd = &d->fields[i];
    if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t na, nb;
      memcpy(&na, pa + fd->quantifier_offset, sizeof na);
      memcpy(&nb, pb + fd->quantifier_offset, sizeof nb);
      if (na != nb) return 0;
      const char *arr_a, *arr_b;
      memcpy(&arr_a, pa + fd->offset, sizeof arr_a);
      memcpy(&arr_b, pb + fd->offset, sizeof arr_b);
      if ((arr_a == NULL) != (arr_b == NULL)) return 0;
      size_t size = pb_elem_size(fd);
      for (size_t k = 0; k < na; k++) {
        if (!pb_value_equal(fd, arr_a + k * size, arr_b + k * size)) return 0;
      }
      continue;
    }
    if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      uint32_t ca, cb;
      memcpy(&ca, pa + fd->quantifier_offset, sizeof ca);
      memcpy(&cb, pb + fd->quantifier_offset, sizeof cb);
      if (ca != cb) return 0;
      if (ca != fd->id) continue; /* another member, or none: compared there */
    } else if (fd->quantifier_offset != 0) {
      protobuf_c_boolean ha, hb;
      memcpy(&ha, pa + fd->quantifier_offset, sizeof ha);
      memcpy(&hb, pb + fd->quantifier_offset, sizeof hb);
      if (ha != hb) return 0;
    }
    if (!pb_value_equal(fd, pa + fd->offset, pb + fd->offset)) return 0;
  }
  return 1;
}

static int pb_value_equal(const ProtobufCFieldDescriptor *fd, const void *a, const void *b) {
  switch (fd->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_ENUM:
    case PROTOBUF_C_TYPE_FLOAT:
      return memcmp(a, b, 4) == 0; /* bit patterns: NaNs compare */
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return memcmp(a, b, 8) == 0;
    case PROTOBUF_C_TYPE_STRING: {
      const char *sa, *sb;
      memcpy(&sa, a, sizeof sa);
      memcpy(&sb, b, sizeof sb);
      if (sa == NULL || sb == NULL) return sa == sb;
      return strcmp(sa, sb) == 0;
    }
    case PROTOBUF_C_TYPE_BYTES: {
      ProtobufCBinaryData da, db;
      memcpy(&da, a, sizeof da);
      memcpy(&db, b, sizeof db);
      if (da.len != db.len) return 0;
      return da.len == 0 || memcmp(da.data, db.data, da.len) == 0;
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
      const ProtobufCMessage *ma, *mb;
      memcpy(&ma, a, sizeof ma);
      memcpy(&mb, b, sizeof mb);
      return pb_message_equal(ma, mb);
    }
    default:
      return 0; /* a type outside the subset */
  }
}

#endif
