/* SPDX-License-Identifier: Apache-2.0 */
/* A fast path in front of protobuf-c's unpack for the plain encodings of
 * the ONNX subset (src/onnx/pbfast.c). */
#ifndef ONNXSHAPE_PBFAST_H
#define ONNXSHAPE_PBFAST_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

/* ---- an arena: many small allocations, one release ---------------------
 * A decoded model is a few dozen small messages, strings and arrays, all
 * released together: they come from blocks bumped by a pointer (the first
 * block is allocated with the arena itself). protobuf-c allocates through
 * `allocator`, the fast decoder and the model loader through
 * onnxshape__arena_alloc. */
typedef struct onnxshape__arena_block {
  struct onnxshape__arena_block *next;
  _Alignas(max_align_t) unsigned char data[];
} onnxshape__arena_block;

typedef struct onnxshape__arena {
  ProtobufCAllocator allocator;  /* allocates from this arena; free does nothing */
  unsigned char *cur, *end;      /* the free part of the newest block */
  onnxshape__arena_block *blocks; /* blocks allocated after the first, newest first */
} onnxshape__arena;

/* A new arena, or NULL when out of memory. */
onnxshape__arena *onnxshape__arena_new(void);
/* Releases the arena and everything allocated from it. NULL is allowed. */
void onnxshape__arena_release(onnxshape__arena *a);
/* The slow path of onnxshape__arena_alloc: a new block. */
void *onnxshape__arena_grow(onnxshape__arena *a, size_t size);

#define ONNXSHAPE__ARENA_ALIGN _Alignof(max_align_t)

/* `size` bytes aligned for any type, or NULL when out of memory (or size
 * is absurd). Not zeroed. */
static inline void *onnxshape__arena_alloc(onnxshape__arena *a, size_t size) {
  if (size > SIZE_MAX / 2) return NULL;
  size = (size + ONNXSHAPE__ARENA_ALIGN - 1) & ~(size_t)(ONNXSHAPE__ARENA_ALIGN - 1);
  if ((size_t)(a->end - a->cur) < size) return onnxshape__arena_grow(a, size);
  void *p = a->cur;
  a->cur += size;
  return p;
}

/* Decodes `len` bytes as a message of `desc` (a ModelProto or TensorProto
 * of the subset, or a message they hold) into memory from `arena`. Either
 * the result holds exactly the values protobuf_c_message_unpack gives for
 * the same bytes (unknown fields aside: they are skipped, not kept), or it
 * is NULL and the caller must ask protobuf-c, which decides: NULL for every
 * malformed input, for the encodings left to protobuf-c (a singular field
 * given twice, two members of a oneof, a tag or length prefix longer than 5
 * bytes, a length past INT_MAX, nesting past 16 levels) and when out of
 * memory. On NULL, what was allocated stays in the arena until its release. */
ProtobufCMessage *onnxshape__pb_fast_decode(const ProtobufCMessageDescriptor *desc,
                                            const uint8_t *bytes, size_t len,
                                            onnxshape__arena *arena);

#endif
