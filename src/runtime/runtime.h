/* SPDX-License-Identifier: Apache-2.0 */
/* What the runtime's parts (src/runtime: run.c, infer.c, analysis.c,
 * profile.c, messages.c) offer each other beyond the public API. */
#ifndef ONNXSHAPE_RUNTIME_H
#define ONNXSHAPE_RUNTIME_H

#include "../onnx/model.h"

/* The rules of `check`, each with its stable id, public rule and severity
 * in one table (profile.c, onnxshape_check_rule()). Appended, never
 * reordered: the order is the public one. */
typedef enum check_rule {
  CHECK_DOMAIN,
  CHECK_CONFLICT,
  CHECK_ORDER,
  CHECK_UNKNOWN_OP,
  CHECK_OPSET,
  CHECK_D1,
  CHECK_D6,
  CHECK_D7,
  CHECK_D11,
  CHECK_INCOMPLETE,
  CHECK_SONNX_DEFAULT,
  CHECK_SONNX_SPARSE,
  CHECK_DEPRECATED,
  CHECK_RULES
} check_rule;

/* Static inference (onnxshape_model_infer) that goes on after a node that
 * cannot succeed whatever the data, calling report(ctx, rule, path, node,
 * message) for each, and for every conflict and portability risk (rule: a
 * check_rule; path: the graph's, "" for the main graph; node: NULL when the
 * finding is about no node), for each default-domain node whose operator
 * is unknown or newer than its graph's opset, for each graph out of
 * topological order, and once (INCOMPLETE) when nodes were left unknown
 * for the work budget. The analysis's memory counts against `within` (the
 * check's model arena, onnxshape__arena_new_within). (infer.c) */
typedef void (*onnxshape__report_fn)(void *ctx, check_rule rule, const char *path,
                                     const graph_node *node, const char *message);
struct onnxshape__arena;
onnxshape_status onnxshape__model_infer_all(const onnxshape_model *m, onnxshape__report_fn report,
                                            void *ctx, struct onnxshape__arena *within,
                                            onnxshape_diag *diag);

/* Lists in messages (messages.c): operators by count, input names. */
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
/* "Conv (12), com.microsoft:FusedConv (1)", names escaped, within `cap`
 * bytes: what does not fit, and `more` nodes not told apart, end it as
 * ", and N more operators". */
void onnxshape__op_counts_text(const op_count *counts, size_t n, size_t more, char *buf,
                               size_t cap);

/* Writes item k (escaped text) into out (cap bytes); returns its length. */
typedef size_t (*onnxshape__item_fn)(const void *ctx, size_t k, char *out, size_t cap);
/* The n items "a, b, c" into buf (cap bytes, at least 1), as many whole
 * items as fit with room to end with ", and N more <what>" for the others
 * and `uncounted` more; empty when cap is below 50 (not even the count
 * would fit). */
void onnxshape__fit_list(char *buf, size_t cap, size_t n, onnxshape__item_fn item, const void *ctx,
                         size_t uncounted, const char *what);

/* Name k of a list (NULL: none), for onnxshape__nearest. */
typedef const char *(*onnxshape__name_fn)(const void *ctx, size_t k);
/* The name among the first 4096 of the n that name_at gives nearest to
 * `name` (edit distance over their first 64 bytes) when it is close
 * enough to be a slip (a third of the name, at least one edit), else
 * NULL: the "did you mean" of every message that names what is not
 * there. */
const char *onnxshape__nearest(const char *name, size_t n, onnxshape__name_fn name_at,
                               const void *ctx);

/* ERR_NOT_FOUND: "the model has no graph input named 'X'", with the
 * nearest input name when one is close ("did you mean 'Y'?") and the graph's
 * input names (as many as fit). */
onnxshape_status onnxshape__no_such_input(const model_graph *g, const char *name,
                                          onnxshape_diag *diag);
#endif
