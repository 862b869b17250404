/* SPDX-License-Identifier: Apache-2.0 */
/* An arena for a loaded model: many small allocations, one release
 * (src/onnx/arena.c). */
#ifndef ONNXSHAPE_ARENA_H
#define ONNXSHAPE_ARENA_H

#include <protobuf-c/protobuf-c.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "onnxshape.h"

/* A decoded model is a few dozen small messages, strings and arrays, all
 * released together: they come from blocks bumped by a pointer (the first
 * block is allocated with the arena itself). protobuf-c allocates through
 * `allocator`, the fast decoder and the model loader through
 * onnxshape__arena_alloc. */
typedef struct onnxshape__arena_block {
  struct onnxshape__arena_block *next;
  _Alignas(max_align_t) unsigned char data[];
} onnxshape__arena_block;

typedef struct onnxshape__arena {
  ProtobufCAllocator allocator;   /* allocates from this arena; free does nothing */
  unsigned char *cur, *end;       /* the free part of the newest block */
  onnxshape__arena_block *blocks; /* blocks allocated after the first, newest first */
  unsigned char *first_used;      /* once a block was added: where the first block's use ended */
  size_t limit;                   /* the bytes its blocks may take in all */
  size_t taken;                   /* the bytes its blocks take */
  struct onnxshape__arena *within; /* an arena whose limit this one's blocks count against
                                      too (onnxshape__arena_new_within), or NULL */
  int over_limit;                 /* an allocation was refused for the limit */
  int out_of_memory;              /* a block could not be allocated */
  int borrow;                     /* the fast decoder's bytes fields may point into the input
                                     (which then outlives the arena) instead of copying it */
  const uint8_t *nul_name;        /* decoding met a name holding a NUL byte (pbfast.h): its
                                     bytes in the input, else NULL */
  size_t nul_name_len;
} onnxshape__arena;

/* The memory decoding, loading and analysing input of `len` bytes may take
 * (LIMIT-MEMORY): 15 times the input plus 56 MiB, saturated; with the input
 * itself and the process, a command's peak stays within 16 times the input
 * plus 64 MiB (tests/memory/limits.py). */
#define ONNXSHAPE__LIMIT_FACTOR 15u
#define ONNXSHAPE__LIMIT_BASE ((size_t)56 << 20)
#define ONNXSHAPE__LIMIT_TEXT "the limit is 15 times the input plus 56 MiB"
static inline size_t onnxshape__memory_limit(size_t len) {
  if (len > (SIZE_MAX - ONNXSHAPE__LIMIT_BASE) / ONNXSHAPE__LIMIT_FACTOR) return SIZE_MAX;
  return len * ONNXSHAPE__LIMIT_FACTOR + ONNXSHAPE__LIMIT_BASE;
}

/* A new arena whose blocks may take `limit` bytes in all, or NULL when out
 * of memory. */
onnxshape__arena *onnxshape__arena_new(size_t limit);
/* A new arena whose blocks count against the limit of `parent` (and are
 * added to its `taken` while both live) as well as its own `limit`: memory
 * that grows with the input beside a model, such as a check's findings and
 * its analysis, stays within the model's LIMIT-MEMORY. Not for an arena
 * another thread may grow meanwhile (the counts are not atomic): the
 * profile check makes its own model. Release (or detach) it before the
 * parent. */
onnxshape__arena *onnxshape__arena_new_within(onnxshape__arena *parent, size_t limit);
/* The bytes arena a may still take (its own limit and its parent's). */
static inline size_t onnxshape__arena_room(const onnxshape__arena *a) {
  size_t own = a->taken < a->limit ? a->limit - a->taken : 0;
  if (a->within == NULL) return own;
  size_t up = a->within->taken < a->within->limit ? a->within->limit - a->within->taken : 0;
  return own < up ? own : up;
}
/* Counts n bytes against the arena's limit (and its parent's) as if it had
 * allocated them, without allocating: 1, or 0 (over_limit set) when that
 * would pass a limit. For work in proportion to the input that allocates
 * less than it stands for (each call of a model-local function counts
 * the function's bytes, as if it copied them). */
int onnxshape__arena_charge(onnxshape__arena *a, size_t n);
/* Ends what onnxshape__arena_new_within started (before the parent goes):
 * the arena keeps what it holds; its own limit becomes what it takes, so it
 * can grow no more. */
void onnxshape__arena_detach(onnxshape__arena *a);
/* Releases the arena and everything allocated from it. NULL is allowed. */
void onnxshape__arena_release(onnxshape__arena *a);
/* How many released arenas are kept for reuse now (0 to 2; tests). */
size_t onnxshape__arena_spares(void);
/* The slow path of onnxshape__arena_alloc: a new block. */
void *onnxshape__arena_grow(onnxshape__arena *a, size_t size);

#define ONNXSHAPE__ARENA_ALIGN _Alignof(max_align_t)

/* `size` bytes aligned for any type, zeroed, or NULL when out of memory (or
 * size is absurd). Every block is zero when it joins the arena (calloc, or
 * the spare first block cleared as far as it was used), so allocating costs
 * no clearing: a decoded message needs only its descriptor set. */
static inline void *onnxshape__arena_alloc(onnxshape__arena *a, size_t size) {
  if (size > SIZE_MAX / 2) {
    a->over_limit = 1;
    return NULL;
  }
  size = (size + ONNXSHAPE__ARENA_ALIGN - 1) & ~(size_t)(ONNXSHAPE__ARENA_ALIGN - 1);
  if ((size_t)(a->end - a->cur) < size) return onnxshape__arena_grow(a, size);
  void *p = a->cur;
  a->cur += size;
  return p;
}

#endif
