/* SPDX-License-Identifier: Apache-2.0 */
/* Shape: dims[s:e] of the input as 1-D int64 (docs/semantics.md, "Shape"). */
#include "../core/catalog_fns.h"
#include "shape_rules.h"

/*@ requires attrs == \null || \valid_read(attrs);
    requires \valid(s) && \valid(e);
    requires \separated(s, e) && \separated(s, attrs) && \separated(s, diag);
    requires (\separated(e, attrs) && \separated(e, diag));
    requires diag_ok(diag);
    assigns *s, *e, diag->message[0 .. ONNXSHAPE_DIAG_SIZE - 1];
    // ERROR-ORDER SHAPE-ATTRS-VERSION
    ensures \result == shape_status(version, type, rank, attrs);
    // SHAPE-CLAMP SHAPE-DEFAULTS SHAPE-OUTPUT
    ensures \result == ONNXSHAPE_OK ==>
            rank <= INT64_MAX && *s == shape_start(attrs, rank) &&
            *e == *s + shape_len(attrs, rank) && *e <= rank;
    // ERROR-MESSAGE
    ensures \result == ONNXSHAPE_OK ==> diag_cleared(diag);
    ensures \result != ONNXSHAPE_OK ==> diag_failed(diag);
*/
static onnxshape_status shape_slice(int version, int32_t type, size_t rank,
                                    const onnxshape_shape_attrs *attrs, size_t *s, size_t *e,
                                    onnxshape_diag *diag) {
  onnxshape_status st = onnxshape__enter(ONNXSHAPE_OP_SHAPE, version, type, diag);
  if (st != ONNXSHAPE_OK) {
    return st;
  }
#if SIZE_MAX > INT64_MAX /* only a size_t wider than int64 holds such a rank */
  if (rank > (size_t)INT64_MAX) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Shape", version,
                            "input rank {} is out of range", VAL_UINT(rank));
  }
#endif
  int has_start = 0, has_end = 0;
  if (attrs != NULL && attrs->has_start != 0) {
    has_start = 1;
  }
  if (attrs != NULL && attrs->has_end != 0) {
    has_end = 1;
  }
  /* SHAPE-ATTRS-VERSION: start and end exist from Shape-15 on. */
  if (version < ONNXSHAPE__SHAPE_ATTRS_SINCE && (has_start || has_end)) {
    return onnxshape__defer(diag, ONNXSHAPE_ERR_INVALID_ATTRIBUTE, "Shape", version,
                            "attribute '{}' is not defined before Shape-15", VAL_NAME(has_start ? "start" : "end"));
  }
  int64_t r = (int64_t)rank;
  int64_t start = onnxshape__clamp_axis(has_start ? attrs->start : 0, r);
  int64_t end = onnxshape__clamp_axis(has_end ? attrs->end : r, r);
  *s = (size_t)start;
  *e = start < end ? (size_t)end : (size_t)start;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_shape_infer(int version, int32_t type, size_t rank,
                                       const onnxshape_shape_attrs *attrs, size_t *length,
                                       onnxshape_diag *diag) {
  size_t s = 0u, e = 0u; /* set by shape_slice on success */
  if (length == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Shape", version,
                           "no place to write the output length", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = shape_slice(version, type, rank, attrs, &s, &e, diag);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__finish(diag, st);
  }
  *length = e - s;
  return ONNXSHAPE_OK;
}

/* The assertions below only help the proof (docs/proofs.md, "Proofs with
 * margin"): each error return is unreachable in behavior accepted
 * (not_accepted) and the success return in behavior rejected (not_rejected),
 * so that the goals of each behavior's postconditions leave out the paths of
 * the other; negative, short, out_len and out_values state what a path
 * establishes in the terms of the contract. */
onnxshape_status onnxshape_shape_run(int version, const onnxshape_tensor *data,
                                     const onnxshape_shape_attrs *attrs, int64_t *out,
                                     size_t out_capacity, size_t *length, onnxshape_diag *diag) {
  if (data == NULL || length == NULL || (data->dims == NULL && data->rank > 0u)) {
    //@ for accepted: assert not_accepted: \false;
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Shape", version,
                           "data, its dims and the length pointer must not be NULL", ONNXSHAPE__NO_ARGS);
  }
  size_t s = 0u, e = 0u; /* set by shape_slice on success */
  onnxshape_status st = shape_slice(version, data->type, data->rank, attrs, &s, &e, diag);
  if (st != ONNXSHAPE_OK) {
    //@ for accepted: assert not_accepted: \false;
    return onnxshape__finish(diag, st);
  }
  /*@ loop invariant 0 <= i <= data->rank;
      loop invariant \forall integer k; 0 <= k < i ==> data->dims[k] >= 0;
      loop assigns i;
      loop variant data->rank - i;
  */
  for (size_t i = 0; i < data->rank; i++) {
    if (data->dims[i] < 0) {
      //@ assert negative: !nonneg(data->dims, data->rank);
      //@ for accepted: assert not_accepted: \false;
      return onnxshape__fail(diag, ONNXSHAPE_ERR_NEGATIVE_DIM, "Shape", version,
                             "data dims[{}] = {}; a dimension cannot be negative",
                             ONNXSHAPE__ARGS(ARG_UINT(i), ARG_INT(data->dims[i])));
    }
  }
  size_t n = e - s;
  if (n > out_capacity || (out == NULL && n > 0u)) {
    /*@ assert short: shape_len(attrs, data->rank) > 0 &&
          (out == \null || shape_len(attrs, data->rank) > out_capacity);
    */
    //@ for accepted: assert not_accepted: \false;
    return onnxshape__fail(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Shape", version,
                           "the output needs {} values; the buffer holds {}",
                           ONNXSHAPE__ARGS(ARG_UINT(n), ARG_UINT(out == NULL ? (size_t)0 : out_capacity)));
  }
  /*@ loop invariant 0 <= i <= n;
      loop invariant \forall integer k; 0 <= k < i ==> out[k] == data->dims[s + k];
      loop assigns i, out[0 .. n - 1];
      loop variant n - i;
  */
  for (size_t i = 0; i < n; i++) {
    out[i] = data->dims[s + i];
  }
  *length = n;
  //@ assert out_len: n == shape_len(attrs, data->rank) && s == shape_start(attrs, data->rank);
  /*@ assert out_values: \forall integer k; 0 <= k < *length ==>
        out[k] == data->dims[shape_start(attrs, data->rank) + k];
  */
  //@ for rejected: assert not_rejected: \false;
  return ONNXSHAPE_OK;
}
