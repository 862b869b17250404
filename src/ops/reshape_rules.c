/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape's rules and their messages (reshape_rules.h; docs/semantics.md,
 * "Reshape"). */
#include "reshape_rules.h"

onnxshape_status onnxshape__reshape_allowzero(int version, const onnxshape_reshape_attrs *attrs,
                                             int *allowzero, onnxshape_diag *diag) {
  *allowzero = 0;
  if (attrs == NULL || !attrs->has_allowzero) {
    return ONNXSHAPE_OK;
  }
  if (version < ONNXSHAPE__ALLOWZERO_SINCE) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "Reshape", version,
                            "attribute 'allowzero' is not defined before Reshape-14");
  }
  if (attrs->allowzero != 0 && attrs->allowzero != 1) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "Reshape", version,
                            "allowzero = {}; it must be 0 or 1", VAL_INT(attrs->allowzero));
  }
  *allowzero = (int)attrs->allowzero;
  return ONNXSHAPE_OK;
}

/* The value shape[i] stands for before -1 is inferred. */
/*@ requires \valid_read(shape + i);
    // RESHAPE-ZERO-COPY RESHAPE-ZERO-LITERAL RESHAPE-LITERAL
    requires shape[i] == 0 && allowzero == 0 ==> \valid_read(in_dims + i);
    assigns \nothing;
    ensures \result == target_dim(shape, in_dims, allowzero, i);
*/
static int64_t resolved(const int64_t *shape, size_t i, const int64_t *in_dims, int allowzero) {
  return (shape[i] == 0 && !allowzero) ? in_dims[i] : shape[i];
}

/* Checks each target value on its own (left to right, the first failure is
 * reported), then the rules that involve the whole target. */
/*@ requires diag_ok(diag);
    requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires allowzero == 0 || allowzero == 1;
    requires \valid(minus_one) && \separated(minus_one, diag);
    requires \separated(minus_one, shape + (0 .. shape_len - 1));
    assigns *minus_one, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER RESHAPE-BELOW-MINUS-ONE RESHAPE-ONE-INFERRED RESHAPE-ZERO-COPY-RANGE
    // RESHAPE-ALLOWZERO-INFERRED
    ensures \result == target_status(shape, shape_len, in_rank, allowzero);
    ensures \result == ONNXSHAPE_OK ==> targets_ok(shape, shape_len, in_rank, allowzero);
    ensures \result == ONNXSHAPE_OK ==>
            (*minus_one == NO_INDEX ? !has_minus_one(shape, shape_len) :
               *minus_one < shape_len && shape[*minus_one] == -1 &&
               \forall integer k; 0 <= k < shape_len && k != *minus_one ==> shape[k] != -1);
    ensures \result == ONNXSHAPE_OK ==> minus_at(shape, shape_len) == skip(*minus_one);
    ensures \result == ONNXSHAPE_OK ==> diag_kept{Pre,Post}(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
static onnxshape_status check_targets(int version, const int64_t *shape,
                                      size_t shape_len, size_t in_rank, int allowzero,
                                      size_t *minus_one, onnxshape_diag *diag) {
  size_t zero_at = NO_INDEX;
  size_t found = NO_INDEX;
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i ==> shape[k] >= -1;
      loop invariant found == NO_INDEX <==> !has_minus_one(shape, i);
      loop invariant found != NO_INDEX ==> found < i && shape[found] == -1 &&
                     \forall integer k; 0 <= k < i && k != found ==> shape[k] != -1;
      loop invariant allowzero == 0 ==> \forall integer k; in_rank <= k < i ==> shape[k] != 0;
      loop invariant zero_at == NO_INDEX ==> \forall integer k; 0 <= k < i ==> shape[k] != 0;
      loop invariant zero_at != NO_INDEX ==> zero_at < i && shape[zero_at] == 0;
      loop invariant first: skip(found) == minus_at(shape, i);
      loop invariant zeros: zero_at != NO_INDEX <==> any_zero(shape, i);
      loop invariant scanned: \forall integer k; 0 <= k < i ==>
                     value_status(shape, k, in_rank, allowzero) == ONNXSHAPE_OK;
      loop assigns i, found, zero_at;
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    int64_t x = shape[i];
    //@ assert next_first: minus_at(shape, i + 1) == (minus_at(shape, i) != -1 ? minus_at(shape, i) : shape[i] == -1 ? i : -1);
    //@ assert next_zero: any_zero(shape, i + 1) <==> (any_zero(shape, i) || shape[i] == 0);
    if (x < -1) {
      //@ assert value_status(shape, i, in_rank, allowzero) == ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE;
      //@ assert first_bad(shape, shape_len, in_rank, allowzero) >= i;
      //@ assert first_bad(shape, shape_len, in_rank, allowzero) == i;
      return onnxshape__defer(diag, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE, "Reshape", version,
                              "shape[{}] = {}; a dimension cannot be below -1", VAL_UINT(i), VAL_INT(x));
    }
    if (x == -1) {
      if (found != NO_INDEX) {
        //@ assert minus_at(shape, i) != -1;
        //@ assert value_status(shape, i, in_rank, allowzero) == ONNXSHAPE_ERR_MULTIPLE_INFERRED;
        //@ assert first_bad(shape, shape_len, in_rank, allowzero) >= i;
        //@ assert first_bad(shape, shape_len, in_rank, allowzero) == i;
        return onnxshape__defer(diag, ONNXSHAPE_ERR_MULTIPLE_INFERRED, "Reshape", version,
                                "shape[{}] and shape[{}] are both -1; at most one dimension "
                                "can be inferred", VAL_UINT(found), VAL_UINT(i));
      }
      found = i;
    }
    if (x == 0) {
      if (!allowzero && i >= in_rank) {
        //@ assert value_status(shape, i, in_rank, allowzero) == ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE;
        //@ assert first_bad(shape, shape_len, in_rank, allowzero) >= i;
        //@ assert first_bad(shape, shape_len, in_rank, allowzero) == i;
        return onnxshape__defer(diag, ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE, "Reshape", version,
                                "shape[{}] = 0 copies input dimension {}, but the input has "
                                "rank {}", VAL_UINT(i), VAL_UINT(i), VAL_UINT(in_rank));
      }
      if (zero_at == NO_INDEX) {
        zero_at = i;
      }
    }
  }
  //@ assert first_bad(shape, shape_len, in_rank, allowzero) == shape_len;
  if (allowzero && zero_at != NO_INDEX && found != NO_INDEX) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_ZERO_WITH_INFERRED, "Reshape", version,
                            "with allowzero=1, shape[{}] = 0 and shape[{}] = -1 cannot be "
                            "combined", VAL_UINT(zero_at), VAL_UINT(found));
  }
  *minus_one = found;
  return ONNXSHAPE_OK;
}

/* P, the product of the resolved dims other than the inferred one, in one
 * pass: a zero factor makes it 0 whatever came before (zero dims win over
 * overflow), and past INT64_MAX it stops growing. Returns 0 on overflow, with
 * *at the index of the factor that overflowed. */
/*@ requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    // RESHAPE-INFER RESHAPE-OVERFLOW
    requires in_rank == 0 || \valid_read(in_dims + (0 .. in_rank - 1));
    requires shape_len < NO_INDEX;
    requires allowzero == 0 || allowzero == 1;
    requires all_nonneg(in_dims, in_rank);
    requires \forall integer k; 0 <= k < shape_len && k != minus_one ==> shape[k] >= 0;
    requires allowzero == 0 ==> \forall integer k; in_rank <= k < shape_len ==> shape[k] != 0;
    requires \valid(product) && \valid(at) && \separated(product, at);
    requires \separated(product, shape + (0 .. shape_len - 1)) &&
             \separated(product, in_dims + (0 .. in_rank - 1));
    assigns *product, *at;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==>
            *product == \old(known_prod(shape, in_dims, allowzero, skip(minus_one), shape_len)) &&
            0 <= *product <= INT64_MAX;
    ensures \result == 0 ==>
            \old(known_prod(shape, in_dims, allowzero, skip(minus_one), shape_len)) > INT64_MAX &&
            \forall integer k; 0 <= k < shape_len && k != minus_one ==>
              target_dim(shape, in_dims, allowzero, k) != 0;
    ensures \result == 0 ==> *at < shape_len && *at != minus_one;
*/
static int known_product(const int64_t *shape, size_t shape_len, const int64_t *in_dims,
                         size_t in_rank, int allowzero, size_t minus_one, int64_t *product,
                         size_t *at) {
  (void)in_rank; /* bounds the readable in_dims, in the contract */
  int64_t p = 1;
  int zero = 0, over = 0;
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant zero ==> known_prod(shape, in_dims, allowzero, skip(minus_one), i) == 0;
      loop invariant !zero ==> \forall integer k; 0 <= k < i && k != minus_one ==>
                     target_dim(shape, in_dims, allowzero, k) != 0;
      loop invariant !zero && !over ==>
                     p == known_prod(shape, in_dims, allowzero, skip(minus_one), i) && p >= 1;
      loop invariant !zero && over ==>
                     known_prod(shape, in_dims, allowzero, skip(minus_one), i) > INT64_MAX &&
                     *at < i && *at != minus_one;
      loop assigns i, p, zero, over, *at;
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    int64_t f = i == minus_one ? 1 : resolved(shape, i, in_dims, allowzero);
    /*@ assert step: known_prod(shape, in_dims, allowzero, skip(minus_one), i + 1) ==
               known_prod(shape, in_dims, allowzero, skip(minus_one), i) *
               (i == skip(minus_one) ? 1 : target_dim(shape, in_dims, allowzero, i));
    */
    //@ assert factor: (i == skip(minus_one) ? 1 : target_dim(shape, in_dims, allowzero, i)) == f;
    //@ assert nonneg: f >= 0;
    /*@ assert grow: !zero && over && f != 0 ==>
               known_prod(shape, in_dims, allowzero, skip(minus_one), i) * f > INT64_MAX;
    */
    if (f == 0) {
      zero = 1;
    } else if (!zero && !over && !onnxshape__mul_nonneg(p, f, &p)) {
      over = 1;
      *at = i;
    } else {
      /* the product grew (or no longer matters) */
    }
  }
  if (zero != 0) {
    *product = 0;
    return 1;
  }
  if (over != 0) {
    return 0;
  }
  *product = p;
  return 1;
}

onnxshape_status onnxshape__reshape_plan(int version, int32_t type, const int64_t *in_dims,
                                        size_t in_rank, const int64_t *shape, size_t shape_len,
                                        const onnxshape_reshape_attrs *attrs, int have_out,
                                        int64_t *count, size_t *minus_one, int64_t *value,
                                        onnxshape_diag *diag) {
  onnxshape_status st = onnxshape__enter(ONNXSHAPE_OP_RESHAPE, version, type, diag);
  if (st != ONNXSHAPE_OK) {
    return st;
  }
  if ((shape == NULL || !have_out) && shape_len > 0u) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                            "shape and out_dims must not be NULL");
  }
  int allowzero;
  st = onnxshape__reshape_allowzero(version, attrs, &allowzero, diag);
  if (st != ONNXSHAPE_OK) {
    return st;
  }
  int64_t n;
  st = onnxshape__count("Reshape", version, "data", in_dims, in_rank, &n, diag);
  if (st != ONNXSHAPE_OK) {
    return st;
  }
  size_t found;
  st = check_targets(version, shape, shape_len, in_rank, allowzero, &found, diag);
  if (st != ONNXSHAPE_OK) {
    return st;
  }
  int64_t p = 0;
  size_t at = 0;
  int64_t minus_one_value = 0;
  int fits = known_product(shape, shape_len, in_dims, in_rank, allowzero, found, &p, &at);
  /*@ assert same_p: fits ==>
        p == known_prod{Pre}(shape, in_dims, allowzero, skip(found), shape_len);
  */
  if (!fits) {
    /* The known dims multiply past INT64_MAX and none is 0. With a -1 and no
     * elements, the -1 can only be 0 and the output (a zero-size tensor with
     * huge dims, like the input) is well defined; otherwise no count fits. */
    if (found == NO_INDEX || n != 0) {
      return onnxshape__defer(diag, ONNXSHAPE_ERR_OVERFLOW, "Reshape", version,
                              "the product of the target dimensions overflows int64 at "
                              "shape[{}] = {}", VAL_UINT(at), VAL_INT(resolved(shape, at, in_dims, allowzero)));
    }
  } else if (found != NO_INDEX) {
    if (p == 0) {
      return onnxshape__defer(diag, ONNXSHAPE_ERR_INFERRED_FROM_ZERO, "Reshape", version,
                              "shape[{}] = -1 cannot be inferred: the other dimensions "
                              "multiply to 0", VAL_UINT(found));
    }
    uint64_t rem;
    uint64_t q = onnxshape__udiv64((uint64_t)n, (uint64_t)p, &rem);
    //@ assert quotient: q == n / p && rem == n % p;
    if (rem != 0u) {
      return onnxshape__defer(diag, ONNXSHAPE_ERR_NOT_DIVISIBLE, "Reshape", version,
                              "shape[{}] = -1 cannot be inferred: {} elements do not divide "
                              "by {}", VAL_UINT(found), VAL_INT(n), VAL_INT(p));
    }
    minus_one_value = (int64_t)q;
  } else if (p != n) {
    if (shape_len == 0u) {
      return onnxshape__defer(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, "Reshape", version,
                              "an empty shape means a scalar (1 element), but the data has "
                              "{} elements", VAL_INT(n));
    }
    return onnxshape__defer(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, "Reshape", version,
                            "the target holds {} elements, but the data has {}", VAL_INT(p), VAL_INT(n));
  } else {
    /* no -1, and the counts agree */
  }
  *count = n;
  *minus_one = found;
  *value = minus_one_value;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__reshape_check_known(int version, int32_t type, const int64_t *shape,
                                               size_t shape_len, size_t in_rank,
                                               const onnxshape_reshape_attrs *attrs,
                                               onnxshape_diag *diag) {
  onnxshape_status st = ONNXSHAPE_OK;
  if (type != 0) {
    st = onnxshape__enter(ONNXSHAPE_OP_RESHAPE, version, type, diag);
  }
  if (st != ONNXSHAPE_OK) {
    return onnxshape__finish(diag, st);
  }
  int allowzero;
  st = onnxshape__reshape_allowzero(version, attrs, &allowzero, diag);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__finish(diag, st);
  }
  size_t minus_one;
  st = check_targets(version, shape, shape_len, in_rank, allowzero, &minus_one, diag);
  return onnxshape__finish(diag, st);
}
