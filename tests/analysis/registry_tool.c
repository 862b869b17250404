/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of tests/analysis/registry.py: the operator registry
 * (src/core/operators.h) as the library compiled it, one JSON object per
 * row: name, since_versions, handler, flags, and the version the lookup
 * resolves at every opset 1 to 28 (0: the operator is newer). */
#include <stdio.h>

#include "../../src/core/operators.h"

#define HANDLER_NAME(id, name, handler, flags, since) #handler,
static const char *const handler_names[] = {ONNXSHAPE__OPERATORS(HANDLER_NAME)};
#undef HANDLER_NAME

int main(void) {
  printf("[\n");
  for (size_t i = 0; i < OP_COUNT; i++) {
    operator_id op = (operator_id)i;
    size_t n;
    const uint8_t *since = onnxshape__op_since(op, &n);
    unsigned flags = onnxshape__op_flags(op);
    printf("{\"name\": \"%s\", \"since\": [", onnxshape__op_name(op));
    for (size_t k = 0; k < n; k++) printf("%s%d", k > 0 ? ", " : "", since[k]);
    printf("], \"handler\": \"%s\", \"kernel\": %d, \"strict\": %d, \"graphs\": %d, "
           "\"deprecated\": %d, \"at\": [",
           handler_names[i], (flags & OPF_KERNEL) != 0, (flags & OPF_STRICT) != 0,
           (flags & OPF_GRAPHS) != 0, (flags & OPF_DEPRECATED) != 0);
    for (int opset = 1; opset <= 28; opset++) {
      operator_id found = OP_OTHER;
      int version = -1;
      int ok = onnxshape__op_find(onnxshape__op_name(op), opset, &found, &version);
      printf("%s%d", opset > 1 ? ", " : "", ok && found == op ? version : -1);
    }
    printf("]}%s\n", i + 1 < OP_COUNT ? "," : "");
  }
  printf("]\n");
  operator_id unused;
  int v;
  /* Names ONNX does not define are not found (and neither are
   * case-changed ones). */
  if (onnxshape__op_find("Relu6", 13, &unused, &v) || onnxshape__op_find("relu", 13, &unused, &v) ||
      onnxshape__op_find("", 13, &unused, &v) || onnxshape__op_find("Zzz", 13, &unused, &v)) {
    fprintf(stderr, "registry_tool: an undefined name was found\n");
    return 1;
  }
  return 0;
}
