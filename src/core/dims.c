/* SPDX-License-Identifier: Apache-2.0 */
/* Element counts of dims: zero dims first, products overflow-checked
 * (docs/semantics.md, "Size"; requirements DIMS-COUNT, SIZE-ZERO-FIRST,
 * SIZE-OVERFLOW). */
#include "internal.h"

/* A zero dim wins over overflow, so a zero-size tensor whose other dims
 * would overflow still counts 0 elements, and a negative dim wins over both.
 * Past INT64_MAX the product stops growing but the loop goes on, so that the
 * proof reads one product of all the dims; *bad is the first negative dim,
 * or else the dim where the product overflowed. */
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
static onnxshape_status count_dims(const int64_t *dims, size_t rank, int64_t *count, size_t *bad) {
  int64_t p = 1;
  int zero = 0, over = 0;
  /* One pass: a negative dim returns at once; a zero dim stops the product
   * (it no longer matters) but the loop goes on to look for negatives. */
  /*@ loop invariant 0 <= i <= rank;
      loop invariant all_nonneg(dims, i);
      loop invariant !zero ==> \forall integer k; 0 <= k < i ==> dims[k] != 0;
      loop invariant zero ==> has_zero(dims, i);
      loop invariant !zero && !over ==> p == dims_prod(dims, i) && 1 <= p;
      loop invariant !zero && over ==> dims_prod(dims, i) > INT64_MAX && 0 <= *bad < i;
      loop assigns i, p, zero, over, *bad;
      loop variant rank - i;
  */
  for (size_t i = 0; i < rank; i++) {
    int64_t d = dims[i];
    //@ assert dims_prod(dims, i + 1) == dims_prod(dims, i) * dims[i];
    if (d < 0) {
      *bad = i;
      return ONNXSHAPE_ERR_NEGATIVE_DIM;
    }
    if (d == 0) {
      zero = 1;
    } else if (!zero && !over && !onnxshape__mul_nonneg(p, d, &p)) {
      over = 1;
      *bad = i;
    } else {
      /* the product grew (or no longer matters) */
    }
  }
  if (zero != 0) {
    *count = 0;
    return ONNXSHAPE_OK;
  }
  if (over != 0) {
    return ONNXSHAPE_ERR_OVERFLOW;
  }
  *count = p;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_dims_count(const int64_t *dims, size_t rank, int64_t *count) {
  if (count == NULL || (dims == NULL && rank > 0u)) {
    return ONNXSHAPE_ERR_INVALID_ARGUMENT;
  }
  size_t bad;
  return count_dims(dims, rank, count, &bad);
}

/* The message of a rejected count. */
/*@ requires diag_ok(diag);
    requires st == ONNXSHAPE_ERR_NEGATIVE_DIM || st == ONNXSHAPE_ERR_OVERFLOW;
    requires bad < rank && \valid_read(dims + bad);
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == st && diag_failed(diag);
*/
static ONNXSHAPE_INLINE onnxshape_status count_fail(const char *op_name, int version,
                                                   const int64_t *dims,
                                                   size_t rank, onnxshape_status st, size_t bad,
                                                   onnxshape_diag *diag) {
  (void)rank; /* bounds bad, in the contract */
#if defined(ONNXSHAPE_NO_MESSAGES)
  (void)dims, (void)bad; /* message arguments only */
#endif
  if (st == ONNXSHAPE_ERR_NEGATIVE_DIM) {
    return onnxshape__defer(diag, st, op_name, version,
                            "data dims[{}] = {}; a dimension cannot be negative", VAL_UINT(bad), VAL_INT(dims[bad]));
  }
  return onnxshape__defer(diag, st, op_name, version,
                          "data element count overflows int64 at dims[{}] = {}", VAL_UINT(bad), VAL_INT(dims[bad]));
}

onnxshape_status onnxshape__count(const char *op_name, int version,
                                  const int64_t *dims, size_t rank, int64_t *count,
                                  onnxshape_diag *diag) {
  if (dims == NULL && rank > 0u) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, op_name, version,
                            "data has rank {} but no dims", VAL_UINT(rank));
  }
  size_t bad = 0u; /* set by count_dims on failure; initialised for -O3 -Wmaybe-uninitialized */
  onnxshape_status st = count_dims(dims, rank, count, &bad);
  if (st != ONNXSHAPE_OK) {
    return count_fail(op_name, version, dims, rank, st, bad, diag);
  }
  return ONNXSHAPE_OK;
}
