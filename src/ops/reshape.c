/* SPDX-License-Identifier: Apache-2.0 */
/* Reshape: new dims over unchanged row-major data (docs/semantics.md, "Reshape"). */
#include <string.h>

#include "../core/internal.h"

#define NO_INDEX ((size_t)-1)

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

/* The value shape[i] stands for before -1 is inferred. */
static int64_t resolved(const int64_t *shape, size_t i, const int64_t *in_dims, int allowzero) {
  return (shape[i] == 0 && !allowzero) ? in_dims[i] : shape[i];
}

/* Checks each target value on its own (left to right, the first failure is
 * reported), then the rules that involve the whole target. */
static onnxshape_status check_targets(const onnxshape_op_version *v, const int64_t *shape,
                                      size_t shape_len, size_t in_rank, int allowzero,
                                      size_t *inferred, onnxshape_diag *diag) {
  size_t zero_at = NO_INDEX;
  *inferred = NO_INDEX;
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

/* Product of the resolved dims other than the inferred one; zero dims are
 * found before any multiplication. Returns 0 on overflow, with *at the index
 * of the factor that overflowed. */
static int known_product(const int64_t *shape, size_t shape_len, const int64_t *in_dims,
                         int allowzero, size_t inferred, int64_t *product, size_t *at) {
  for (size_t i = 0; i < shape_len; i++) {
    if (i != inferred && resolved(shape, i, in_dims, allowzero) == 0) {
      *product = 0;
      return 1;
    }
  }
  int64_t p = 1;
  for (size_t i = 0; i < shape_len; i++) {
    if (i == inferred) continue;
    if (!onnxshape__mul_nonneg(p, resolved(shape, i, in_dims, allowzero), &p)) {
      *at = i;
      return 0;
    }
  }
  *product = p;
  return 1;
}

/* The whole of Reshape's shape rule; on success out_dims holds the result
 * and *count the element count (the same for input and output). */
static onnxshape_status resolve(int version, int32_t type, const int64_t *in_dims,
                                size_t in_rank, const int64_t *shape, size_t shape_len,
                                const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                size_t out_capacity, int64_t *count, onnxshape_diag *diag) {
  const onnxshape_op_version *v;
  onnxshape_status st = onnxshape__enter(ONNXSHAPE_OP_RESHAPE, version, type, &v, diag);
  if (st != ONNXSHAPE_OK) return st;
  if ((shape == NULL || out_dims == NULL) && shape_len > 0) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, v->op_name, version,
                           "shape and out_dims must not be NULL");
  }
  int allowzero;
  st = check_allowzero(v, attrs, &allowzero, diag);
  if (st != ONNXSHAPE_OK) return st;
  int64_t n;
  st = onnxshape__count(v, "data", in_dims, in_rank, &n, diag);
  if (st != ONNXSHAPE_OK) return st;
  size_t inferred;
  st = check_targets(v, shape, shape_len, in_rank, allowzero, &inferred, diag);
  if (st != ONNXSHAPE_OK) return st;
  int64_t p = 0;
  size_t at = 0;
  int64_t inferred_value = 0;
  if (!known_product(shape, shape_len, in_dims, allowzero, inferred, &p, &at)) {
    /* The known dims multiply past INT64_MAX and none is 0. With a -1 and no
     * elements, the -1 can only be 0 and the output (a zero-size tensor with
     * huge dims, like the input) is well defined; otherwise no count fits. */
    if (inferred == NO_INDEX || n != 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_OVERFLOW, v->op_name, version,
                             "the product of the target dimensions overflows int64 at "
                             "shape[%zu] = %lld",
                             at, (long long)resolved(shape, at, in_dims, allowzero));
    }
  } else if (inferred != NO_INDEX) {
    if (p == 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_INFERRED_FROM_ZERO, v->op_name, version,
                             "shape[%zu] = -1 cannot be inferred: the other dimensions "
                             "multiply to 0",
                             inferred);
    }
    if (n % p != 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_NOT_DIVISIBLE, v->op_name, version,
                             "shape[%zu] = -1 cannot be inferred: %lld elements do not divide "
                             "by %lld",
                             inferred, (long long)n, (long long)p);
    }
    inferred_value = n / p;
  } else if (p != n) {
    if (shape_len == 0) {
      return onnxshape__fail(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, v->op_name, version,
                             "an empty shape means a scalar (1 element), but the data has "
                             "%lld elements",
                             (long long)n);
    }
    return onnxshape__fail(diag, ONNXSHAPE_ERR_COUNT_MISMATCH, v->op_name, version,
                           "the target holds %lld elements, but the data has %lld",
                           (long long)p, (long long)n);
  }
  if (out_capacity < shape_len) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, v->op_name, version,
                           "the output has %zu dims; out_dims holds %zu", shape_len,
                           out_capacity);
  }
  for (size_t i = 0; i < shape_len; i++) {
    out_dims[i] = i == inferred ? inferred_value : resolved(shape, i, in_dims, allowzero);
  }
  *count = n;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_infer(int version, int32_t type, const int64_t *in_dims,
                                         size_t in_rank, const int64_t *shape, size_t shape_len,
                                         const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                         size_t out_capacity, onnxshape_diag *diag) {
  int64_t n;
  return resolve(version, type, in_dims, in_rank, shape, shape_len, attrs, out_dims,
                 out_capacity, &n, diag);
}

onnxshape_status onnxshape_reshape_check_shape_input(int version, int32_t type, size_t rank,
                                                     onnxshape_diag *diag) {
  const onnxshape_op_version *v = onnxshape_op_version_get(ONNXSHAPE_OP_RESHAPE, version);
  if (v == NULL || v->num_inputs < 2) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_UNKNOWN_VERSION, NULL, 0,
                           "Reshape-%d has no 'shape' input", version);
  }
  if (type != ONNXSHAPE_TYPE_INT64) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_TYPE_NOT_ALLOWED, v->op_name, version,
                           "the 'shape' input is %s; it must be int64", onnxshape_type_name(type));
  }
  if (rank != 1) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_RANK, v->op_name, version,
                           "the 'shape' input has rank %zu; it must be 1-D", rank);
  }
  onnxshape__diag_clear(diag);
  return ONNXSHAPE_OK;
}

/* Resolves the output and checks that data holds the bytes its dims need;
 * *bytes is that need. */
static onnxshape_status run_common(int version, const onnxshape_tensor *data,
                                   const int64_t *shape, size_t shape_len,
                                   const onnxshape_reshape_attrs *attrs, int64_t *out_dims,
                                   size_t out_capacity, onnxshape_tensor *out, size_t *bytes,
                                   onnxshape_diag *diag) {
  if (data == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Reshape", version,
                           "data and out must not be NULL");
  }
  int64_t n;
  onnxshape_status st = resolve(version, data->type, data->dims, data->rank, shape, shape_len,
                                attrs, out_dims, out_capacity, &n, diag);
  if (st != ONNXSHAPE_OK) return st;
  st = onnxshape_type_storage_bytes(data->type, n, bytes);
  if (st != ONNXSHAPE_OK) {
    return onnxshape__fail(diag, st, "Reshape", version,
                           "%lld elements of %s do not fit in memory", (long long)n,
                           onnxshape_type_name(data->type));
  }
  if (data->data_bytes < *bytes || (data->data == NULL && *bytes > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_DATA_SIZE, "Reshape", version,
                           "%lld elements of %s need %zu bytes; the data holds %zu",
                           (long long)n, onnxshape_type_name(data->type), *bytes,
                           data->data == NULL ? (size_t)0 : data->data_bytes);
  }
  out->type = data->type;
  out->rank = shape_len;
  out->dims = out_dims;
  out->data_bytes = *bytes;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_reshape_run_view(int version, const onnxshape_tensor *data,
                                            const int64_t *shape, size_t shape_len,
                                            const onnxshape_reshape_attrs *attrs,
                                            int64_t *out_dims, size_t out_capacity,
                                            onnxshape_tensor *out, onnxshape_diag *diag) {
  size_t bytes;
  onnxshape_status st = run_common(version, data, shape, shape_len, attrs, out_dims,
                                   out_capacity, out, &bytes, diag);
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
                                   out_capacity, out != NULL ? &result : NULL, &bytes, diag);
  if (st != ONNXSHAPE_OK) return st;
  if (dst_capacity < bytes || (dst == NULL && bytes > 0)) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_BUFFER_TOO_SMALL, "Reshape", version,
                           "the output needs %zu bytes; the destination holds %zu", bytes,
                           dst == NULL ? (size_t)0 : dst_capacity);
  }
  /* memmove: a caller may reshape in place or into an overlapping buffer. */
  if (bytes > 0) memmove(dst, data->data, bytes);
  result.data = dst;
  *out = result;
  return ONNXSHAPE_OK;
}
