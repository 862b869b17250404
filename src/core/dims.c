/* SPDX-License-Identifier: Apache-2.0 */
/* Element counts of dims: zero dims first, products overflow-checked
 * (docs/semantics.md, "Size"; requirements DIMS-COUNT, SIZE-ZERO-FIRST,
 * SIZE-OVERFLOW). */
#include "internal.h"

/* Index of the first negative dim, or rank if none. */
/*@ requires rank == 0 || \valid_read(dims + (0 .. rank - 1));
    // DIMS-COUNT
    assigns \nothing;
    ensures 0 <= \result <= rank;
    ensures \forall integer k; 0 <= k < \result ==> dims[k] >= 0;
    ensures \result < rank ==> dims[\result] < 0;
*/
static size_t first_negative(const int64_t *dims, size_t rank) {
  /*@ loop invariant 0 <= i <= rank;
      loop invariant \forall integer k; 0 <= k < i ==> dims[k] >= 0;
      loop assigns i;
      loop variant rank - i;
  */
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return i;
  }
  return rank;
}

/*@ requires rank == 0 || \valid_read(dims + (0 .. rank - 1));
    // SIZE-ZERO-FIRST
    assigns \nothing;
    ensures \result != 0 <==> has_zero(dims, rank);
*/
static int any_zero(const int64_t *dims, size_t rank) {
  /*@ loop invariant 0 <= i <= rank;
      loop invariant \forall integer k; 0 <= k < i ==> dims[k] != 0;
      loop assigns i;
      loop variant rank - i;
  */
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] == 0) return 1;
  }
  return 0;
}

/* Zero dims are looked for before any product, so a zero-size tensor whose
 * other dims would overflow still counts 0 elements. Past INT64_MAX the
 * product stops growing but the loop goes on, so that the proof reads one
 * product of all the dims; *bad is the first dim where it overflowed. */
/*@ requires rank == 0 || \valid_read(dims + (0 .. rank - 1));
    // DIMS-COUNT SIZE-ZERO-FIRST SIZE-OVERFLOW
    requires \valid(count) && \valid(bad);
    requires (\separated(count, bad) && \separated(count, dims + (0 .. rank - 1)));
    requires \separated(bad, dims + (0 .. rank - 1));
    assigns *count, *bad;
    behavior negative:
      assumes !all_nonneg(dims, rank);
      ensures \result == ONNXSHAPE_ERR_NEGATIVE_DIM;
      ensures 0 <= *bad < rank && dims[*bad] < 0;
      ensures *count == \old(*count);
    behavior zero:
      assumes all_nonneg(dims, rank) && has_zero(dims, rank);
      ensures \result == ONNXSHAPE_OK && *count == 0;
    behavior product:
      assumes all_nonneg(dims, rank) && !has_zero(dims, rank);
      assumes dims_prod(dims, rank) <= INT64_MAX;
      ensures \result == ONNXSHAPE_OK && *count == \old(dims_prod(dims, rank)) && *count >= 1;
    behavior overflow:
      assumes all_nonneg(dims, rank) && !has_zero(dims, rank);
      assumes dims_prod(dims, rank) > INT64_MAX;
      ensures \result == ONNXSHAPE_ERR_OVERFLOW && 0 <= *bad < rank;
      ensures *count == \old(*count);
    complete behaviors;
    disjoint behaviors;
*/
static onnxshape_status count_dims(const int64_t *dims, size_t rank, int64_t *count,
                                   size_t *bad) {
  *bad = first_negative(dims, rank);
  if (*bad < rank) return ONNXSHAPE_ERR_NEGATIVE_DIM;
  if (any_zero(dims, rank)) {
    *count = 0;
    return ONNXSHAPE_OK;
  }
  int64_t p = 1;
  int over = 0;
  /*@ loop invariant 0 <= i <= rank;
      loop invariant \forall integer k; 0 <= k < rank ==> dims[k] >= 1;
      loop invariant !over ==> p == dims_prod(dims, i) && 1 <= p;
      loop invariant over ==> dims_prod(dims, i) > INT64_MAX && 0 <= *bad < rank;
      loop assigns i, p, over, *bad;
      loop variant rank - i;
  */
  for (size_t i = 0; i < rank; i++) {
    //@ assert dims_prod(dims, i + 1) == dims_prod(dims, i) * dims[i];
    if (!over && !onnxshape__mul_nonneg(p, dims[i], &p)) {
      over = 1;
      *bad = i;
    }
  }
  //@ assert over ==> dims_prod(dims, rank) > INT64_MAX;
  //@ assert !over ==> p == dims_prod(dims, rank) && p >= 1;
  if (over) return ONNXSHAPE_ERR_OVERFLOW;
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
