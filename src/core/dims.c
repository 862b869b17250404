/* SPDX-License-Identifier: Apache-2.0 */
#include "internal.h"

int onnxshape__mul_nonneg(int64_t a, int64_t b, int64_t *r) {
  if (a != 0 && b > INT64_MAX / a) return 0;
  *r = a * b;
  return 1;
}

/* Index of the first negative dim, or rank if none. */
static size_t first_negative(const int64_t *dims, size_t rank) {
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return i;
  }
  return rank;
}

/* Zero dims are looked for before any product, so a zero-size tensor whose
 * other dims would overflow still counts 0 elements. */
static onnxshape_status count_dims(const int64_t *dims, size_t rank, int64_t *count,
                                   size_t *bad) {
  *bad = first_negative(dims, rank);
  if (*bad < rank) return ONNXSHAPE_ERR_NEGATIVE_DIM;
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] == 0) {
      *count = 0;
      return ONNXSHAPE_OK;
    }
  }
  int64_t p = 1;
  for (size_t i = 0; i < rank; i++) {
    if (!onnxshape__mul_nonneg(p, dims[i], &p)) {
      *bad = i;
      return ONNXSHAPE_ERR_OVERFLOW;
    }
  }
  *count = p;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_dims_count(const int64_t *dims, size_t rank, int64_t *count) {
  if (count == NULL || (dims == NULL && rank > 0)) return ONNXSHAPE_ERR_INVALID_ARGUMENT;
  size_t bad;
  return count_dims(dims, rank, count, &bad);
}

onnxshape_status onnxshape__count(const onnxshape_op_version *v, const char *what,
                                  const int64_t *dims, size_t rank, int64_t *count,
                                  onnxshape_diag *diag) {
  if (dims == NULL && rank > 0) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, v->op_name, v->since_version,
                           "%s has rank %zu but no dims", what, rank);
  }
  size_t bad;
  onnxshape_status st = count_dims(dims, rank, count, &bad);
  if (st == ONNXSHAPE_ERR_NEGATIVE_DIM) {
    return onnxshape__fail(diag, st, v->op_name, v->since_version,
                           "%s dims[%zu] = %lld; a dimension cannot be negative", what, bad,
                           (long long)dims[bad]);
  }
  if (st == ONNXSHAPE_ERR_OVERFLOW) {
    return onnxshape__fail(diag, st, v->op_name, v->since_version,
                           "%s element count overflows int64 at dims[%zu] = %lld", what, bad,
                           (long long)dims[bad]);
  }
  return st;
}
