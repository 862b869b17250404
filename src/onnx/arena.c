/* SPDX-License-Identifier: Apache-2.0 */
/* The arena of a loaded model (arena.h). */
#include "arena.h"

#include <stdatomic.h>
#include <stdlib.h>

#define ARENA_HEAD                                                                    \
  ((sizeof(onnxshape__arena) + ONNXSHAPE__ARENA_ALIGN - 1) / ONNXSHAPE__ARENA_ALIGN * \
   ONNXSHAPE__ARENA_ALIGN)
#define ARENA_FIRST 8192u /* a small model, decoded and loaded, fits */
#define ARENA_BLOCK 16384u

static void *arena_pc_alloc(void *ctx, size_t size) {
  return onnxshape__arena_alloc(ctx, size);
}

static void arena_pc_free(void *ctx, void *p) { /* released with the arena */
  (void)ctx;
  (void)p;
}

/* One released arena (header and first block) kept for the next: loading
 * small models one after another then costs no malloc and free. At most one
 * is held, process-wide, and a destructor frees it at exit (without one,
 * nothing is kept). */
static _Atomic(unsigned char *) spare;

#if defined(__GNUC__)
#define KEEP_SPARE 1
__attribute__((destructor)) static void drop_spare(void) {
  free(atomic_exchange(&spare, NULL));
}
#else
#define KEEP_SPARE 0
#endif

onnxshape__arena *onnxshape__arena_new(void) {
  unsigned char *mem = atomic_exchange(&spare, NULL);
  if (mem == NULL) mem = malloc(ARENA_HEAD + ARENA_FIRST);
  if (mem == NULL) return NULL;
  onnxshape__arena *a = (onnxshape__arena *)(void *)mem;
  a->allocator.alloc = arena_pc_alloc;
  a->allocator.free = arena_pc_free;
  a->allocator.allocator_data = a;
  a->cur = mem + ARENA_HEAD;
  a->end = a->cur + ARENA_FIRST;
  a->blocks = NULL;
  return a;
}

void *onnxshape__arena_grow(onnxshape__arena *a, size_t size) {
  size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
  onnxshape__arena_block *b = malloc(sizeof *b + cap);
  if (b == NULL) return NULL;
  b->next = a->blocks;
  a->blocks = b;
  a->cur = b->data + size;
  a->end = b->data + cap;
  return b->data;
}

void onnxshape__arena_release(onnxshape__arena *a) {
  if (a == NULL) return;
  for (onnxshape__arena_block *b = a->blocks, *next; b != NULL; b = next) {
    next = b->next;
    free(b);
  }
  unsigned char *none = NULL;
  if (KEEP_SPARE && atomic_compare_exchange_strong(&spare, &none, (unsigned char *)a)) return;
  free(a);
}
