/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape: new dims over unchanged row-major data (docs/semantics.md, "Reshape"). */
#include <string.h>

#include "../core/internal.h"

#define NO_INDEX SIZE_MAX

/*@ // The index known_prod skips: the inferred one, or none (-1).
    logic integer skip(integer inferred) = inferred == NO_INDEX ? -1 : inferred;

    // What a successful plan gives for c elements: x is where the -1 is
    // (NO_INDEX when there is none) and v the dim it stands for.
    // RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT
    predicate planned{L}(int64_t *s, integer n, int64_t *d, integer az, integer x, integer c,
                         integer v) =
      x == NO_INDEX ?
        !has_minus_one(s, n) && known_prod(s, d, az, -1, n) == c :
        x < n && s[x] == -1 && known_prod(s, d, az, x, n) != 0 &&
        c % known_prod(s, d, az, x, n) == 0 && v == c / known_prod(s, d, az, x, n);
*/

/*@ requires \valid_read(v) && diag_ok(diag);
    requires attrs == \null || \valid_read(attrs);
    requires \valid(allowzero) && \separated(allowzero, diag);
    assigns *allowzero, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_INVALID_ATTRIBUTE;
    ensures \result == ONNXSHAPE_OK ==>
            (*allowzero == 0 || *allowzero == 1) && *allowzero == allowzero_of(attrs);
    // RESHAPE-ALLOWZERO-VERSION, RESHAPE-ALLOWZERO-VALUES
    ensures \result == ONNXSHAPE_ERR_INVALID_ATTRIBUTE ==> attrs != \null && attrs->has_allowzero &&
            (v->since_version < 14 || (attrs->allowzero != 0 && attrs->allowzero != 1));
*/
static onnxshape_status check_allowzero(const onnxshape_op_version *v,
                                        const onnxshape_reshape_attrs *attrs, int *allowzero,
                                        onnxshape_diag *diag) {
  *allowzero = 0;
  if (attrs == NULL || !attrs->has_allowzero) return ONNXSHAPE_OK;
  if (v->since_version < 14) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, v->op_name, v->since_version,
                           "attribute 'allowzero' is not defined before Reshape-14", ONNXSHAPE__NO_ARGS);
  }
  if (attrs->allowzero != 0 && attrs->allowzero != 1) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, v->op_name, v->since_version,
                           "allowzero = {}; it must be 0 or 1", ONNXSHAPE__ARGS(ARG_INT(attrs->allowzero)));
  }
  *allowzero = (int)attrs->allowzero;
  return ONNXSHAPE_OK;
}

/* The allowzero in effect; meaningful after check_allowzero() accepted it. */
/*@ requires attrs == \null || \valid_read(attrs);
    // RESHAPE-ALLOWZERO-VALUES
    assigns \nothing;
    ensures \result == allowzero_of(attrs);
*/
static int64_t allowzero_value(const onnxshape_reshape_attrs *attrs) {
  return attrs != NULL && attrs->has_allowzero ? attrs->allowzero : 0;
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
/*@ requires \valid_read(v) && diag_ok(diag);
    // RESHAPE-BELOW-MINUS-ONE RESHAPE-ONE-INFERRED RESHAPE-ZERO-COPY-RANGE
    // RESHAPE-ALLOWZERO-INFERRED
    requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires allowzero == 0 || allowzero == 1;
    requires \valid(inferred) && \separated(inferred, diag);
    assigns *inferred, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE ||
            \result == ONNXSHAPE_ERR_MULTIPLE_INFERRED ||
              \result == ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE ||
            \result == ONNXSHAPE_ERR_ZERO_WITH_INFERRED;
    ensures \result == ONNXSHAPE_OK ==> targets_ok(shape, shape_len, in_rank, allowzero);
    ensures \result == ONNXSHAPE_OK ==>
            (*inferred == NO_INDEX ? !has_minus_one(shape, shape_len) :
               *inferred < shape_len && shape[*inferred] == -1 &&
               \forall integer k; 0 <= k < shape_len && k != *inferred ==> shape[k] != -1);
    ensures \result != ONNXSHAPE_OK ==>
            reshape_rejects(\result, shape, shape_len, \null, in_rank, allowzero);
*/
static onnxshape_status check_targets(const onnxshape_op_version *v, const int64_t *shape,
                                      size_t shape_len, size_t in_rank, int allowzero,
                                      size_t *inferred, onnxshape_diag *diag) {
  size_t zero_at = NO_INDEX;
  *inferred = NO_INDEX;
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i ==> shape[k] >= -1;
      loop invariant *inferred == NO_INDEX ==> \forall integer k; 0 <= k < i ==> shape[k] != -1;
      loop invariant *inferred != NO_INDEX ==> *inferred < i && shape[*inferred] == -1 &&
                     \forall integer k; 0 <= k < i && k != *inferred ==> shape[k] != -1;
      loop invariant allowzero == 0 ==> \forall integer k; in_rank <= k < i ==> shape[k] != 0;
      loop invariant zero_at == NO_INDEX ==> \forall integer k; 0 <= k < i ==> shape[k] != 0;
      loop invariant zero_at != NO_INDEX ==> zero_at < i && shape[zero_at] == 0;
      loop assigns i, *inferred, zero_at;
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    int64_t x = shape[i];
    if (x < -1) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE, v->op_name,
                             v->since_version,
                             "shape[{}] = {}; a dimension cannot be below -1", ONNXSHAPE__ARGS(ARG_UINT(i), ARG_INT(x)));
    }
    if (x == -1) {
      if (*inferred != NO_INDEX) {
        return onnxshape__fail(diag, ONNXSHAPE_ERR_MULTIPLE_INFERRED, v->op_name,
                               v->since_version,
                               "shape[{}] and shape[{}] are both -1; at most one dimension "
                               "can be inferred", ONNXSHAPE__ARGS(ARG_UINT(*inferred), ARG_UINT(i)));
      }
      *inferred = i;
    }
    if (x == 0) {
      if (!allowzero && i >= in_rank) {
        return onnxshape__fail(diag, ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE, v->op_name,
                               v->since_version,
                               "shape[{}] = 0 copies input dimension {}, but the input has "
                               "rank {}", ONNXSHAPE__ARGS(ARG_UINT(i), ARG_UINT(i), ARG_UINT(in_rank)));
      }
      if (zero_at == NO_INDEX) zero_at = i;
    }
  }
  if (allowzero && zero_at != NO_INDEX && *inferred != NO_INDEX) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_ZERO_WITH_INFERRED, v->op_name, v->since_version,
                           "with allowzero=1, shape[{}] = 0 and shape[{}] = -1 cannot be "
                           "combined", ONNXSHAPE__ARGS(ARG_UINT(zero_at), ARG_UINT(*inferred)));
  }
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
    requires \forall integer k; 0 <= k < shape_len && k != inferred ==> shape[k] >= 0;
    requires allowzero == 0 ==> \forall integer k; in_rank <= k < shape_len ==> shape[k] != 0;
    requires \valid(product) && \valid(at) && \separated(product, at);
    requires \separated(product, shape + (0 .. shape_len - 1)) &&
             \separated(product, in_dims + (0 .. in_rank - 1));
    assigns *product, *at;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==>
            *product == \old(known_prod(shape, in_dims, allowzero, skip(inferred), shape_len)) &&
            0 <= *product <= INT64_MAX;
    ensures \result == 0 ==>
            \old(known_prod(shape, in_dims, allowzero, skip(inferred), shape_len)) > INT64_MAX &&
            \forall integer k; 0 <= k < shape_len && k != inferred ==>
              target_dim(shape, in_dims, allowzero, k) != 0;
    ensures \result == 0 ==> *at < shape_len && *at != inferred;
*/
static int known_product(const int64_t *shape, size_t shape_len, const int64_t *in_dims,
                         size_t in_rank, int allowzero, size_t inferred, int64_t *product,
                         size_t *at) {
  (void)in_rank; /* bounds the readable in_dims, in the contract */
  int64_t p = 1;
  int zero = 0, over = 0;
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant zero ==> known_prod(shape, in_dims, allowzero, skip(inferred), i) == 0;
      loop invariant !zero ==> \forall integer k; 0 <= k < i && k != inferred ==>
                     target_dim(shape, in_dims, allowzero, k) != 0;
      loop invariant !zero && !over ==>
                     p == known_prod(shape, in_dims, allowzero, skip(inferred), i) && p >= 1;
      loop invariant !zero && over ==>
                     known_prod(shape, in_dims, allowzero, skip(inferred), i) > INT64_MAX &&
                     *at < i && *at != inferred;
      loop assigns i, p, zero, over, *at;
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    int64_t f = i == inferred ? 1 : resolved(shape, i, in_dims, allowzero);
    /*@ assert step: known_prod(shape, in_dims, allowzero, skip(inferred), i + 1) ==
               known_prod(shape, in_dims, allowzero, skip(inferred), i) *
               (i == skip(inferred) ? 1 : target_dim(shape, in_dims, allowzero, i));
    */
    //@ assert factor: (i == skip(inferred) ? 1 : target_dim(shape, in_dims, allowzero, i)) == f;
    //@ assert nonneg: f >= 0;
    /*@ assert grow: !zero && over && f != 0 ==>
               known_prod(shape, in_dims, allowzero, skip(inferred), i) * f > INT64_MAX;
    */
    if (f == 0) {
      zero = 1;
    } else if (!zero && !over && !onnxshape__mul_nonneg(p, f, &p)) {
      over = 1;
      *at = i;
    }
  }
  if (zero) {
    *product = 0;
    return 1;
  }
  if (over) return 0;
  *product = p;
  return 1;
}

/* The whole of Reshape's shape rule; on success out_dims holds the result
 * and *count the element count (the same for input and output). */
/* Every check of Reshape's rules, without writing any output: on success
 * *count is the element count, *inferred the index of the -1 (NO_INDEX when
 * there is none) and *value the dim it stands for. have_out says whether the
 * caller has somewhere to write the dims (checked in the documented order). */
/*@ requires in_rank == 0 || in_dims == \null || \valid_read(in_dims + (0 .. in_rank - 1));
    // RESHAPE-INFER RESHAPE-INFER-ZERO RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT RESHAPE-SCALAR
    // RESHAPE-OVERFLOW
    requires attrs == \null || \valid_read(attrs);
    requires shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires \valid(count) && \valid(inferred) && \valid(value) && diag_ok(diag);
    requires (\separated(count, value) && \separated(count, in_dims + (0 .. in_rank - 1)) &&
             \separated(count, shape + (0 .. shape_len - 1)) && \separated(count, attrs) &&
             \separated(count, diag) && \separated(count, inferred));
    requires \separated(value, in_dims + (0 .. in_rank - 1)) &&
             \separated(value, shape + (0 .. shape_len - 1)) && \separated(value, attrs) &&
             \separated(value, diag) && \separated(value, inferred);
    requires (\separated(inferred, attrs) && \separated(inferred, diag));
    assigns *count, *inferred, *value, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == ONNXSHAPE_OK ==>
            is_version(ONNXSHAPE_OP_RESHAPE, version) &&
            type_allowed(ONNXSHAPE_OP_RESHAPE, version, type) &&
            (allowzero_of(attrs) == 0 || allowzero_of(attrs) == 1) &&
            (shape_len == 0 || (shape != \null && have_out)) && (in_rank == 0 ||
              in_dims != \null) &&
            all_nonneg(in_dims, in_rank) &&
            *count == \old(elem_count(in_dims, in_rank)) && 0 <= *count <= INT64_MAX &&
            targets_ok(shape, shape_len, in_rank, allowzero_of(attrs));
    ensures \result == ONNXSHAPE_OK ==>
            planned{Pre}(shape, shape_len, in_dims, allowzero_of(attrs), *inferred, *count, *value);
    ensures reshape_rejects{Pre}(\result, shape, shape_len, in_dims, in_rank, allowzero_of(attrs));
    ensures \result == ONNXSHAPE_ERR_OVERFLOW ==>
            reshape_overflows{Pre}(shape, shape_len, in_dims, in_rank, allowzero_of(attrs));
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            (shape_len > 0 && (shape == \null || !have_out)) || (in_rank > 0 && in_dims == \null);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_VERSION ==> !is_version(ONNXSHAPE_OP_RESHAPE, version);
    ensures \result == ONNXSHAPE_ERR_UNKNOWN_TYPE ==> !is_type(type);
    ensures \result == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED ==>
            !type_allowed(ONNXSHAPE_OP_RESHAPE, version, type);
    ensures \result == ONNXSHAPE_ERR_INVALID_ATTRIBUTE ==> attrs != \null && attrs->has_allowzero &&
            (version < 14 || (attrs->allowzero != 0 && attrs->allowzero != 1));
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ||
            \result == ONNXSHAPE_ERR_UNKNOWN_OPERATOR || \result == ONNXSHAPE_ERR_UNKNOWN_VERSION ||
            \result == ONNXSHAPE_ERR_UNKNOWN_TYPE || \result == ONNXSHAPE_ERR_TYPE_NOT_ALLOWED ||
            \result == ONNXSHAPE_ERR_INVALID_ATTRIBUTE || \result == ONNXSHAPE_ERR_NEGATIVE_DIM ||
            \result == ONNXSHAPE_ERR_OVERFLOW || \result == ONNXSHAPE_ERR_DIM_BELOW_MINUS_ONE ||
            \result == ONNXSHAPE_ERR_MULTIPLE_INFERRED ||
              \result == ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE ||
            \result == ONNXSHAPE_ERR_ZERO_WITH_INFERRED ||
            \result == ONNXSHAPE_ERR_INFERRED_FROM_ZERO || \result == ONNXSHAPE_ERR_NOT_DIVISIBLE ||
            \result == ONNXSHAPE_ERR_COUNT_MISMATCH;
*/
static onnxshape_status plan(int version, int32_t type, const int64_t *in_dims, size_t in_rank,
                             const int64_t *shape, size_t shape_len,
                             const onnxshape_reshape_attrs *attrs, int have_out, int64_t *count,
                             size_t *inferred, int64_t *value, onnxshape_diag *diag) {
  const onnxshape_op_version *v;
  onnxshape_status st = onnxshape__enter(ONNXSHAPE_OP_RESHAPE, version, type, &v, diag);
  if (st != ONNXSHAPE_OK) return st;
  if ((shape == NULL || !have_out) && shape_len > 0) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                           "shape and out_dims must not be NULL", ONNXSHAPE__NO_ARGS);
  }
  int allowzero;
  st = check_allowzero(v, attrs, &allowzero, diag);
  if (st != ONNXSHAPE_OK) return st;
  int64_t n;
  st = onnxshape__count(v, "data", in_dims, in_rank, &n, diag);
  if (st != ONNXSHAPE_OK) return st;
  size_t minus_one;
  st = check_targets(v, shape, shape_len, in_rank, allowzero, &minus_one, diag);
  if (st != ONNXSHAPE_OK) return st;
  int64_t p = 0;
  size_t at = 0;
  int64_t inferred_value = 0;
  int fits = known_product(shape, shape_len, in_dims, in_rank, allowzero, minus_one, &p, &at);
  /*@ assert same_p: fits ==>
        p == known_prod{Pre}(shape, in_dims, allowzero, skip(minus_one), shape_len);
  */
  if (!fits) {
    /* The known dims multiply past INT64_MAX and none is 0. With a -1 and no
     * elements, the -1 can only be 0 and the output (a zero-size tensor with
     * huge dims, like the input) is well defined; otherwise no count fits. */
    if (minus_one == NO_INDEX || n != 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_OVERFLOW, "Reshape", version,
                             "the product of the target dimensions overflows int64 at "
                             "shape[{}] = {}", ONNXSHAPE__ARGS(ARG_UINT(at), ARG_INT(resolved(shape, at, in_dims, allowzero))));
    }
  } else if (minus_one != NO_INDEX) {
    if (p == 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_INFERRED_FROM_ZERO, "Reshape", version,
                             "shape[{}] = -1 cannot be inferred: the other dimensions "
                             "multiply to 0", ONNXSHAPE__ARGS(ARG_UINT(minus_one)));
    }
    if (n % p != 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_NOT_DIVISIBLE, "Reshape", version,
                             "shape[{}] = -1 cannot be inferred: {} elements do not divide "
                             "by {}", ONNXSHAPE__ARGS(ARG_UINT(minus_one), ARG_INT(n), ARG_INT(p)));
    }
    inferred_value = n / p;
  } else if (p != n) {
    if (shape_len == 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, "Reshape", version,
                             "an empty shape means a scalar (1 element), but the data has "
                             "{} elements", ONNXSHAPE__ARGS(ARG_INT(n)));
    }
    return onnxshape__fail(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, "Reshape", version,
                           "the target holds {} elements, but the data has {}", ONNXSHAPE__ARGS(ARG_INT(p), ARG_INT(n)));
  }
  *count = n;
  *inferred = minus_one;
  *value = inferred_value;
  return ONNXSHAPE_OK;
}

/* Writes the output dims of a successful plan(). */
/*@ requires shape_len <= out_capacity && shape_len < NO_INDEX;
    // RESHAPE-ZERO-COPY RESHAPE-LITERAL RESHAPE-INFER
    requires shape_len == 0 || \valid(out_dims + (0 .. shape_len - 1));
    requires shape_len == 0 || \valid_read(shape + (0 .. shape_len - 1));
    requires in_rank == 0 || \valid_read(in_dims + (0 .. in_rank - 1));
    requires (\separated(out_dims + (0 .. out_capacity - 1), shape + (0 .. shape_len - 1)) &&
             \separated(out_dims + (0 .. out_capacity - 1), in_dims + (0 .. in_rank - 1)));
    requires allowzero == 0 || allowzero == 1;
    requires targets_ok(shape, shape_len, in_rank, allowzero);
    requires planned(shape, shape_len, in_dims, allowzero, inferred, count, value);
    assigns out_dims[0 .. shape_len - 1];
    ensures reshape_dims{Pre,Post}(shape, shape_len, in_dims, allowzero, out_dims, count);
*/
static void write_dims(const int64_t *shape, size_t shape_len, const int64_t *in_dims,
                       size_t in_rank, int allowzero, size_t inferred, int64_t value,
                       int64_t count, int64_t *out_dims, size_t out_capacity) {
  (void)in_rank;      /* bounds the readable in_dims, in the contract */
  (void)out_capacity; /* likewise for out_dims */
  (void)count;        /* the element count the contract relates the dims to */
  (void)inferred;     /* where the -1 is (the only one), in the contract */
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i && k != inferred ==>
                     out_dims[k] == target_dim(shape, in_dims, allowzero, k);
      loop invariant inferred < i ==> out_dims[inferred] == value;
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
      }
    }
    out_dims[i] = d;
  }
  /*@ assert literal: \forall integer k; 0 <= k < shape_len && shape[k] != -1 ==>
        out_dims[k] == target_dim(shape, in_dims, allowzero, k);
  */
  /*@ assert inferred: \forall integer k; 0 <= k < shape_len && shape[k] == -1 ==>
        k == inferred && known_prod{Pre}(shape, in_dims, allowzero, k, shape_len) != 0 &&
        count % known_prod{Pre}(shape, in_dims, allowzero, k, shape_len) == 0 &&
        out_dims[k] == count / known_prod{Pre}(shape, in_dims, allowzero, k, shape_len);
  */
}

/* The caller's out_dims must hold the output's rank. */
/*@ requires diag_ok(diag);
    // KERNEL-CAPACITY
    assigns diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures \result == ONNXSHAPE_OK <==> shape_len <= out_capacity;
    ensures \result == ONNXSHAPE_OK || \result == ONNXSHAPE_ERR_BUFFER_TOO_SMALL;
*/
static onnxshape_status check_out_dims(int version, size_t shape_len, size_t out_capacity,
                                       onnxshape_diag *diag) {
  if (out_capacity < shape_len) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape", version,
                           "the output has {} dims; out_dims holds {}", ONNXSHAPE__ARGS(ARG_UINT(shape_len), ARG_UINT(out_capacity)));
  }
  return ONNXSHAPE_OK;
}

/* ---- The accepting path ------------------------------------------------
 * The usual call (a version from 5 on, a type of whole bytes, no zero-size
 * data, every rule kept) is accepted here in one pass over each array and
 * without calls. Anything else goes through plan() and run_common(), which
 * check each rule in the documented order and word each failure: the fast
 * path only ever accepts, so it cannot change which error a call gets, and
 * its contracts say that what it accepts, plan() would accept with the same
 * results. */

/* The last element type a Reshape version accepts (TYPE-SET), or 0 for a
 * number that is no Reshape version, and for Reshape-1 (its type set is not
 * a range). */
/*@ assigns \nothing;
    ensures \result == 0 || (is_version(ONNXSHAPE_OP_RESHAPE, version) && version != 1 &&
                             \result == last_type(version));
*/
static ONNXSHAPE_INLINE int32_t last_type_fast(int version) {
  switch (version) {
    case 5:
      return 15;
    case 13:
    case 14:
      return 16;
    case 19:
      return 20;
    case 21:
      return 22;
    case 23:
      return 23;
    case 24:
      return 24;
    case 25:
      return 26;
    default:
      return 0;
  }
}

/* Bytes per element of the types of whole bytes (STORAGE-BYTES), or 0 for
 * strings, the sub-byte types and numbers that are no type. */
/*@ assigns \nothing;
    ensures \result == 0 || (is_type(type) && 1 <= \result <= 16 &&
                             type_bits(type) == 8 * \result);
*/
static ONNXSHAPE_INLINE size_t elem_bytes_fast(int32_t type) {
  switch (type) {
    case ONNXSHAPE_TYPE_UINT8:
    case ONNXSHAPE_TYPE_INT8:
    case ONNXSHAPE_TYPE_BOOL:
    case ONNXSHAPE_TYPE_FLOAT8E4M3FN:
    case ONNXSHAPE_TYPE_FLOAT8E4M3FNUZ:
    case ONNXSHAPE_TYPE_FLOAT8E5M2:
    case ONNXSHAPE_TYPE_FLOAT8E5M2FNUZ:
    case ONNXSHAPE_TYPE_FLOAT8E8M0:
      return 1;
    case ONNXSHAPE_TYPE_UINT16:
    case ONNXSHAPE_TYPE_INT16:
    case ONNXSHAPE_TYPE_FLOAT16:
    case ONNXSHAPE_TYPE_BFLOAT16:
      return 2;
    case ONNXSHAPE_TYPE_FLOAT:
    case ONNXSHAPE_TYPE_INT32:
    case ONNXSHAPE_TYPE_UINT32:
      return 4;
    case ONNXSHAPE_TYPE_INT64:
    case ONNXSHAPE_TYPE_DOUBLE:
    case ONNXSHAPE_TYPE_UINT64:
    case ONNXSHAPE_TYPE_COMPLEX64:
      return 8;
    case ONNXSHAPE_TYPE_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

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
    if (d < 1 || onnxshape__mul_overflows(n, d, &m)) return 0;
    n = m;
  }
  //@ assert !has_zero(dims, rank) && n == elem_count{Pre}(dims, rank);
  *count = n;
  return 1;
}

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
    requires \valid(product) && \valid(inferred) && \separated(product, inferred);
    requires \separated(product, shape + (0 .. shape_len - 1)) &&
             \separated(product, in_dims + (0 .. in_rank - 1));
    requires \separated(inferred, shape + (0 .. shape_len - 1)) &&
             \separated(inferred, in_dims + (0 .. in_rank - 1));
    assigns *product, *inferred;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 ==> targets_ok(shape, shape_len, in_rank, allowzero) &&
            1 <= *product <= INT64_MAX;
    ensures \result == 1 ==>
            (*inferred == NO_INDEX ?
               !has_minus_one(shape, shape_len) &&
               *product == known_prod{Pre}(shape, in_dims, allowzero, -1, shape_len) :
               *inferred < shape_len && shape[*inferred] == -1 &&
               (\forall integer k; 0 <= k < shape_len && k != *inferred ==> shape[k] != -1) &&
               *product == known_prod{Pre}(shape, in_dims, allowzero, *inferred, shape_len));
*/
static ONNXSHAPE_INLINE int targets_fast(const int64_t *shape, size_t shape_len,
                                         const int64_t *in_dims, size_t in_rank, int allowzero,
                                         int64_t *product, size_t *inferred) {
  long long p = 1;
  size_t minus_one = NO_INDEX;
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i ==> shape[k] >= -1;
      loop invariant \forall integer k; 0 <= k < i && shape[k] == 0 ==>
                     allowzero == 0 && k < in_rank;
      loop invariant minus_one == NO_INDEX ==> \forall integer k; 0 <= k < i ==> shape[k] != -1;
      loop invariant minus_one != NO_INDEX ==> minus_one < i && shape[minus_one] == -1 &&
                     \forall integer k; 0 <= k < i && k != minus_one ==> shape[k] != -1;
      loop invariant all_skips: \forall integer x; x >= i ==>
                     known_prod{Pre}(shape, in_dims, allowzero, x, i) ==
                     known_prod{Pre}(shape, in_dims, allowzero, -1, i);
      loop invariant p == known_prod{Pre}(shape, in_dims, allowzero, skip(minus_one), i) && 1 <= p;
      loop assigns i, p, minus_one;
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
    long long f = shape[i], m;
    if (f < 1) {
      if (f == -1 && minus_one == NO_INDEX) {
        /*@ assert skip_here: known_prod{Pre}(shape, in_dims, allowzero, i, i + 1) ==
              known_prod{Pre}(shape, in_dims, allowzero, -1, i);
        */
        minus_one = i;
        //@ assert p == known_prod{Pre}(shape, in_dims, allowzero, skip(minus_one), i + 1);
        continue;
      }
      if (f != 0 || allowzero || i >= in_rank) return 0;
      f = in_dims[i];
    }
    //@ assert factor: f == target_dim{Pre}(shape, in_dims, allowzero, i) && f >= 1;
    /*@ assert grow: known_prod{Pre}(shape, in_dims, allowzero, skip(minus_one), i + 1) ==
          known_prod{Pre}(shape, in_dims, allowzero, skip(minus_one), i) * f;
    */
    if (onnxshape__mul_overflows(p, f, &m)) return 0;
    //@ assert product: m == p * f && m >= 1;
    p = m;
    //@ assert p == known_prod{Pre}(shape, in_dims, allowzero, skip(minus_one), i + 1) && 1 <= p;
  }
  /*@ assert minus_one == NO_INDEX ==>
        !has_minus_one(shape, shape_len) &&
        p == known_prod{Pre}(shape, in_dims, allowzero, -1, shape_len);
  */
  /*@ assert minus_one != NO_INDEX ==>
        minus_one < shape_len && shape[minus_one] == -1 &&
        p == known_prod{Pre}(shape, in_dims, allowzero, minus_one, shape_len);
  */
  *product = p;
  *inferred = minus_one;
  return 1;
}

/* plan() for the usual case, with the out_dims checks of the callers: 1 with
 * the results plan() gives, or 0 (then plan() decides). */
/*@ requires in_rank == 0 || in_dims == \null || \valid_read(in_dims + (0 .. in_rank - 1));
    // RESHAPE-INFER RESHAPE-INFER-DIVISIBLE RESHAPE-COUNT RESHAPE-SCALAR
    requires attrs == \null || \valid_read(attrs);
    requires shape_len == 0 || shape == \null || \valid_read(shape + (0 .. shape_len - 1));
    requires shape_len < NO_INDEX;
    requires \valid(count) && \valid(inferred) && \valid(value);
    requires \separated(count, value) && \separated(count, inferred) && \separated(value, inferred);
    requires \separated(count, in_dims + (0 .. in_rank - 1)) &&
             \separated(count, shape + (0 .. shape_len - 1)) && \separated(count, attrs);
    requires \separated(value, in_dims + (0 .. in_rank - 1)) &&
             \separated(value, shape + (0 .. shape_len - 1)) && \separated(value, attrs);
    requires \separated(inferred, in_dims + (0 .. in_rank - 1)) &&
             \separated(inferred, shape + (0 .. shape_len - 1)) && \separated(inferred, attrs);
    assigns *count, *inferred, *value;
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
    ensures \result == 1 ==> targets_ok(shape, shape_len, in_rank, allowzero_of(attrs));
    ensures \result == 1 ==>
            planned{Pre}(shape, shape_len, in_dims, allowzero_of(attrs), *inferred, *count, *value);
*/
static ONNXSHAPE_INLINE int plan_fast(int version, int32_t type, const int64_t *in_dims,
                                      size_t in_rank, const int64_t *shape, size_t shape_len,
                                      const onnxshape_reshape_attrs *attrs, const int64_t *out_dims,
                                      size_t out_capacity, int64_t *count, size_t *inferred,
                                      int64_t *value) {
  if (type < 1 || type > last_type_fast(version)) return 0;
  int allowzero = 0;
  if (attrs != NULL && attrs->has_allowzero) {
    if (version < 14 || (attrs->allowzero != 0 && attrs->allowzero != 1)) return 0;
    allowzero = (int)attrs->allowzero;
  }
  if (shape_len > out_capacity || (shape_len > 0 && (shape == NULL || out_dims == NULL)) ||
      (in_rank > 0 && in_dims == NULL)) {
    return 0;
  }
  int64_t n, p;
  size_t minus_one;
  if (!count_fast(in_dims, in_rank, &n) ||
      !targets_fast(shape, shape_len, in_dims, in_rank, allowzero, &p, &minus_one)) {
    return 0;
  }
  int64_t inferred_value = 0;
  if (minus_one != NO_INDEX) {
    if (n % p != 0) return 0;
    inferred_value = n / p;
  } else if (n != p) {
    return 0;
  }
  *count = n;
  *inferred = minus_one;
  *value = inferred_value;
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
  size_t size = elem_bytes_fast(data->type);
  if (size == 0 || n > (int64_t)(SIZE_MAX / 16u)) return 0;
  //@ assert fits: n * size <= n * 16 <= SIZE_MAX;
  size_t bytes = (size_t)n * size;
  //@ assert whole: bytes == storage_bytes(type_bits(data->type), n);
  if (bytes > data->data_bytes || (data->data == NULL && bytes > 0) ||
      (copying && (bytes > dst_capacity || (dst == NULL && bytes > 0)))) {
    return 0;
  }
  *need = bytes;
  return 1;
}

onnxshape_status onnxshape_reshape_infer(int version, int32_t type, const int64_t *in_dims,
                                         size_t in_rank, const int64_t *shape, size_t shape_len,
                                         const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                         size_t out_capacity, onnxshape_diag *diag) {
  int64_t n, value;
  size_t inferred;
  if (plan_fast(version, type, in_dims, in_rank, shape, shape_len, attrs, out_dims, out_capacity,
                &n, &inferred, &value)) {
    write_dims(shape, shape_len, in_dims, in_rank, (int)allowzero_value(attrs), inferred, value, n,
               out_dims, out_capacity);
    onnxshape__diag_clear(diag);
    return ONNXSHAPE_OK;
  }
  onnxshape_status st = plan(version, type, in_dims, in_rank, shape, shape_len, attrs,
                             out_dims != NULL, &n, &inferred, &value, diag);
  if (st != ONNXSHAPE_OK) return st;
  st = check_out_dims(version, shape_len, out_capacity, diag);
  if (st != ONNXSHAPE_OK) return st;
  write_dims(shape, shape_len, in_dims, in_rank, (int)allowzero_value(attrs), inferred, value, n,
             out_dims, out_capacity);
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_check_shape_input(int version, int32_t type, size_t rank,
                                                     onnxshape_diag *diag) {
  /* RESHAPE-INPUTS: Reshape-1 takes the target as an attribute, not an input. */
  const onnxshape_op_version *v = onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, version);
  if (v == NULL || version < 5) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_VERSION, NULL, 0,
                           "Reshape-{} has no 'shape' input", ONNXSHAPE__ARGS(ARG_INT(version)));
  }
  if (type != ONNXSHAPE_TYPE_INT64) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "Reshape", version,
                           "the 'shape' input is {}; it must be int64", ONNXSHAPE__ARGS(ARG_STR(onnxshape_type_name(type))));
  }
  if (rank != 1) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_RANK, "Reshape", version,
                           "the 'shape' input has rank {}; it must be 1-D", ONNXSHAPE__ARGS(ARG_UINT(rank)));
  }
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* Reshape into caller memory: checks everything first (the rules, out_dims,
 * the bytes the data holds and, when copying, the bytes dst holds), and
 * writes out_dims and *out only when all of it passed. *bytes is the byte
 * count of the data. */
/*@ requires reshape_run_memory(data, shape, shape_len, attrs, out_dims, out_capacity, out, diag);
    // KERNEL-CAPACITY KERNEL-UNTOUCHED-ON-ERROR STORAGE-BYTES RESHAPE-VIEW RESHAPE-COPY
    requires \valid(bytes);
    requires out_dims != \null ==> \separated(out_dims + (0 .. out_capacity - 1), bytes);
    requires out != \null ==> \separated(out, bytes);
    requires (\separated(bytes, data) && \separated(bytes, attrs) && \separated(bytes, diag));
    requires data != \null && data->rank > 0 && data->dims != \null ==>
             \separated(bytes, data->dims + (0 .. data->rank - 1));
    assigns out_dims[0 .. out_capacity - 1], *out, *bytes,
            diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    ensures reshape_run_rules{Pre,Post}(\result, version, data, shape, shape_len, attrs,
                                        out_dims, out_capacity);
    ensures \result == ONNXSHAPE_OK ==> data != \null && out != \null;
    ensures \result == ONNXSHAPE_OK ==>
            out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
            out->data_bytes == *bytes &&
            *bytes == \old(data_need(data)) &&
            *bytes <= data->data_bytes && (data->data != \null || *bytes == 0) &&
            (copying ==> *bytes <= dst_capacity && (dst != \null || *bytes == 0));
    ensures \result == ONNXSHAPE_ERR_INVALID_ARGUMENT ==>
            data == \null || out == \null ||
            (shape_len > 0 && (shape == \null || out_dims == \null)) ||
            (data->rank > 0 && data->dims == \null);
    ensures \result == ONNXSHAPE_ERR_BUFFER_TOO_SMALL ==>
            out_capacity < shape_len ||
            (copying && \old(data_need(data)) > 0 &&
             (dst == \null || \old(data_need(data)) > dst_capacity));
    ensures \result != ONNXSHAPE_OK && out_dims != \null ==>
            \forall integer k; 0 <= k < out_capacity ==> out_dims[k] == \old(out_dims[k]);
    ensures \result != ONNXSHAPE_OK && out != \null ==> *out == \old(*out);
*/
static ONNXSHAPE_INLINE onnxshape_status run_common(int version, const onnxshape_tensor *data,
                                                    const int64_t *shape, size_t shape_len,
                                                    const onnxshape_reshape_attrs *attrs,
                                                    int64_t *out_dims, size_t out_capacity,
                                                    int copying, const void *dst,
                                                    size_t dst_capacity, onnxshape_tensor *out,
                                                    size_t *bytes, onnxshape_diag *diag) {
  if (data == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                           "data and out must not be NULL", ONNXSHAPE__NO_ARGS);
  }
  int64_t n, value;
  size_t inferred, need;
  if (plan_fast(version, data->type, data->dims, data->rank, shape, shape_len, attrs, out_dims,
                out_capacity, &n, &inferred, &value) &&
      bytes_fast(data, n, copying, dst, dst_capacity, &need)) {
    onnxshape__diag_clear(diag);
  } else {
    onnxshape_status st = plan(version, data->type, data->dims, data->rank, shape, shape_len, attrs,
                               out_dims != NULL, &n, &inferred, &value, diag);
    if (st != ONNXSHAPE_OK) return st;
    st = check_out_dims(version, shape_len, out_capacity, diag);
    if (st != ONNXSHAPE_OK) return st;
    st = onnxshape_type_storage_bytes(data->type, n, &need);
    if (st != ONNXSHAPE_OK) {
      return onnxshape__fail(diag, st, "Reshape", version,
                             "{} elements of {} do not fit in memory", ONNXSHAPE__ARGS(ARG_INT(n), ARG_STR(onnxshape_type_name(data->type))));
    }
    if (data->data_bytes < need || (data->data == NULL && need > 0)) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_DATA_SIZE, "Reshape", version,
                             "{} elements of {} need {} bytes; the data holds {}", ONNXSHAPE__ARGS(ARG_INT(n), ARG_STR(onnxshape_type_name(data->type)), ARG_UINT(need), ARG_UINT(data->data == NULL ? (size_t)0 : data->data_bytes)));
    }
    if (copying && (dst_capacity < need || (dst == NULL && need > 0))) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape", version,
                             "the output needs {} bytes; the destination holds {}", ONNXSHAPE__ARGS(ARG_UINT(need), ARG_UINT(dst == NULL ? (size_t)0 : dst_capacity)));
    }
  }
  write_dims(shape, shape_len, data->dims, data->rank, (int)allowzero_value(attrs), inferred,
             value, n, out_dims, out_capacity);
  *bytes = need;
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
  size_t bytes;
  onnxshape_status st = run_common(version, data, shape, shape_len, attrs, out_dims,
                                   out_capacity, 0, NULL, 0, out, &bytes, diag);
  if (st != ONNXSHAPE_OK) return st;
  out->data = data->data;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_run_copy(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity, void *dst,
                                            size_t dst_capacity, onnxshape_tensor *out,
                                            onnxshape_diag *diag) {
  onnxshape_tensor result;
  size_t bytes = 0;
  onnxshape_status st = run_common(version, data, shape, shape_len, attrs, out_dims,
                                   out_capacity, 1, dst, dst_capacity,
                                   out != NULL ? &result : NULL, &bytes, diag);
  if (st != ONNXSHAPE_OK) return st;
  /*@ assert source_kept: \forall integer k; 0 <= k < bytes ==>
        ((char *)data->data)[k] == \at(((char *)data->data)[k], Pre);
  */
  /* memmove: a caller may reshape in place or into an overlapping buffer. */
  if (bytes > 0) memmove(dst, data->data, bytes);
  /*@ assert moved: \forall integer k; 0 <= k < bytes ==>
        ((char *)dst)[k] == \at(((char *)data->data)[k], Pre);
  */
  result.data = dst;
  *out = result;
  return ONNXSHAPE_OK;
}
