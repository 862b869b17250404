/* SPDX-License-Identifier: Apache-2.0 */
/* The arena of a loaded model (arena.h). */
#include "arena.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"

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

/* Released arenas (header and first block) kept for the next: loading
 * small models one after another then costs no malloc and free. A model
 * and the result of running it are alive at once, each with its arena, so
 * two are held at most, process-wide (with one, every load and run took a
 * fresh block and cleared all of it: 44% of a small model's load and run,
 * callgrind); a destructor frees them at exit (without one, nothing is
 * kept). A first block is cleared, as far as it was used, when it is kept. */
#define SPARES 2
static _Atomic(unsigned char *) spare[SPARES];

#if defined(__GNUC__)
#define KEEP_SPARE 1
__attribute__((destructor)) static void drop_spare(void) {
  for (size_t i = 0; i < SPARES; i++) free(atomic_exchange(&spare[i], NULL));
}
#else
#define KEEP_SPARE 0
#endif

static unsigned char *take_spare(void) {
  unsigned char *mem = NULL;
  for (size_t i = 0; KEEP_SPARE && mem == NULL && i < SPARES; i++) {
    if (atomic_load(&spare[i]) != NULL) mem = atomic_exchange(&spare[i], NULL);
  }
  return mem;
}

/* 1 when mem was kept in a free place, its first `used` bytes after the
 * header cleared first. */
static int keep_spare(unsigned char *mem, size_t used) {
  int cleared = 0;
  for (size_t i = 0; KEEP_SPARE && i < SPARES; i++) {
    if (atomic_load(&spare[i]) != NULL) continue;
    if (!cleared) memset(mem + ARENA_HEAD, 0, used);
    cleared = 1;
    unsigned char *none = NULL;
    if (atomic_compare_exchange_strong(&spare[i], &none, mem)) return 1;
  }
  return 0;
}

size_t onnxshape__arena_spares(void) {
  size_t held = 0;
  for (size_t i = 0; i < SPARES; i++) held += atomic_load(&spare[i]) != NULL;
  return held;
}

onnxshape__arena *onnxshape__arena_new(size_t limit) {
  if (onnxshape__alloc_fails()) return NULL;
  unsigned char *mem = take_spare();
  if (mem == NULL) mem = calloc(1, ARENA_HEAD + ARENA_FIRST);
  if (mem == NULL) return NULL;
  onnxshape__arena *a = (onnxshape__arena *)(void *)mem;
  a->allocator.alloc = arena_pc_alloc;
  a->allocator.free = arena_pc_free;
  a->allocator.allocator_data = a;
  a->cur = mem + ARENA_HEAD;
  a->end = a->cur + ARENA_FIRST;
  a->blocks = NULL;
  a->first_used = NULL;
  a->limit = limit;
  a->taken = ARENA_HEAD + ARENA_FIRST;
  a->over_limit = 0;
  a->out_of_memory = 0;
  a->borrow = 0;
  a->nul_name = NULL;
  a->nul_name_len = 0;
  a->within = NULL;
  return a;
}

onnxshape__arena *onnxshape__arena_new_within(onnxshape__arena *parent, size_t limit) {
  size_t first = ARENA_HEAD + ARENA_FIRST;
  if (parent->taken > parent->limit || first > parent->limit - parent->taken) {
    parent->over_limit = 1;
    return NULL;
  }
  onnxshape__arena *a = onnxshape__arena_new(limit);
  if (a == NULL) return NULL;
  a->within = parent;
  parent->taken += first;
  return a;
}

int onnxshape__arena_charge(onnxshape__arena *a, size_t n) {
  if (n > onnxshape__arena_room(a)) {
    a->over_limit = 1;
    return 0;
  }
  a->taken += n;
  if (a->within != NULL) a->within->taken += n;
  return 1;
}

void onnxshape__arena_detach(onnxshape__arena *a) {
  if (a == NULL || a->within == NULL) return;
  a->within->taken -= a->taken;
  a->within = NULL;
  a->limit = a->taken;
}

void *onnxshape__arena_grow(onnxshape__arena *a, size_t size) {
  size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
  onnxshape__arena *root = a->within != NULL ? a->within : a;
  size_t need = sizeof(onnxshape__arena_block) + cap;
  if (cap > SIZE_MAX - sizeof(onnxshape__arena_block) || root->taken > root->limit ||
      need > root->limit - root->taken || a->taken > a->limit || need > a->limit - a->taken) {
    a->over_limit = 1;
    return NULL;
  }
  onnxshape__arena_block *b = onnxshape__calloc(1, sizeof *b + cap);
  if (b == NULL) {
    a->out_of_memory = 1;
    return NULL;
  }
  a->taken += sizeof *b + cap;
  if (root != a) root->taken += sizeof *b + cap;
  if (a->blocks == NULL) a->first_used = a->cur;
  b->next = a->blocks;
  a->blocks = b;
  a->cur = b->data + size;
  a->end = b->data + cap;
  return b->data;
}

void onnxshape__arena_release(onnxshape__arena *a) {
  if (a == NULL) return;
  onnxshape__arena_detach(a);
  unsigned char *first = (unsigned char *)a + ARENA_HEAD;
  unsigned char *used = a->blocks != NULL ? a->first_used : a->cur;
  for (onnxshape__arena_block *b = a->blocks, *next; b != NULL; b = next) {
    next = b->next;
    free(b);
  }
  if (!keep_spare((unsigned char *)a, (size_t)(used - first))) free(a);
}
