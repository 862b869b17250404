/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by src/core and src/ops; not part of the public API. */
#ifndef ONNXSHAPE_INTERNAL_H
#define ONNXSHAPE_INTERNAL_H

#include "onnxshape.h"

#if defined(__GNUC__)
#define ONNXSHAPE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ONNXSHAPE_PRINTF(f, a)
#endif

/* Clears diag->message (a successful call leaves it empty). */
void onnxshape__diag_clear(onnxshape_diag *diag);

/* Writes "<Op>-<version> (node '<node>'): <message>" into diag (when not
 * NULL) and returns status, so callers can `return onnxshape__fail(...)`.
 * op_name may be NULL for errors that belong to no operator. */
onnxshape_status onnxshape__fail(onnxshape_diag *diag, onnxshape_status status,
                                 const char *op_name, int version, const char *fmt, ...)
    ONNXSHAPE_PRINTF(5, 6);

/* a * b for a, b >= 0; returns 0 and leaves *r unset when it exceeds INT64_MAX. */
int onnxshape__mul_nonneg(int64_t a, int64_t b, int64_t *r);

/* Validates version and type for a kernel entry; on success *v is the table
 * entry. Messages name the operator and version. */
onnxshape_status onnxshape__enter(onnxshape_op op, int version, int32_t type,
                                  const onnxshape_op_version **v, onnxshape_diag *diag);

/* The element count of dims, with messages naming the operator, version and
 * the input (`what`). */
onnxshape_status onnxshape__count(const onnxshape_op_version *v, const char *what,
                                  const int64_t *dims, size_t rank, int64_t *count,
                                  onnxshape_diag *diag);

#endif
