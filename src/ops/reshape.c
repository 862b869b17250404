/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape: new dims over unchanged row-major data (docs/semantics.md,
 * "Reshape"). First its rules, each with its message, in the documented
 * order: allowzero, the target values, the products (reshape_plan), and the
 * check of a target known in part that static inference uses; then the
 * entry points. The usual call is accepted on the path of reshape_fast.h
 * (not compiled in builds optimized for size: ONNXSHAPE__SIZE_BUILD);
 * everything else goes through the rules, which decide every status and
 * word every message. */
#include <string.h>

#include "reshape_fast.h"

/* ---- the rules ---------------------------------------------------------- */

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

/* A product past INT64_MAX stays past it when a factor of at least 1
 * multiplies it: a lemma that known_product calls where it needs it
 * (docs/proofs.md, "Proofs with margin"), proved once, in its own goal. */
/*@ ghost
  /@ requires known_prod(shape, in_dims, allowzero, skip(minus_one), i) > INT64_MAX;
     requires f >= 1;
     assigns \nothing;
     ensures known_prod(shape, in_dims, allowzero, skip(minus_one), i) * f > INT64_MAX;
  @/
  static void past_max_grows(const int64_t *shape, const int64_t *in_dims, int allowzero,
                             size_t minus_one, size_t i, int64_t f) {
  }
*/

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
    /*@ ghost
      if (!zero && f != 0) {
        if (over) {
          past_max_grows(shape, in_dims, allowzero, minus_one, i, f);
        } else {
          mul_at_least_one(p, f);
        }
      }
    */
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

/* Every check of Reshape's rules, without writing any output: on success
 * *count is the element count, *minus_one the index of the -1 (NO_INDEX when
 * there is none) and *value the dim it stands for. have_out says whether the
 * caller has somewhere to write the dims (checked in the documented order). */
/*@ requires in_rank == 0 || in_dims == \null || \valid_read(in_dims + (0 .. in_rank - 1));
    requires attrs == \null || \valid_read(attrs);
    requires shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires \valid(count) && \valid(minus_one) && \valid(value) && diag_ok(diag);
    requires (\separated(count, value) && \separated(count, in_dims + (0 .. in_rank - 1)) &&
             \separated(count, shape + (0 .. shape_len - 1)) && \separated(count, attrs) &&
             \separated(count, diag) && \separated(count, minus_one));
    requires \separated(value, in_dims + (0 .. in_rank - 1)) &&
             \separated(value, shape + (0 .. shape_len - 1)) && \separated(value, attrs) &&
             \separated(value, diag) && \separated(value, minus_one);
    requires \separated(minus_one, attrs) && \separated(minus_one, diag) &&
             \separated(minus_one, shape + (0 .. shape_len - 1)) &&
             \separated(minus_one, in_dims + (0 .. in_rank - 1));
    assigns *count, *minus_one, *value, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER: every rule in semantics.md's order.
    ensures \result == plan_status{Pre}(version, type, in_dims, in_rank, shape, shape_len, attrs,
                                        have_out != 0 ? 1 : 0);
    // RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT RESHAPE-SCALAR
    ensures \result == ONNXSHAPE_OK ==>
            (shape_len == 0 || shape != \null) && (in_rank == 0 || in_dims != \null) &&
            all_nonneg(in_dims, in_rank);
    ensures \result == ONNXSHAPE_OK ==>
            *count == \old(elem_count(in_dims, in_rank)) && 0 <= *count <= INT64_MAX;
    ensures \result == ONNXSHAPE_OK ==>
            \old(targets_ok(shape, shape_len, in_rank, allowzero_of(attrs)) &&
                 (allowzero_of(attrs) == 0 || allowzero_of(attrs) == 1));
    ensures \result == ONNXSHAPE_OK ==>
            planned{Pre}(shape, shape_len, in_dims, \old(allowzero_of(attrs)), *minus_one, *count,
                         *value);
    // ERROR-MESSAGE
    ensures \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
ONNXSHAPE__RULES_LINK onnxshape_status reshape_plan(int version, int32_t type,
                                                 const int64_t *in_dims, size_t in_rank,
                                                 const int64_t *shape, size_t shape_len,
                                                 const onnxshape_reshape_attrs *attrs,
                                                 int have_out, int64_t *count, size_t *minus_one,
                                                 int64_t *value, onnxshape_diag *diag) {
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
  st = onnxshape__count("Reshape", version, in_dims, in_rank, &n, diag);
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
  /* A success leaves diag empty, as the entry points do (DIAG-STATE); with
   * type 0 no entry check would clear a message of an earlier call. */
  onnxshape__diag_clear(diag);
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

/* ---- the entry points ---------------------------------------------------- */


/* The allowzero in effect; meaningful after onnxshape__reshape_allowzero()
 * accepted it. */
/*@ requires attrs == \null || \valid_read(attrs);
    // RESHAPE-ALLOWZERO-VALUES
    assigns \nothing;
    ensures \result == allowzero_of(attrs);
*/
static int64_t allowzero_value(const onnxshape_reshape_attrs *attrs) {
  return attrs != NULL && attrs->has_allowzero ? attrs->allowzero : 0;
}

/* Writes the output dims of a successful reshape_plan() (or its
 * accepting path). */
/*@ requires shape_len <= out_capacity && shape_len < NO_INDEX;
    // RESHAPE-ZERO-COPY RESHAPE-LITERAL RESHAPE-INFER
    requires shape_len == 0 || \valid(out_dims + (0 .. shape_len - 1));
    requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    requires in_rank == 0 || \valid_read(in_dims + (0 .. in_rank - 1));
    requires (\separated(out_dims + (0 .. out_capacity - 1), shape + (0 .. shape_len - 1)) &&
             \separated(out_dims + (0 .. out_capacity - 1), in_dims + (0 .. in_rank - 1)));
    requires allowzero == 0 || allowzero == 1;
    requires targets_ok(shape, shape_len, in_rank, allowzero);
    requires planned(shape, shape_len, in_dims, allowzero, minus_one, count, value);
    assigns out_dims[0 .. shape_len - 1];
    ensures reshape_dims{Pre,Post}(shape, shape_len, in_dims, allowzero, out_dims, count);
*/
static void write_dims(const int64_t *shape, size_t shape_len, const int64_t *in_dims,
                       size_t in_rank, int allowzero, size_t minus_one, int64_t value,
                       int64_t count, int64_t *out_dims, size_t out_capacity) {
  (void)in_rank;      /* bounds the readable in_dims, in the contract */
  (void)out_capacity; /* likewise for out_dims */
  (void)count;        /* the element count the contract relates the dims to */
  (void)minus_one;     /* where the -1 is (the only one), in the contract */
  /* target_dim{Pre}: the targets and in_dims as at the call (the loop writes
   * neither), so that the proof need not show, at each write to out_dims,
   * that they are unchanged (docs/proofs.md, "Proofs with margin"). */
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i && k != minus_one ==>
                     out_dims[k] == target_dim{Pre}(shape, in_dims, allowzero, k);
      loop invariant minus_one < i ==> out_dims[minus_one] == value;
      loop assigns i, out_dims[0 .. shape_len - 1];
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    int64_t d = shape[i];
    if (d < 1) {
      if (d == -1) {
        d = value;
      } else if (!allowzero) {
        d = in_dims[i];
      } else {
        /* allowzero: a 0 stays 0 */
      }
    }
    out_dims[i] = d;
  }
  /*@ assert literal: \forall integer k; 0 <= k < shape_len && shape[k] != -1 ==>
        out_dims[k] == target_dim{Pre}(shape, in_dims, allowzero, k);
  */
  /*@ assert minus_one: \forall integer k; 0 <= k < shape_len && shape[k] == -1 ==>
        k == minus_one && known_prod{Pre}(shape, in_dims, allowzero, k, shape_len) != 0 &&
        count % known_prod{Pre}(shape, in_dims, allowzero, k, shape_len) == 0 &&
        out_dims[k] == count / known_prod{Pre}(shape, in_dims, allowzero, k, shape_len);
  */
}

/* The caller's out_dims must hold the output's rank. */
/*@ requires diag_ok(diag);
    // KERNEL-CAPACITY
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == (shape_len <= out_capacity ? ONNXSHAPE_OK : ONNXSHAPE_ERR_BUFFER_TOO_SMALL);
    ensures \result == ONNXSHAPE_OK ==> diag_kept{Pre,Post}(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
static onnxshape_status check_out_dims(int version, size_t shape_len, size_t out_capacity,
                                       onnxshape_diag *diag) {
  if (out_capacity < shape_len) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape", version,
                            "the output has {} dims; out_dims holds {}", VAL_UINT(shape_len), VAL_UINT(out_capacity));
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_infer(int version, int32_t type, const int64_t *in_dims,
                                         size_t in_rank, const int64_t *shape, size_t shape_len,
                                         const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                         size_t out_capacity, onnxshape_diag *diag) {
  /* Set by reshape_plan() (or plan_fast()) whenever it succeeds; given a
   * value here too, because the compilers' uninitialized-use warnings cannot
   * always see that (GCC at -O1 and -Og when the plan is inlined, clang at
   * -Os, where the fast path is left out). */
  int64_t n = 0, value = 0;
  size_t minus_one = NO_INDEX;
#if !ONNXSHAPE__SIZE_BUILD
  if (plan_fast(version, type, in_dims, in_rank, shape, shape_len, attrs, out_dims, out_capacity,
                &n, &minus_one, &value) != 0) {
    write_dims(shape, shape_len, in_dims, in_rank, (int)allowzero_value(attrs), minus_one, value, n,
               out_dims, out_capacity);
    onnxshape__diag_clear(diag);
    return ONNXSHAPE_OK;
  }
#endif
  onnxshape_status st = reshape_plan(version, type, in_dims, in_rank, shape, shape_len, attrs,
                             out_dims != NULL, &n, &minus_one, &value, diag);
  if (st == ONNXSHAPE_OK) {
    st = check_out_dims(version, shape_len, out_capacity, diag);
  }
  if (st != ONNXSHAPE_OK) {
    return onnxshape__finish(diag, st);
  }
  write_dims(shape, shape_len, in_dims, in_rank, (int)allowzero_value(attrs), minus_one, value, n,
             out_dims, out_capacity);
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_check_shape_input(int version, int32_t type, size_t rank,
                                                     onnxshape_diag *diag) {
  /* RESHAPE-INPUTS: Reshape-1 takes the target as an attribute, not an input. */
  /* Only Reshape-1, among the versions, has no last type: it has no input. */
  if (onnxshape__last_type(ONNXSHAPE_OP_RESHAPE, version) == 0) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_VERSION, NULL, 0,
                           "Reshape-{} has no 'shape' input", ONNXSHAPE__ARGS(ARG_INT(version)));
  }
  if (type != (int32_t)ONNXSHAPE_TYPE_INT64) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "Reshape", version,
                           "the 'shape' input is {}; it must be int64",
                           ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(type))));
  }
  if (rank != 1u) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_RANK, "Reshape", version,
                           "the 'shape' input has rank {}; it must be 1-D",
                           ONNXSHAPE__ARGS(ARG_UINT(rank)));
  }
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* Data that holds fewer bytes than its dims need. The message has four
 * arguments, one more than onnxshape__defer records, so it is worded at once,
 * out of line: its arguments are not in the entry point's frame, on which
 * every rule's frame sits. */
/*@ requires diag_ok(diag);
    // STORAGE-BYTES
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == ONNXSHAPE_ERR_DATA_SIZE && diag_failed(diag);
*/
ONNXSHAPE_NOINLINE static onnxshape_status data_size_fail(int version, int64_t n, int32_t type,
                                                          size_t need, size_t held,
                                                          onnxshape_diag *diag) {
#if defined(ONNXSHAPE_NO_MESSAGES)
  (void)n, (void)type, (void)need, (void)held; /* message arguments only */
#endif
  return onnxshape__fail(diag, ONNXSHAPE_ERR_DATA_SIZE, "Reshape", version,
                         "{} elements of {} need {} bytes; the data holds {}",
                         ONNXSHAPE__ARGS(ARG_INT(n), ARG_STR(onnxshape_type_name(type)),
                                         ARG_UINT(need), ARG_UINT(held)));
}

/* Reshape into caller memory: checks everything first (the rules, out_dims,
 * the bytes the data holds and, when copying, the bytes dst holds), and
 * writes out_dims and *out only when all of it passed; out->data_bytes is
 * then the byte count of the data. */
/*@ requires reshape_run_memory(data, shape, shape_len, attrs, out_dims, out_capacity, out, diag);
    // KERNEL-CAPACITY KERNEL-UNTOUCHED-ON-ERROR STORAGE-BYTES RESHAPE-VIEW RESHAPE-COPY
    assigns out_dims[0 .. out_capacity - 1], *out,
            diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER
    ensures \result == reshape_run_status{Pre}(version, data, shape, shape_len, attrs, out_dims,
                                               out_capacity, out, copying != 0 ? 1 : 0,
                                               (char *)dst, dst_capacity);
    ensures \result == ONNXSHAPE_OK ==>
            reshape_accepts{Pre,Post}(shape, shape_len, \at(data->dims, Pre), \at(data->rank, Pre),
                                      \at(allowzero_of(attrs), Pre), out_dims);
    ensures \result == ONNXSHAPE_OK ==>
            out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
            out->data_bytes == \old(data_need(data)) && out->data_bytes <= data->data_bytes &&
            (data->data != \null || out->data_bytes == 0) &&
            (copying ==> out->data_bytes <= dst_capacity &&
                         (dst != \null || out->data_bytes == 0));
    ensures \result == ONNXSHAPE_OK ==>
            \forall integer k; shape_len <= k < out_capacity ==> out_dims[k] == \old(out_dims[k]);
    ensures \result != ONNXSHAPE_OK && out_dims != \null ==>
            \forall integer k; 0 <= k < out_capacity ==> out_dims[k] == \old(out_dims[k]);
    ensures \result != ONNXSHAPE_OK && out != \null ==> *out == \old(*out);
    ensures \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
static ONNXSHAPE_INLINE onnxshape_status run_common(int version, const onnxshape_tensor *data,
                                                    const int64_t *shape, size_t shape_len,
                                                    const onnxshape_reshape_attrs *attrs,
                                                    int64_t *out_dims, size_t out_capacity,
                                                    int copying, const void *dst,
                                                    size_t dst_capacity, onnxshape_tensor *out,
                                                    onnxshape_diag *diag) {
  if (data == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                           "data and out must not be NULL", ONNXSHAPE__NO_ARGS);
  }
  /* Set by the plan and the byte count whenever they succeed; given a value
   * here too, as in onnxshape_reshape_infer. */
  int64_t n = 0, value = 0;
  size_t minus_one = NO_INDEX, need = 0u;
  int fast = 0;
#if !ONNXSHAPE__SIZE_BUILD
  if (plan_fast(version, data->type, data->dims, data->rank, shape, shape_len, attrs, out_dims,
                out_capacity, &n, &minus_one, &value) &&
      bytes_fast(data, n, copying, dst, dst_capacity, &need)) {
    fast = 1;
  }
#endif
  if (fast != 0) {
    onnxshape__diag_clear(diag);
  } else {
    onnxshape_status st = reshape_plan(version, data->type, data->dims, data->rank, shape, shape_len, attrs,
                               out_dims != NULL, &n, &minus_one, &value, diag);
    if (st != ONNXSHAPE_OK) {
      return st;
    }
    st = check_out_dims(version, shape_len, out_capacity, diag);
    if (st != ONNXSHAPE_OK) {
      return st;
    }
    st = onnxshape_type_storage_bytes(data->type, n, &need);
    if (st != ONNXSHAPE_OK) {
      return onnxshape__defer(diag, st, "Reshape", version,
                              "{} elements of {} do not fit in memory", VAL_INT(n),
                              VAL_STR(onnxshape_type_name(data->type)));
    }
    if (data->data_bytes < need || (data->data == NULL && need > 0u)) {
      return data_size_fail(version, n, data->type, need,
                            data->data == NULL ? (size_t)0 : data->data_bytes, diag);
    }
    if (copying != 0 && (dst_capacity < need || (dst == NULL && need > 0u))) {
      return onnxshape__defer(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape", version,
                              "the output needs {} bytes; the destination holds {}", VAL_UINT(need),
                              VAL_UINT(dst == NULL ? (size_t)0 : dst_capacity));
    }
  }
  write_dims(shape, shape_len, data->dims, data->rank, (int)allowzero_value(attrs), minus_one,
             value, n, out_dims, out_capacity);
  out->type = data->type;
  out->rank = shape_len;
  out->dims = out_dims;
  out->data_bytes = need;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_run_view(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity,
                                            onnxshape_tensor *out, onnxshape_diag *diag) {
  onnxshape_status st = run_common(version, data, shape, shape_len, attrs, out_dims,
                                   out_capacity, 0, NULL, 0, out, diag);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__finish(diag, st);
  }
  out->data = data->data;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_run_copy(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity, void *dst,
                                            size_t dst_capacity, onnxshape_tensor *out,
                                            onnxshape_diag *diag) {
  /* The result is kept here until the bytes are moved, so that a dst that
   * holds *out cannot overwrite it; it is then written field by field, which
   * the proof follows directly (a copy of the whole struct cost the provers
   * most of the 30 s timeout on a busy machine). The assertions not_accepted,
   * untouched, not_rejected and result_ok only help the proof, as in
   * onnxshape_shape_run (docs/proofs.md, "Proofs with margin"). */
  /* Set by run_common; zeroed for gcc, which cannot see that st is not OK
   * when out is NULL. */
  onnxshape_tensor result = {0};
  onnxshape_status st = run_common(version, data, shape, shape_len, attrs, out_dims,
                                   out_capacity, 1, dst, dst_capacity,
                                   out != NULL ? &result : NULL, diag);
  if (st != ONNXSHAPE_OK) {
    //@ for accepted: assert not_accepted: \false;
    /*@ for rejected: assert untouched: dst != \null ==>
          \forall integer k; 0 <= k < dst_capacity ==> ((char *)dst)[k] == \at(((char *)dst)[k], Pre);
    */
    return onnxshape__finish(diag, st);
  }
  /*@ assert result_ok: result.type == data->type && result.rank == shape_len &&
        result.dims == out_dims && result.data_bytes == \at(data_need(data), Pre) &&
        result.data_bytes <= dst_capacity;
  */
  size_t bytes = result.data_bytes;
  /*@ assert source_kept: \forall integer k; 0 <= k < bytes ==>
        ((char *)data->data)[k] == \at(((char *)data->data)[k], Pre);
  */
  /*@ assert dst_kept: dst != \null ==> \forall integer k; 0 <= k < dst_capacity ==>
        ((char *)dst)[k] == \at(((char *)dst)[k], Pre);
  */
  /* memmove: a caller may reshape in place or into an overlapping buffer. */
  if (bytes > 0u) {
    (void)memmove(dst, data->data, bytes);
  }
  /*@ assert tail_kept: dst != \null ==> \forall integer k; bytes <= k < dst_capacity ==>
        ((char *)dst)[k] == \at(((char *)dst)[k], Pre);
  */
  /*@ assert moved: \forall integer k; 0 <= k < bytes ==>
        ((char *)dst)[k] == \at(((char *)data->data)[k], Pre);
  */
  out->type = result.type;
  out->rank = result.rank;
  out->dims = result.dims;
  out->data = dst;
  out->data_bytes = bytes;
  /*@ assert dst != \null ==> \forall integer k; out->data_bytes <= k < dst_capacity ==>
        ((char *)dst)[k] == \at(((char *)dst)[k], Pre);
  */
  //@ for rejected: assert not_rejected: \false;
  return ONNXSHAPE_OK;
}
