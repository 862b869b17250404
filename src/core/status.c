/* SPDX-License-Identifier: Apache-2.0 */
#include "onnxshape_kernels.h"

const char *onnxshape_status_name(onnxshape_status status) {
  switch (status) {
#define ONNXSHAPE_X_NAME(name, value, text) \
  case ONNXSHAPE_##name:                    \
    return "ONNXSHAPE_" #name;
    ONNXSHAPE_STATUS_LIST(ONNXSHAPE_X_NAME)
#undef ONNXSHAPE_X_NAME
    default:
      break;
  }
  return "ONNXSHAPE_UNKNOWN_STATUS";
}

const char *onnxshape_status_text(onnxshape_status status) {
  switch (status) {
#define ONNXSHAPE_X_TEXT(name, value, text) \
  case ONNXSHAPE_##name:                    \
    return text;
    ONNXSHAPE_STATUS_LIST(ONNXSHAPE_X_TEXT)
#undef ONNXSHAPE_X_TEXT
    default:
      break;
  }
  return "unknown status";
}
