/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape: new dims over unchanged row-major data (docs/semantics.md, "Reshape"). */
#include <string.h>

#include "../core/internal.h"

#define NO_INDEX SIZE_MAX

/*@ // The index known_prod skips: the inferred one, or none (-1).
    logic integer skip(integer inferred) = inferred == NO_INDEX ? -1 : inferred;
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
                           "attribute 'allowzero' is not defined before Reshape-14");
  }
  if (attrs->allowzero != 0 && attrs->allowzero != 1) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, v->op_name, v->since_version,
                           "allowzero = %lld; it must be 0 or 1", (long long)attrs->allowzero);
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
                             "shape[%zu] = %lld; a dimension cannot be below -1", i,
                             (long long)x);
    }
    if (x == -1) {
      if (*inferred != NO_INDEX) {
        return onnxshape__fail(diag, ONNXSHAPE_ERR_MULTIPLE_INFERRED, v->op_name,
                               v->since_version,
                               "shape[%zu] and shape[%zu] are both -1; at most one dimension "
                               "can be inferred",
                               *inferred, i);
      }
      *inferred = i;
    }
    if (x == 0) {
      if (!allowzero && i >= in_rank) {
        return onnxshape__fail(diag, ONNXSHAPE_ERR_ZERO_OUT_OF_RANGE, v->op_name,
                               v->since_version,
                               "shape[%zu] = 0 copies input dimension %zu, but the input has "
                               "rank %zu",
                               i, i, in_rank);
      }
      if (zero_at == NO_INDEX) zero_at = i;
    }
  }
  if (allowzero && zero_at != NO_INDEX && *inferred != NO_INDEX) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_ZERO_WITH_INFERRED, v->op_name, v->since_version,
                           "with allowzero=1, shape[%zu] = 0 and shape[%zu] = -1 cannot be "
                           "combined",
                           zero_at, *inferred);
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
            (*inferred == NO_INDEX ?
               !has_minus_one(shape, shape_len) &&
               known_prod{Pre}(shape, in_dims, allowzero_of(attrs), -1, shape_len) == *count :
               *inferred < shape_len && shape[*inferred] == -1 &&
               known_prod{Pre}(shape, in_dims, allowzero_of(attrs), *inferred, shape_len) != 0 &&
               *count %
                 known_prod{Pre}(shape, in_dims, allowzero_of(attrs), *inferred, shape_len) == 0 &&
               *value == *count /
                 known_prod{Pre}(shape, in_dims, allowzero_of(attrs), *inferred, shape_len));
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
                           "shape and out_dims must not be NULL");
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
                             "shape[%zu] = %lld",
                             at, (long long)resolved(shape, at, in_dims, allowzero));
    }
  } else if (minus_one != NO_INDEX) {
    if (p == 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_INFERRED_FROM_ZERO, "Reshape", version,
                             "shape[%zu] = -1 cannot be inferred: the other dimensions "
                             "multiply to 0",
                             minus_one);
    }
    if (n % p != 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_NOT_DIVISIBLE, "Reshape", version,
                             "shape[%zu] = -1 cannot be inferred: %lld elements do not divide "
                             "by %lld",
                             minus_one, (long long)n, (long long)p);
    }
    inferred_value = n / p;
  } else if (p != n) {
    if (shape_len == 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, "Reshape", version,
                             "an empty shape means a scalar (1 element), but the data has "
                             "%lld elements",
                             (long long)n);
    }
    return onnxshape__fail(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, "Reshape", version,
                           "the target holds %lld elements, but the data has %lld",
                           (long long)p, (long long)n);
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
    requires inferred == NO_INDEX ?
               !has_minus_one(shape, shape_len) &&
               known_prod(shape, in_dims, allowzero, -1, shape_len) == count :
               inferred < shape_len && shape[inferred] == -1 &&
               known_prod(shape, in_dims, allowzero, inferred, shape_len) != 0 &&
               count % known_prod(shape, in_dims, allowzero, inferred, shape_len) == 0 &&
               value == count / known_prod(shape, in_dims, allowzero, inferred, shape_len);
    assigns out_dims[0 .. shape_len - 1];
    ensures reshape_dims{Pre,Post}(shape, shape_len, in_dims, allowzero, out_dims, count);
*/
static void write_dims(const int64_t *shape, size_t shape_len, const int64_t *in_dims,
                       size_t in_rank, int allowzero, size_t inferred, int64_t value,
                       int64_t count, int64_t *out_dims, size_t out_capacity) {
  (void)in_rank;      /* bounds the readable in_dims, in the contract */
  (void)out_capacity; /* likewise for out_dims */
  (void)count;        /* the element count the contract relates the dims to */
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i && k != inferred ==>
                     out_dims[k] == target_dim(shape, in_dims, allowzero, k);
      loop invariant inferred < i ==> out_dims[inferred] == value;
      loop assigns i, out_dims[0 .. shape_len - 1];
      loop variant shape_len - i;
  */
  for (size_t i = 0; i < shape_len; i++) {
    out_dims[i] = i == inferred ? value : resolved(shape, i, in_dims, allowzero);
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
                           "the output has %zu dims; out_dims holds %zu", shape_len,
                           out_capacity);
  }
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_infer(int version, int32_t type, const int64_t *in_dims,
                                         size_t in_rank, const int64_t *shape, size_t shape_len,
                                         const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                         size_t out_capacity, onnxshape_diag *diag) {
  int64_t n, value;
  size_t inferred;
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
                           "Reshape-%d has no 'shape' input", version);
  }
  if (type != ONNXSHAPE_TYPE_INT64) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, "Reshape", version,
                           "the 'shape' input is %s; it must be int64", onnxshape_type_name(type));
  }
  if (rank != 1) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_RANK, "Reshape", version,
                           "the 'shape' input has rank %zu; it must be 1-D", rank);
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
static onnxshape_status run_common(int version, const onnxshape_tensor *data,
                                   const int64_t *shape, size_t shape_len,
                                   const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                   size_t out_capacity, int copying, const void *dst,
                                   size_t dst_capacity, onnxshape_tensor *out, size_t *bytes,
                                   onnxshape_diag *diag) {
  if (data == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                           "data and out must not be NULL");
  }
  int64_t n, value;
  size_t inferred;
  onnxshape_status st = plan(version, data->type, data->dims, data->rank, shape, shape_len,
                             attrs, out_dims != NULL, &n, &inferred, &value, diag);
  if (st != ONNXSHAPE_OK) return st;
  st = check_out_dims(version, shape_len, out_capacity, diag);
  if (st != ONNXSHAPE_OK) return st;
  size_t need;
  st = onnxshape_type_storage_bytes(data->type, n, &need);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__fail(diag, st, "Reshape", version,
                           "%lld elements of %s do not fit in memory", (long long)n,
                           onnxshape_type_name(data->type));
  }
  if (data->data_bytes < need || (data->data == NULL && need > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_DATA_SIZE, "Reshape", version,
                           "%lld elements of %s need %zu bytes; the data holds %zu",
                           (long long)n, onnxshape_type_name(data->type), need,
                           data->data == NULL ? (size_t)0 : data->data_bytes);
  }
  if (copying && (dst_capacity < need || (dst == NULL && need > 0))) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape", version,
                           "the output needs %zu bytes; the destination holds %zu", need,
                           dst == NULL ? (size_t)0 : dst_capacity);
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
  size_t bytes;
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
