/* SPDX-License-Identifier: Apache-2.0 */
/* Which (operator, version, element type) the kernels accept: the check at
 * the entry of every kernel, proved against the specification (the lists
 * are catalog.h's; the messages of a refusal are in versions.c). */
#include "catalog_fns.h"

int onnxshape__accepts(onnxshape_op op, int version, int32_t type) {
  int32_t last = onnxshape__last_type(op, version);
  if (last != 0) return type >= 1 && type <= last;
  return op == ONNXSHAPE_OP_RESHAPE && version == 1 && ONNXSHAPE__IS_FLOAT_TYPE(type);
}

onnxshape_status onnxshape__enter(onnxshape_op op, int version, int32_t type,
                                  onnxshape_diag *diag) {
  if (onnxshape__accepts(op, version, type)) {
    onnxshape__diag_clear(diag);
    return ONNXSHAPE_OK;
  }
  return onnxshape__reject(op, version, type, diag);
}

onnxshape_status onnxshape_check_type(onnxshape_op op, int version, int32_t type,
                                      onnxshape_diag *diag) {
  return onnxshape__enter(op, version, type, diag);
}
