/* SPDX-License-Identifier: Apache-2.0 */
/* Operators by count (runtime.h): the runner's refusal and the analysis
 * summary name the operators of a model with their node counts. */
#include <string.h>

#include "../core/internal.h"
#include "runtime.h"

void onnxshape__count_op(const graph_node *n, op_count *counts, size_t *n_counts, size_t cap,
                         size_t *more) {
  const char *domain = n->domain != NULL ? n->domain : "";
  for (size_t k = 0; k < *n_counts; k++) {
    if (strcmp(counts[k].op, n->op_type) == 0 && strcmp(counts[k].domain, domain) == 0) {
      counts[k].count++;
      return;
    }
  }
  if (*n_counts == cap) {
    (*more)++;
    return;
  }
  counts[(*n_counts)++] = (op_count){domain, n->op_type, 1};
}

size_t onnxshape__count_ops(const model_graph *g, int (*select)(const graph_node *n),
                            op_count *counts, size_t cap, size_t *more) {
  size_t n = 0;
  *more = 0;
  for (size_t i = 0; i < g->n_nodes; i++) {
    if (select(&g->nodes[i])) onnxshape__count_op(&g->nodes[i], counts, &n, cap, more);
  }
  return n;
}

void onnxshape__op_counts_text(const op_count *counts, size_t n, size_t more, char *buf,
                               size_t cap) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < n && at + 1 < cap; k++) {
    at += onnxshape__format(buf + at, cap - at, "{}{}{}{} ({})",
                            ONNXSHAPE__ARGS(ARG_STR(k > 0 ? ", " : ""),
                                            ONNXSHAPE__OP_ARGS(counts[k].domain, counts[k].op),
                                            ARG_UINT(counts[k].count)));
  }
  if (more > 0 && at + 1 < cap) {
    (void)onnxshape__format(buf + at, cap - at, ", and {} more nodes of other operators",
                            ONNXSHAPE__ARGS(ARG_UINT(more)));
  }
}
