/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape's entry points: new dims over unchanged row-major data
 * (docs/semantics.md, "Reshape"). The usual call is accepted on the path of
 * reshape_fast.h (not compiled in builds optimized for size:
 * ONNXSHAPE__SIZE_BUILD); everything else goes through the rules of
 * reshape_rules.c, which decide every status and word every message. */
#include <string.h>

#include "reshape_fast.h"

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

/* Writes the output dims of a successful onnxshape__reshape_plan() (or its
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
  /*@ loop invariant 0 <= i <= shape_len;
      loop invariant \forall integer k; 0 <= k < i && k != minus_one ==>
                     out_dims[k] == target_dim(shape, in_dims, allowzero, k);
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
        out_dims[k] == target_dim(shape, in_dims, allowzero, k);
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
  int64_t n, value;
  size_t minus_one;
#if !ONNXSHAPE__SIZE_BUILD
  if (plan_fast(version, type, in_dims, in_rank, shape, shape_len, attrs, out_dims, out_capacity,
                &n, &minus_one, &value) != 0) {
    write_dims(shape, shape_len, in_dims, in_rank, (int)allowzero_value(attrs), minus_one, value, n,
               out_dims, out_capacity);
    onnxshape__diag_clear(diag);
    return ONNXSHAPE_OK;
  }
#endif
  onnxshape_status st = onnxshape__reshape_plan(version, type, in_dims, in_rank, shape, shape_len, attrs,
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
    // ERROR-ORDER
    ensures \result == reshape_run_status{Pre}(version, data, shape, shape_len, attrs, out_dims,
                                               out_capacity, out, copying != 0 ? 1 : 0,
                                               (char *)dst, dst_capacity);
    ensures \result == ONNXSHAPE_OK ==>
            reshape_accepts{Pre,Post}(shape, shape_len, \at(data->dims, Pre), \at(data->rank, Pre),
                                      \at(allowzero_of(attrs), Pre), out_dims);
    ensures \result == ONNXSHAPE_OK ==>
            out->type == data->type && out->rank == shape_len && out->dims == out_dims &&
            out->data_bytes == *bytes && *bytes == \old(data_need(data)) &&
            *bytes <= data->data_bytes && (data->data != \null || *bytes == 0) &&
            (copying ==> *bytes <= dst_capacity && (dst != \null || *bytes == 0));
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
                                                    size_t *bytes, onnxshape_diag *diag) {
  if (data == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                           "data and out must not be NULL", ONNXSHAPE__NO_ARGS);
  }
  int64_t n, value;
  size_t minus_one, need;
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
    onnxshape_status st = onnxshape__reshape_plan(version, data->type, data->dims, data->rank, shape, shape_len, attrs,
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
  onnxshape_tensor result;
  size_t bytes = 0;
  onnxshape_status st = run_common(version, data, shape, shape_len, attrs, out_dims,
                                   out_capacity, 1, dst, dst_capacity,
                                   out != NULL ? &result : NULL, &bytes, diag);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__finish(diag, st);
  }
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
  result.data = dst;
  *out = result;
  /*@ assert dst != \null ==> \forall integer k; out->data_bytes <= k < dst_capacity ==>
        ((char *)dst)[k] == \at(((char *)dst)[k], Pre);
  */
  return ONNXSHAPE_OK;
}
