/* SPDX-License-Identifier: Apache-2.0 */
/* The wording of a failed allocation, and allocation-failure injection
 * for tests (alloc.h). */
#include "alloc.h"

#include "../core/internal.h"
#include "arena.h"

onnxshape_status onnxshape__out_of_memory_at(int over_limit, size_t limit, const char *doing,
                                             onnxshape_diag *diag) {
  /* The whole input is too big: the node that happened to cross the limit
   * (which depends on the host's sizes) is not named. */
  const char *node = diag != NULL ? diag->node : NULL;
  onnxshape_status st;
  if (over_limit && doing != NULL) {
    if (diag != NULL) diag->node = NULL;
    st = onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY,
                          "{} would take more than {} MiB of memory (" ONNXSHAPE__LIMIT_TEXT ")",
                          ONNXSHAPE__ARGS(ARG_TEXT(doing), ARG_UINT(limit >> 20)));
  } else {
    st = onnxshape__error(diag, ONNXSHAPE_ERR_OUT_OF_MEMORY, "out of memory", ONNXSHAPE__NO_ARGS);
  }
  if (diag != NULL) diag->node = node;
  return st;
}

onnxshape_status onnxshape__out_of_memory(const onnxshape__arena *a, const char *doing,
                                          onnxshape_diag *diag) {
  const onnxshape__arena *root = a != NULL && a->within != NULL ? a->within : a;
  return onnxshape__out_of_memory_at(a != NULL && a->over_limit, root != NULL ? root->limit : 0,
                                     doing, diag);
}

#ifdef ONNXSHAPE_FAULT_INJECTION
uint64_t onnxshape__alloc_count, onnxshape__fail_at;

int onnxshape__alloc_fails(void) {
  onnxshape__alloc_count++;
  return onnxshape__fail_at != 0 && onnxshape__alloc_count == onnxshape__fail_at;
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int onnxshape__alloc_unused;
#endif
