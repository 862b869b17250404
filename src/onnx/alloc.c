/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation-failure injection for tests (alloc.h). */
#include "alloc.h"

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
