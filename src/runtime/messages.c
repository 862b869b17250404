/* SPDX-License-Identifier: Apache-2.0 */
/* Lists in the runtime's messages (runtime.h): the operators of a model
 * with their node counts (the runner's refusal, the analysis summary), a
 * graph's input names (a binding that names none of them), the model's
 * symbols (a --dim that names none of them), each fitted to the message
 * whole: an item never ends mid-name, and what does not fit is counted ("and
 * N more"). */
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

/* Room kept for the closing ", and 18446744073709551615 more <what>". */
#define MORE_ROOM 48u

void onnxshape__fit_list(char *buf, size_t cap, size_t n, onnxshape__item_fn item, const void *ctx,
                         size_t uncounted, const char *what) {
  size_t at = 0, k = 0;
  buf[0] = '\0';
  if (cap <= MORE_ROOM + 1) return;
  for (; k < n; k++) {
    char one[ONNXSHAPE_DIAG_SIZE];
    size_t len = item(ctx, k, one, sizeof one);
    size_t sep = k > 0 ? 2u : 0u;
    /* the last item needs no room for "more" unless items were left out */
    size_t keep = (k + 1 < n || uncounted > 0) ? MORE_ROOM : 0u;
    if (at + sep + len + keep + 1 > cap) break;
    at += onnxshape__format(buf + at, cap - at, "{}{}",
                            ONNXSHAPE__ARGS(ARG_STR(sep > 0 ? ", " : ""), ARG_TEXT(one)));
  }
  size_t left = n - k + uncounted;
  if (left > 0) {
    (void)onnxshape__format(buf + at, cap - at, "{}{} more {}",
                            ONNXSHAPE__ARGS(ARG_STR(k > 0 ? ", and " : ""), ARG_UINT(left),
                                            ARG_STR(what)));
  }
}

/* "Conv (12)" or "com.microsoft:FusedConv (1)". */
static size_t op_count_item(const void *ctx, size_t k, char *out, size_t cap) {
  const op_count *c = (const op_count *)ctx + k;
  return onnxshape__format(out, cap, "{}{}{} ({})",
                           ONNXSHAPE__ARGS(ONNXSHAPE__OP_ARGS(c->domain, c->op), ARG_UINT(c->count)));
}

void onnxshape__op_counts_text(const op_count *counts, size_t n, size_t more, char *buf,
                               size_t cap) {
  /* the operators past the first ONNXSHAPE__OP_COUNT_MAX were not told
   * apart: their nodes are counted as such, at the end */
  char nodes[64] = "";
  size_t tail = 0;
  if (more > 0) {
    tail = onnxshape__format(nodes, sizeof nodes, ", and {} more nodes of other operators",
                             ONNXSHAPE__ARGS(ARG_UINT(more)));
  }
  onnxshape__fit_list(buf, cap > tail ? cap - tail : 0, n, op_count_item, counts, 0, "operators");
  size_t at = strlen(buf);
  (void)onnxshape__format(buf + at, cap - at, "{}", ONNXSHAPE__ARGS(ARG_TEXT(nodes)));
}

/* strlen(s), at most max. */
static size_t len_at_most(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != '\0') n++;
  return n;
}

/* Edit distance of a and b (their first 64 bytes), for a suggestion. */
static size_t distance(const char *a, const char *b) {
  size_t la = len_at_most(a, 64), lb = len_at_most(b, 64);
  size_t row[65];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* Names compared for a suggestion at most (each comparison is bounded). */
#define SUGGEST_MAX 4096u

const char *onnxshape__nearest(const char *name, size_t n, onnxshape__name_fn name_at,
                               const void *ctx) {
  const char *near = NULL;
  size_t best = SIZE_MAX, len = len_at_most(name, 64);
  for (size_t i = 0; i < n && i < SUGGEST_MAX; i++) {
    const char *s = name_at(ctx, i);
    if (s == NULL) continue;
    size_t d = distance(name, s);
    if (d < best) {
      best = d;
      near = s;
    }
  }
  /* close enough to be a slip: a third of the name, at least 1 edit */
  if (near != NULL && best > (len / 3 > 1 ? len / 3 : 1)) near = NULL;
  return near;
}

static const char *input_name(const void *ctx, size_t k) {
  return ((const model_graph *)ctx)->inputs[k].name;
}

static size_t input_item(const void *ctx, size_t k, char *out, size_t cap) {
  const model_graph *g = ctx;
  return onnxshape__format(out, cap, "'{}'", ONNXSHAPE__ARGS(ARG_NAME(g->inputs[k].name)));
}


/* The message of a binding that names no input of g, with `list` (the
 * inputs, fitted) in parentheses when with_list. */
static onnxshape_status no_input_message(const char *name, const char *near, int with_list,
                                         const char *list, onnxshape_diag *diag) {
  if (near != NULL && with_list) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND,
                            "the model has no graph input named '{}'; did you mean '{}'? (its "
                            "graph inputs: {})",
                            ONNXSHAPE__ARGS(ARG_NAME(name), ARG_NAME(near), ARG_TEXT(list)));
  }
  if (near != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND,
                            "the model has no graph input named '{}'; did you mean '{}'?",
                            ONNXSHAPE__ARGS(ARG_NAME(name), ARG_NAME(near)));
  }
  if (with_list) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND,
                            "the model has no graph input named '{}' (its graph inputs: {})",
                            ONNXSHAPE__ARGS(ARG_NAME(name), ARG_TEXT(list)));
  }
  return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND, "the model has no graph input named '{}'",
                          ONNXSHAPE__ARGS(ARG_NAME(name)));
}

onnxshape_status onnxshape__no_such_input(const model_graph *g, const char *name,
                                          onnxshape_diag *diag) {
  if (g->n_inputs == 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND,
                            "the model has no graph input named '{}' (it has no graph inputs)",
                            ONNXSHAPE__ARGS(ARG_NAME(name)));
  }
  if (diag == NULL) return ONNXSHAPE_ERR_NOT_FOUND;
  const char *near = onnxshape__nearest(name, g->n_inputs, input_name, g);
  /* The list gets the room the rest of the message leaves (the names, the
   * node diag names), so the message is never cut: the names that fit,
   * then how many more. */
  char list[ONNXSHAPE_DIAG_SIZE];
  (void)no_input_message(name, near, 1, "", diag);
  size_t used = strlen(diag->message);
  onnxshape__fit_list(list, sizeof list - used, g->n_inputs, input_item, g, 0, "inputs");
  return no_input_message(name, near, list[0] != '\0', list, diag);
}
