/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape's accepting path (included by reshape.c only): the usual call
 * checked in one pass over each array and without calls. Each helper's
 * contract says that what it accepts, reshape_plan() would accept
 * with the same results; it never rejects, so the order of errors and their
 * messages are those of the full checks alone (docs/proofs.md). */
#ifndef ONNXSHAPE_RESHAPE_FAST_H
#define ONNXSHAPE_RESHAPE_FAST_H

#include "../core/catalog_fns.h"
#include "reshape_rules.h"


/* The element count of dims that are all at least 1: 1 with the count, or
 * 0 when a dim is below 1 or the product overflows. */
/*@ requires rank == 0 || \valid_read(dims + (0 .. rank - 1));
    // DIMS-COUNT
    requires \valid(count) && \separated(count, dims + (0 .. rank - 1));
    assigns *count;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> \forall integer k; 0 <= k < rank ==> dims[k] >= 1;
    ensures \result == 1 ==> all_nonneg(dims, rank);
    ensures \result == 1 ==> *count == \old(elem_count(dims, rank)) && 1 <= *count <= INT64_MAX;
*/
static ONNXSHAPE_INLINE int count_fast(const int64_t *dims, size_t rank, int64_t *count) {
  long long n = 1;
  /*@ loop invariant 0 <= i <= rank;
      loop invariant \forall integer k; 0 <= k < i ==> dims[k] >= 1;
      loop invariant n == dims_prod{Pre}(dims, i) && 1 <= n;
      loop assigns i, n;
      loop variant rank - i;
  */
  for (size_t i = 0; i < rank; i++) {
    long long d = dims[i], m;
    //@ assert dims_prod{Pre}(dims, i + 1) == dims_prod{Pre}(dims, i) * d;
    if (d < 1 || onnxshape__mul_overflows(n, d, &m)) {
      return 0;
    }
    n = m;
  }
  //@ assert !has_zero(dims, rank) && n == elem_count{Pre}(dims, rank);
  *count = n;
  return 1;
}

/* A product of two factors of at least 1 is at least 1: a lemma that
 * targets_fast calls where it needs it (docs/proofs.md, "Proofs with
 * margin"), so that this non-linear step is proved once, in its own goal,
 * and is in no other goal's context. */
/*@ ghost
  /@ requires a >= 1 && b >= 1;
     assigns \nothing;
     ensures a * b >= 1;
  @/
  static void mul_at_least_one(long long a, long long b) {
  }
*/

/* The product of the target dims other than the -1, for targets that are
 * positive, the one -1, or (without allowzero) a 0 within the data's rank:
 * 1 with the product and where the -1 is (NO_INDEX when there is none), or 0
 * for any other value or when the product overflows. */
/*@ requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    // RESHAPE-INFER RESHAPE-ZERO-COPY RESHAPE-LITERAL RESHAPE-OVERFLOW
    requires in_rank == 0 || \valid_read(in_dims + (0 .. in_rank - 1));
    requires \forall integer k; 0 <= k < in_rank ==> in_dims[k] >= 1;
    requires shape_len < NO_INDEX;
    requires allowzero == 0 || allowzero == 1;
    requires \valid(product) && \valid(minus_one) && \separated(product, minus_one);
    requires \separated(product, shape + (0 .. shape_len - 1)) &&
             \separated(product, in_dims + (0 .. in_rank - 1));
    requires \separated(minus_one, shape + (0 .. shape_len - 1)) &&
             \separated(minus_one, in_dims + (0 .. in_rank - 1));
    assigns *product, *minus_one;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> targets_ok(shape, shape_len, in_rank, allowzero) &&
            1 <= *product <= INT64_MAX;
    ensures \result == 1 ==>
            (*minus_one == NO_INDEX ?
               !has_minus_one(shape, shape_len) &&
               *product == known_prod{Pre}(shape, in_dims, allowzero, -1, shape_len) :
               *minus_one < shape_len && shape[*minus_one] == -1 &&
               (\forall integer k; 0 <= k < shape_len && k != *minus_one ==> shape[k] != -1) &&
               *product == known_prod{Pre}(shape, in_dims, allowzero, *minus_one, shape_len));
    // ERROR-ORDER: what it accepts, the full checks accept.
    ensures \result == 1 ==>
            \old(target_status(shape, shape_len, in_rank, allowzero)) == ONNXSHAPE_OK &&
            \old(minus_at(shape, shape_len)) == skip(*minus_one);
*/
static ONNXSHAPE_INLINE int targets_fast(const int64_t *shape, size_t shape_len,
                                         const int64_t *in_dims, size_t in_rank, int allowzero,
                                         int64_t *product, size_t *minus_one) {
  long long p = 1;
  size_t found = NO_INDEX;
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i ==> shape[k] >= -1;
      loop invariant \forall integer k; 0 <= k < i && shape[k] == 0 ==>
                     allowzero == 0 && k < in_rank;
      loop invariant found == NO_INDEX ==> \forall integer k; 0 <= k < i ==> shape[k] != -1;
      loop invariant found != NO_INDEX ==> found < i && shape[found] == -1 &&
                     \forall integer k; 0 <= k < i && k != found ==> shape[k] != -1;
      loop invariant all_skips: \forall integer x; x >= i ==>
                     known_prod{Pre}(shape, in_dims, allowzero, x, i) ==
                     known_prod{Pre}(shape, in_dims, allowzero, -1, i);
      loop invariant p == known_prod{Pre}(shape, in_dims, allowzero, skip(found), i) && 1 <= p;
      loop invariant first: skip(found) == minus_at(shape, i);
      loop invariant zeros: allowzero == 1 ==> !any_zero(shape, i);
      loop invariant scanned: \forall integer k; 0 <= k < i ==>
                     value_status(shape, k, in_rank, allowzero) == ONNXSHAPE_OK;
      loop assigns i, p, found;
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    /*@ assert step_any: \forall integer x; x >= i + 1 ==>
          known_prod{Pre}(shape, in_dims, allowzero, x, i + 1) ==
          known_prod{Pre}(shape, in_dims, allowzero, x, i) *
            target_dim{Pre}(shape, in_dims, allowzero, i);
    */
    /*@ assert step_none: known_prod{Pre}(shape, in_dims, allowzero, -1, i + 1) ==
          known_prod{Pre}(shape, in_dims, allowzero, -1, i) *
            target_dim{Pre}(shape, in_dims, allowzero, i);
    */
    /*@ assert next_skips: \forall integer x; x >= i + 1 ==>
          known_prod{Pre}(shape, in_dims, allowzero, x, i + 1) ==
          known_prod{Pre}(shape, in_dims, allowzero, -1, i + 1);
    */
    //@ assert next_first: minus_at(shape, i + 1) == (minus_at(shape, i) != -1 ? minus_at(shape, i) : shape[i] == -1 ? i : -1);
    //@ assert next_zero: any_zero(shape, i + 1) <==> (any_zero(shape, i) || shape[i] == 0);
    long long f = shape[i], m;
    if (f < 1) {
      if (f == -1 && found == NO_INDEX) {
        /*@ assert skip_here: known_prod{Pre}(shape, in_dims, allowzero, i, i + 1) ==
              known_prod{Pre}(shape, in_dims, allowzero, -1, i);
        */
        found = i;
        //@ assert p == known_prod{Pre}(shape, in_dims, allowzero, skip(found), i + 1);
        continue;
      }
      if (f != 0 || allowzero || i >= in_rank) {
        return 0;
      }
      f = in_dims[i];
    }
    //@ assert factor: f == target_dim{Pre}(shape, in_dims, allowzero, i) && f >= 1;
    /*@ assert grow: known_prod{Pre}(shape, in_dims, allowzero, skip(found), i + 1) ==
          known_prod{Pre}(shape, in_dims, allowzero, skip(found), i) * f;
    */
    //@ ghost mul_at_least_one(p, f);
    if (onnxshape__mul_overflows(p, f, &m) != 0) {
      return 0;
    }
    //@ assert product: m == p * f && m >= 1;
    p = m;
    //@ assert p == known_prod{Pre}(shape, in_dims, allowzero, skip(found), i + 1) && 1 <= p;
  }
  //@ assert first_bad(shape, shape_len, in_rank, allowzero) == shape_len;
  /*@ assert found == NO_INDEX ==>
        !has_minus_one(shape, shape_len) &&
        p == known_prod{Pre}(shape, in_dims, allowzero, -1, shape_len);
  */
  /*@ assert found != NO_INDEX ==>
        found < shape_len && shape[found] == -1 &&
        p == known_prod{Pre}(shape, in_dims, allowzero, found, shape_len);
  */
  //@ assert target_status(shape, shape_len, in_rank, allowzero) == ONNXSHAPE_OK;
  *product = p;
  *minus_one = found;
  return 1;
}

/* reshape_plan() for the usual case, with the out_dims checks of
 * the callers: 1 with
 * the results reshape_plan() gives, or 0 (then reshape_plan() decides). */
/*@ requires in_rank == 0 || in_dims == \null || \valid_read(in_dims + (0 .. in_rank - 1));
    // RESHAPE-INFER RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT RESHAPE-SCALAR
    requires attrs == \null || \valid_read(attrs);
    requires shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires \valid(count) && \valid(minus_one) && \valid(value);
    requires \separated(count, value) && \separated(count, minus_one) && \separated(value, minus_one);
    requires \separated(count, in_dims + (0 .. in_rank - 1)) &&
             \separated(count, shape + (0 .. shape_len - 1)) && \separated(count, attrs);
    requires \separated(value, in_dims + (0 .. in_rank - 1)) &&
             \separated(value, shape + (0 .. shape_len - 1)) && \separated(value, attrs);
    requires \separated(minus_one, in_dims + (0 .. in_rank - 1)) &&
             \separated(minus_one, shape + (0 .. shape_len - 1)) && \separated(minus_one, attrs);
    assigns *count, *minus_one, *value;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==>
            is_version(ONNXSHAPE_OP_RESHAPE, version) &&
            type_allowed(ONNXSHAPE_OP_RESHAPE, version, type) &&
            (allowzero_of(attrs) == 0 || allowzero_of(attrs) == 1);
    ensures \result == 1 ==>
            shape_len <= out_capacity &&
            (shape_len == 0 || (shape != \null && out_dims != \null)) &&
            (in_rank == 0 || in_dims != \null);
    ensures \result == 1 ==> all_nonneg(in_dims, in_rank) &&
            *count == \old(elem_count(in_dims, in_rank)) && 0 <= *count <= INT64_MAX;
    ensures \result == 1 ==> \old(targets_ok(shape, shape_len, in_rank, allowzero_of(attrs)));
    ensures \result == 1 ==>
            planned{Pre}(shape, shape_len, in_dims, \old(allowzero_of(attrs)), *minus_one, *count,
                         *value);
    // ERROR-ORDER: it accepts only what the full checks accept.
    ensures \result == 1 ==>
            plan_status{Pre}(version, type, in_dims, in_rank, shape, shape_len, attrs,
                             out_dims == \null ? 0 : 1) == ONNXSHAPE_OK;
*/
static ONNXSHAPE_INLINE int plan_fast(int version, int32_t type, const int64_t *in_dims,
                                      size_t in_rank, const int64_t *shape, size_t shape_len,
                                      const onnxshape_reshape_attrs *attrs, const int64_t *out_dims,
                                      size_t out_capacity, int64_t *count, size_t *minus_one,
                                      int64_t *value) {
  if (type < 1 || type > onnxshape__last_type(ONNXSHAPE_OP_RESHAPE, version)) {
    return 0;
  }
  int allowzero = 0;
  if (attrs != NULL && attrs->has_allowzero) {
    if (version < ONNXSHAPE__ALLOWZERO_SINCE || (attrs->allowzero != 0 && attrs->allowzero != 1)) {
      return 0;
    }
    allowzero = (int)attrs->allowzero;
  }
  if (shape_len > out_capacity || (shape_len > 0u && (shape == NULL || out_dims == NULL)) ||
      (in_rank > 0u && in_dims == NULL)) {
    return 0;
  }
  int64_t n, p;
  size_t found;
  if (!count_fast(in_dims, in_rank, &n) ||
      !targets_fast(shape, shape_len, in_dims, in_rank, allowzero, &p, &found)) {
    return 0;
  }
  int64_t minus_one_value = 0;
  if (found != NO_INDEX) {
    if (n % p != 0) {
      return 0;
    }
    minus_one_value = n / p;
  } else if (n != p) {
    return 0;
  } else {
    /* no -1, and the counts agree */
  }
  *count = n;
  *minus_one = found;
  *value = minus_one_value;
  return 1;
}

/* The byte checks of run_common() for the usual case (a type of whole
 * bytes): 1 with *need the bytes of n elements when the data holds them and,
 * when copying, the destination too; or 0 (then run_common() decides). */
/*@ requires \valid_read(data) && \valid(need) && \separated(need, data);
    // STORAGE-BYTES RESHAPE-VIEW RESHAPE-COPY
    requires 0 <= n;
    assigns *need;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==>
            *need == storage_bytes(type_bits(data->type), n) && *need <= data->data_bytes &&
            (data->data != \null || *need == 0) &&
            (copying ==> *need <= dst_capacity && (dst != \null || *need == 0));
*/
static ONNXSHAPE_INLINE int bytes_fast(const onnxshape_tensor *data, int64_t n, int copying,
                                       const void *dst, size_t dst_capacity, size_t *need) {
  size_t size = onnxshape__elem_bytes(data->type);
  if (size == 0u || n > (int64_t)(SIZE_MAX / 16u)) {
    return 0;
  }
  //@ assert fits: n * size <= n * 16 <= SIZE_MAX;
  size_t bytes = (size_t)n * size;
  //@ assert whole: bytes == storage_bytes(type_bits(data->type), n);
  if (bytes > data->data_bytes || (data->data == NULL && bytes > 0u) ||
      (copying != 0 && (bytes > dst_capacity || (dst == NULL && bytes > 0u)))) {
    return 0;
  }
  *need = bytes;
  return 1;
}

#endif
