/* SPDX-License-Identifier: Apache-2.0 */
/* The allocator of the loader, the runner and static analysis (the kernels
 * never allocate). Every allocation goes through here, so that a test build
 * (ONNXSHAPE_FAULT_INJECTION, tests/test_alloc_faults.c) can make the n-th
 * one fail and check that each failure is a clean ONNXSHAPE_ERR_OUT_OF_MEMORY
 * with nothing leaked. */
#ifndef ONNXSHAPE_ALLOC_H
#define ONNXSHAPE_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "onnxshape.h"

#ifdef ONNXSHAPE_FAULT_INJECTION
/* Counts allocations; when it reaches onnxshape__fail_at (1-based, 0: never),
 * that allocation fails. (src/onnx/alloc.c) */
extern uint64_t onnxshape__alloc_count, onnxshape__fail_at;
int onnxshape__alloc_fails(void);
#else
static inline int onnxshape__alloc_fails(void) { return 0; }
#endif

static inline void *onnxshape__malloc(size_t n) {
  return onnxshape__alloc_fails() ? NULL : malloc(n > 0 ? n : 1);
}
static inline void *onnxshape__calloc(size_t n, size_t size) {
  return onnxshape__alloc_fails() ? NULL : calloc(n > 0 ? n : 1, size > 0 ? size : 1);
}
static inline void *onnxshape__realloc(void *p, size_t n) {
  return onnxshape__alloc_fails() ? NULL : realloc(p, n > 0 ? n : 1);
}
static inline void onnxshape__free(void *p) { free(p); }

/* A copy of at most n bytes of s, NUL-terminated. */
static inline char *onnxshape__strndup(const char *s, size_t n) {
  size_t len = 0;
  while (len < n && s[len] != '\0') len++;
  char *d = onnxshape__malloc(len + 1);
  if (d != NULL) {
    for (size_t i = 0; i < len; i++) d[i] = s[i];
    d[len] = '\0';
  }
  return d;
}

/* n items of `size` bytes, or NULL when n * size overflows or memory runs
 * out. */
static inline void *onnxshape__malloc_n(size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size) return NULL;
  return onnxshape__malloc(n * size);
}

struct onnxshape__arena;
/* The one wording of a failed allocation, for every allocating layer
 * (ONNXSHAPE_ERR_OUT_OF_MEMORY): "<doing> would take more than N MiB of
 * memory (the limit ...)" when arena `a` refused it for its limit
 * (LIMIT-MEMORY), else "out of memory" (a and doing may be NULL: a
 * failure of the machine's memory). */
onnxshape_status onnxshape__out_of_memory(const struct onnxshape__arena *a, const char *doing,
                                          onnxshape_diag *diag);
/* The same, for memory kept under `limit` bytes (over_limit: it was that
 * limit, not the machine, that refused) across several arenas. */
onnxshape_status onnxshape__out_of_memory_at(int over_limit, size_t limit, const char *doing,
                                             onnxshape_diag *diag);

#endif
