/* SPDX-License-Identifier: Apache-2.0 */
/* The protobuf wire format, read the way protobuf-c reads it: the one field
 * reader of the fast decoder (pbfast.c), the raw_data locator of the
 * in-place tensor reader (tensor.c), the sparse-tensor scan (model.c) and
 * the element type of a sequence or optional type attribute (graph.c). */
#ifndef ONNXSHAPE_WIRE_H
#define ONNXSHAPE_WIRE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define ONNXSHAPE__HOT inline __attribute__((always_inline))
#else
#define ONNXSHAPE__HOT inline
#endif

enum { WIRE_VARINT = 0, WIRE_64 = 1, WIRE_LEN = 2, WIRE_32 = 5 };

/* protobuf-c reads a tag, and the length of a length-delimited value, in at
 * most 5 bytes, and takes no length past INT_MAX. */
#define WIRE_MAX_PREFIX 5

/* Reads a varint of at most 10 bytes; 0 when it is cut off or longer. */
static ONNXSHAPE__HOT int wire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  const uint8_t *q = *p;
  if (q < end && *q < 0x80) { /* one byte: most tags, lengths and values */
    *v = *q;
    *p = q + 1;
    return 1;
  }
  uint64_t r = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (q >= end) return 0;
    uint8_t c = *q++;
    if (shift == 63 && c > 1) return 0; /* bits past 64 */
    r |= (uint64_t)(c & 0x7fu) << shift;
    if (c < 0x80) {
      *v = r;
      *p = q;
      return 1;
    }
  }
  return 0;
}

/* A tag or a length prefix: a varint of at most WIRE_MAX_PREFIX bytes. */
static ONNXSHAPE__HOT int wire_prefix(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  const uint8_t *start = *p;
  return wire_varint(p, end, v) && *p - start <= WIRE_MAX_PREFIX;
}

/* One field on the wire: its number and wire type, and either its varint
 * (v) or its bytes [at, at + v). */
typedef struct wire_field {
  uint64_t number;
  unsigned wire;
  uint64_t v;
  const uint8_t *at;
} wire_field;

/* Reads the field at *p (< end); 0 when it is malformed (as protobuf-c
 * judges), number 0 or a group. A tag of at most 5 bytes holds a number
 * below 2^32, as protobuf-c reads it. */
static ONNXSHAPE__HOT int wire_field_read(const uint8_t **p, const uint8_t *end, wire_field *f) {
  uint64_t tag;
  const uint8_t *q = *p;
  if (*q < 0x80) {
    tag = *q++;
  } else if (!wire_prefix(&q, end, &tag)) {
    return 0;
  }
  f->number = tag >> 3;
  f->wire = (unsigned)(tag & 7u);
  f->at = q;
  switch (f->wire) {
    case WIRE_VARINT:
      if (!wire_varint(&q, end, &f->v)) return 0;
      break;
    case WIRE_64:
    case WIRE_32:
      f->v = f->wire == WIRE_32 ? 4u : 8u;
      if ((uint64_t)(end - q) < f->v) return 0;
      q += f->v;
      break;
    case WIRE_LEN:
      if (!wire_prefix(&q, end, &f->v) || f->v > INT_MAX || f->v > (uint64_t)(end - q)) {
        return 0;
      }
      f->at = q;
      q += f->v;
      break;
    default:
      return 0; /* groups (3, 4) and wire types 6, 7 */
  }
  *p = q;
  return f->number != 0;
}

#endif
