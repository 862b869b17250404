/* SPDX-License-Identifier: Apache-2.0 */
/* The operator registry's names, flags and since_versions (operators.h),
 * and the lookup the loader names nodes with. */
#include "operators.h"

#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define UNPAREN(...) __VA_ARGS__

#define SINCE(id, name, handler, flags, since) static const uint8_t since_##id[] = {UNPAREN since};
ONNXSHAPE__OPERATORS(SINCE)
#undef SINCE

typedef struct op_row {
  const char *name;
  unsigned flags;
  const uint8_t *since;
  size_t n;
} op_row;

#define ROW(id, name, handler, flags, since) {name, flags, since_##id, COUNT(since_##id)},
static const op_row rows[] = {ONNXSHAPE__OPERATORS(ROW)};
#undef ROW

int onnxshape__op_find(const char *name, int64_t opset, operator_id *op, int *version) {
  /* Binary search: the rows are sorted (test_core checks it). */
  size_t lo = 0, hi = COUNT(rows);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int cmp = strcmp(name, rows[mid].name);
    if (cmp == 0) {
      int v = 0;
      for (size_t k = 0; k < rows[mid].n && rows[mid].since[k] <= opset; k++) v = rows[mid].since[k];
      *op = (operator_id)mid;
      *version = v;
      return 1;
    }
    if (cmp < 0) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return 0;
}

const char *onnxshape__op_name(operator_id op) {
  return (size_t)op < COUNT(rows) ? rows[op].name : "";
}

unsigned onnxshape__op_flags(operator_id op) {
  return (size_t)op < COUNT(rows) ? rows[op].flags : 0u;
}

const uint8_t *onnxshape__op_since(operator_id op, size_t *n) {
  *n = (size_t)op < COUNT(rows) ? rows[op].n : 0;
  return (size_t)op < COUNT(rows) ? rows[op].since : NULL;
}
