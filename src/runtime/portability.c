/* SPDX-License-Identifier: Apache-2.0 */
/* The portability risks `check` reports (analysis.h): nodes whose result
 * depends on a point where the specification and widely used
 * implementations disagree (docs/divergences.md D1, D6, D7, D11). */
#include "../core/internal.h"
#include "analysis.h"

/* A risk of divergence `rule` (CHECK_D1 ... CHECK_D11) at node n. */
static void risk(const graph_node *n, const char *path, onnxshape__report_fn report, void *ctx,
                 check_rule rule, const char *what, const char *ruling) {
  onnxshape_diag d = {n->label, {0}};
  (void)onnxshape__fail(&d, ONNXSHAPE_ERR_INVALID_MODEL, n->op_type, n->version, "{} ({})",
                        ONNXSHAPE__ARGS(ARG_STR(what), ARG_STR(ruling)));
  onnxshape__in_graph(d.message, sizeof d.message, path, NULL, d.message);
  report(ctx, rule, path, n, d.message);
}

/* An element that may be 0 at run time. */
static int may_be_zero(an_elem e) { return !e.known || e.v == 0; }

/* D6: Shape's start or end outside [-r, r], or the rank not known. */
static void shape_risk(an_ctx *c, const graph_node *n, const char *path,
                       onnxshape__report_fn report, void *ctx) {
  const slot_info *x = in(c, n, 0);
  if (!x->rank_known) {
    risk(n, path, report, ctx, CHECK_D6, "start or end is set and the input's rank is not known",
         "the ONNX reference implementation wraps a start or end outside [-r, r] once; "
         "the specification clamps it (divergences.md D6)");
    return;
  }
  int64_t r = (int64_t)x->rank;
  int out_s = n->shape_attrs.has_start && (n->shape_attrs.start < -r || n->shape_attrs.start > r);
  int out_e = n->shape_attrs.has_end && (n->shape_attrs.end < -r || n->shape_attrs.end > r);
  if (out_s || out_e) {
    risk(n, path, report, ctx, CHECK_D6, "start or end lies outside [-r, r]",
         "the ONNX reference implementation wraps it once; the specification clamps it "
         "(divergences.md D6)");
  }
}

/* D7: a -1 in target t whose other dims may multiply to 0 while the input
 * x may be empty: the specification makes it an error (ambiguous); runtimes
 * differ on it (divergences.md D7). */
static void inferred_from_zero_risk(const slot_info *x, const slot_info *t, const graph_node *n,
                                    const char *path, onnxshape__report_fn report, void *ctx) {
  size_t minus = t->n_vals;
  for (size_t i = 0; i < t->n_vals; i++) {
    if (t->vals[i].known && t->vals[i].v == -1) minus = i;
  }
  if (minus == t->n_vals) return;
  int may_empty = !x->rank_known;
  for (size_t i = 0; x->rank_known && i < x->rank; i++) may_empty |= may_be_zero(x->dims[i]);
  int others_zero = 0;
  for (size_t i = 0; i < t->n_vals; i++) {
    an_elem e = t->vals[i];
    if (i == minus) continue;
    if (!e.known) others_zero = 1;
    if (e.known && e.v == 0) others_zero |= !x->rank_known || i >= x->rank || may_be_zero(x->dims[i]);
  }
  if (may_empty && others_zero) {
    risk(n, path, report, ctx, CHECK_D7,
         "the target holds -1 and its other dims may multiply to 0 "
         "for an empty input",
         "the specification makes that -1 ambiguous (an error); runtimes "
         "differ on it (divergences.md D7)");
  }
}

/* D1 and D7 of a Reshape with a target input. */
static void reshape_risk(an_ctx *c, const graph_node *n, const char *path,
                         onnxshape__report_fn report, void *ctx) {
  const slot_info *x = in(c, n, 0), *t = in(c, n, 1);
  /* the target's values and the input's dims, looked at a few times each */
  if (!an_charge(c, 2 * ((uint64_t)t->n_vals + (x->rank_known ? x->rank : 0)))) {
    count_stopped(c, n); /* the summary says the analysis is incomplete there */
    return;
  }
  int allowzero = n->reshape_attrs.has_allowzero && n->reshape_attrs.allowzero == 1;
  if (!t->vals_known) {
    if (allowzero) {
      risk(n, path, report, ctx, CHECK_D1,
           "allowzero = 1 with a target computed at run time, which may "
           "hold both 0 and -1",
           "onnxruntime's kernel accepts that; the specification "
           "calls it invalid (divergences.md D1)");
    }
    return;
  }
  /* D1: allowzero = 1 with a 0 and a -1 (a value not known may be either). */
  int has_minus = 0, may_zero = 0;
  for (size_t i = 0; i < t->n_vals; i++) {
    an_elem e = t->vals[i];
    if (!e.known || e.v == -1) has_minus = 1;
    if (may_be_zero(e)) may_zero = 1;
  }
  if (allowzero && has_minus && may_zero) {
    risk(n, path, report, ctx, CHECK_D1, "allowzero = 1 and the target may hold both 0 and -1",
         "onnxruntime's kernel accepts that; the specification calls it invalid "
         "(divergences.md D1)");
    return;
  }
  if (!allowzero) inferred_from_zero_risk(x, t, n, path, report, ctx);
}

void an_portability(an_ctx *c, const graph_node *n, const char *path, onnxshape__report_fn report,
                    void *ctx) {
  if (n->op == OP_SQUEEZE && n->version >= 13) {
    /* D11: an empty axes input */
    const slot_info *axes = in(c, n, 1);
    if (axes != NULL && axes->vals_known && axes->n_vals == 0) {
      risk(n, path, report, ctx, CHECK_D11, "the axes input is empty",
           "onnxruntime squeezes every dim of 1; the ONNX reference and ONNX's shape inference "
           "squeeze none (divergences.md D11)");
    }
  } else if (n->op == OP_SHAPE && (n->shape_attrs.has_start || n->shape_attrs.has_end)) {
    shape_risk(c, n, path, report, ctx);
  } else if (n->op == OP_RESHAPE && n->n_inputs == 2) {
    reshape_risk(c, n, path, report, ctx);
  }
}
