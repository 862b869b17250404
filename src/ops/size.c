/* SPDX-License-Identifier: Apache-2.0 */
/* Size: the element count of the input as 0-D int64 (docs/semantics.md, "Size"). */
#include "../core/catalog_fns.h"

onnxshape_status onnxshape_size_infer(int version, int32_t type, onnxshape_diag *diag) {
  return onnxshape__finish(diag, onnxshape__enter(ONNXSHAPE_OP_SIZE, version, type, diag));
}

onnxshape_status onnxshape_size_run(int version, const onnxshape_tensor *data, int64_t *out,
                                    onnxshape_diag *diag) {
  if (data == NULL || out == NULL) {
    return onnxshape__fail(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "Size", version,
                           "data and out must not be NULL", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_status st = onnxshape__enter(ONNXSHAPE_OP_SIZE, version, data->type, diag);
  if (st == ONNXSHAPE_OK) {
    st = onnxshape__count("Size", version, data->dims, data->rank, out, diag);
  }
  return onnxshape__finish(diag, st);
}
