/* SPDX-License-Identifier: Apache-2.0 */
/* The public entry check (onnxshape_check_type): the kernels' own check
 * (onnxshape__enter in catalog_fns.h, proved there against the
 * specification; the messages of a refusal are in versions.c). */
#include "catalog_fns.h"

onnxshape_status onnxshape_check_type(onnxshape_op op, int version, int32_t type,
                                      onnxshape_diag *diag) {
  return onnxshape__finish(diag, onnxshape__enter(op, version, type, diag));
}
