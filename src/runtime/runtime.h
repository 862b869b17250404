/* SPDX-License-Identifier: Apache-2.0 */
/* What the runtime's parts (src/runtime: run.c, infer.c, analysis.c,
 * profile.c, op_counts.c) offer each other beyond the public API. */
#ifndef ONNXSHAPE_RUNTIME_H
#define ONNXSHAPE_RUNTIME_H

#include "../onnx/model.h"

/* Static inference (onnxshape_model_infer) that goes on after a node that
 * cannot succeed whatever the data, calling report(ctx, rule, message) for
 * each, and for every conflict and portability risk (rule: an
 * onnxshape_profile_rule). (infer.c) */
typedef void (*onnxshape__report_fn)(void *ctx, int rule, const char *message);
onnxshape_status onnxshape__model_infer_all(const onnxshape_model *m, onnxshape__report_fn report,
                                            void *ctx, onnxshape_diag *diag);

/* Operators by count, for messages and summaries (op_counts.c). */
typedef struct op_count {
  const char *domain; /* "" for the default domain */
  const char *op;
  size_t count;
} op_count;
/* Distinct operators listed at most (a hostile model may have a million). */
#define ONNXSHAPE__OP_COUNT_MAX 64u
/* Adds node n's operator to counts (n_counts listed, at most cap; a node
 * whose operator does not fit counts in *more). */
void onnxshape__count_op(const graph_node *n, op_count *counts, size_t *n_counts, size_t cap,
                         size_t *more);
/* The operators of g's nodes (not of its subgraphs) for which select(node)
 * is 1, in order of first use, at most cap of them (*more: how many other
 * nodes are left uncounted); returns how many were listed. */
size_t onnxshape__count_ops(const model_graph *g, int (*select)(const graph_node *n),
                            op_count *counts, size_t cap, size_t *more);
/* "Conv (12), com.microsoft:FusedConv (1)" (and ", and N more nodes"),
 * names escaped, cut to fit `cap`. */
void onnxshape__op_counts_text(const op_count *counts, size_t n, size_t more, char *buf,
                               size_t cap);
#endif
