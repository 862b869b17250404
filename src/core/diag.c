/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void onnxshape_diag_init(onnxshape_diag *diag) {
  if (diag == NULL) return;
  diag->node = NULL;
  diag->message[0] = '\0';
}

onnxshape_status onnxshape__fail(onnxshape_diag *diag, onnxshape_status status,
                                 const char *op_name, int version, const char *fmt, ...) {
  if (diag == NULL) return status;
  char *buf = diag->message;
  size_t cap = sizeof diag->message;
  int n = 0;
  if (op_name != NULL) {
    if (diag->node != NULL && diag->node[0] != '\0') {
      n = snprintf(buf, cap, "%s-%d (node '%s'): ", op_name, version, diag->node);
    } else {
      n = snprintf(buf, cap, "%s-%d: ", op_name, version);
    }
  } else if (diag->node != NULL && diag->node[0] != '\0') {
    n = snprintf(buf, cap, "node '%s': ", diag->node);
  }
  if (n < 0) n = 0;
  if ((size_t)n < cap) {
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(buf + n, cap - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return status;
}
