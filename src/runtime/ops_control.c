/* SPDX-License-Identifier: Apache-2.0 */
/* Control flow: If's outputs from its branches, Loop's types and Scan's
 * outputs from their bodies (infer.c analyses the subgraphs before the
 * node: the branch a known condition takes, else both; a body once, on its
 * declared inputs). */
#include <string.h>

#include "analysis.h"

int an_if_taken(an_ctx *c, const graph_node *n) {
  const slot_info *cond = in(c, n, 0);
  if (cond == NULL || !cond->vals_known || cond->n_vals != 1 || !cond->vals[0].known) return -1;
  return cond->vals[0].v != 0 ? 0 : 1;
}

/* If: the outputs of the branch taken, or what both branches have in
 * common when the condition is not known. */
onnxshape_status onnxshape__an_op_branches(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const model_graph *branch[2] = {NULL, NULL};
  for (size_t k = 0; k < n->n_subgraphs; k++) {
    const node_subgraph *sg = &n->subgraphs[k];
    if (strcmp(sg->attr, "then_branch") == 0) branch[0] = sg->graph;
    if (strcmp(sg->attr, "else_branch") == 0) branch[1] = sg->graph;
  }
  if (branch[0] == NULL || branch[1] == NULL) return ONNXSHAPE_OK;
  int take = an_if_taken(c, n);
  for (size_t i = 0; i < n->n_outputs; i++) {
    if (n->outputs[i] == NO_SLOT) continue;
    slot_info *out = &c->slots[n->outputs[i]];
    const slot_info *t = i < branch[0]->n_outputs ? &c->slots[branch[0]->output_slots[i]] : NULL;
    const slot_info *e = i < branch[1]->n_outputs ? &c->slots[branch[1]->output_slots[i]] : NULL;
    if (t == NULL || e == NULL) continue;
    int ok = take == 0 ? an_copy(c, out, t) : take == 1 ? an_copy(c, out, e) : an_join(c, out, t, e);
    if (!ok) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  }
  return ONNXSHAPE_OK;
}

/* A state carried through a Scan: the initial value `init` when no
 * iteration runs, else the body's state output of the last one, `last`,
 * which the body computes from its declared input `decl` (the body runs
 * only on a state that fits that declaration, so a number there is
 * init's too in a valid model). onnxruntime does not hold the body to
 * the state's shape: a body returning a Constant of another shape with as
 * many elements gives that shape (a review's model: state [2,3], body
 * Constant [3,2], final state [3,2]). So the final state has init's type
 * (else the body's), and where the rank is certain (the body's rank when
 * an iteration is certain to run, `once`, or when it is init's), each dim:
 * the body's number when an iteration is certain, or when init has it;
 * init's where the body passes its input's dim through (the same
 * expression or number as `decl`'s: by induction every iteration keeps
 * it); the body's where it is init's; else unknown. Values are not
 * carried (the body may change them). */
static int carried(an_ctx *c, slot_info *out, const slot_info *init, const slot_info *last,
                   const slot_info *decl, int once) {
  if (out == NULL || init == NULL) return 1;
  if (init->kind != 0 || last->kind != 0) return an_join(c, out, init, last);
  memset(out, 0, sizeof *out);
  out->type = init->type != 0 ? init->type : last->type;
  if (!last->rank_known) return 1;
  size_t rank = last->rank;
  int decl_same = decl != NULL && decl->kind == 0 && decl->rank_known && decl->rank == rank;
  int init_same = init->rank_known ? init->rank == rank : decl_same;
  if (!once && !init_same) return 1;
  if (!an_set_rank(c, out, rank)) return 0;
  for (size_t i = 0; i < rank; i++) {
    an_elem l = last->dims[i], d = decl_same ? decl->dims[i] : an_unknown();
    an_elem v = init->rank_known && init_same ? init->dims[i] : an_unknown();
    if (!an_is_set(v) && d.known) v = d; /* a valid model's init fits the body */
    if (same_elem(c, l, d)) { /* passed through */
      out->dims[i] = v;
    } else if (l.known) {
      out->dims[i] = once || (v.known && v.v == l.v) ? l : an_unknown();
    } else {
      out->dims[i] = same_elem(c, l, v) ? l : an_unknown();
    }
  }
  return 1;
}

/* A scan output: the body's per-iteration output `each` stacked along
 * `axis` (in [0, rank]), `count` iterations: its type, and its dims when
 * each's rank is known. */
static int stacked(an_ctx *c, slot_info *out, const slot_info *each, int64_t axis, an_elem count) {
  if (out == NULL || (each->rank_known && (axis < 0 || (uint64_t)axis > each->rank))) return 1;
  out->type = each->type;
  if (!each->rank_known) return 1;
  if (!an_set_rank(c, out, each->rank + 1)) return 0;
  for (size_t i = 0, j = 0; i <= each->rank; i++) {
    out->dims[i] = (int64_t)i == axis ? count : each->dims[j++];
  }
  return 1;
}

/* Loop: element types only. Its body's declared input shapes bind
 * nothing (ONNX's own inference gives the body's carried inputs their type
 * alone, and onnxruntime runs a body whose carried values change shape,
 * even rank, from one iteration to the next), so dims the body computes
 * from them may hold for the first iteration only; and with no iteration
 * onnxruntime makes each scan output from its own static inference (a
 * rank-1 [0] when that knows nothing). A carried value is the type its
 * initial value and the body's output share; a scan output the body's. */
onnxshape_status onnxshape__an_op_loop(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const model_graph *body = an_subgraph(n, "body");
  if (body == NULL || n->n_inputs < 2 || body->n_inputs != n->n_inputs ||
      body->n_outputs != n->n_outputs + 1) {
    return ONNXSHAPE_OK;
  }
  size_t n_carried = n->n_inputs - 2;
  if (n->n_outputs < n_carried) return ONNXSHAPE_OK;
  for (size_t i = 0; i < n->n_outputs; i++) {
    slot_info *out = an_out(c, n, i);
    if (out == NULL) continue;
    int32_t t = c->slots[body->output_slots[i + 1]].type;
    if (i < n_carried) {
      const slot_info *init = in(c, n, i + 2);
      if (init == NULL || init->type != t) t = 0;
    }
    out->type = t;
  }
  return ONNXSHAPE_OK;
}

/* The axis attribute `name` of a Scan (ints, one per input or output, as
 * many as `count`; each 0 when absent) at position i, normalized for rank
 * r (negative from version 11); -1 when it is not valid (the node fails). */
static int64_t scan_axis(const graph_node *n, const char *name, size_t count, size_t i, size_t r) {
  size_t len = 0;
  const int64_t *axes = an_attr_ints(n, name, &len);
  if (an_attr(n, name) != NULL && (axes == NULL || len != count)) return -1;
  return an_norm_axis(axes != NULL ? axes[i] : 0, r, n->version >= 11);
}

/* Body input i of Scan node n (its body `body`) when it is a scan input:
 * the outer input's element, its type and its dims without the scan axis
 * (Scan-8: without the batch and sequence axes), 1 and *s set, *outer the
 * outer input's position in n; 0 for a state (and for a node whose inputs
 * do not fit its body). onnxruntime
 * does not hold the element to the body's declaration (a review's model:
 * a body declaring [3] for an element of [5] runs, and what the body
 * computes from it is of 5), so analysis takes it from the outer value.
 * An axis out of range leaves the element's dims unknown. */
int an_scan_element(an_ctx *c, const graph_node *n, const model_graph *body, size_t i,
                    slot_info *s, size_t *outer) {
  int64_t m = an_attr_int(n, "num_scan_inputs", 0);
  size_t lead = n->version < 9 ? 1 : 0;
  if (m < 1 || (uint64_t)m > body->n_inputs || body->n_inputs + lead != n->n_inputs ||
      i < body->n_inputs - (size_t)m) {
    return 0;
  }
  *outer = i + lead;
  const slot_info *x = in(c, n, i + lead);
  memset(s, 0, sizeof *s);
  if (x == NULL || x->kind != 0) return 1;
  s->type = x->type;
  if (!x->rank_known) return 1;
  size_t drop = n->version < 9 ? 2 : 1;
  if (x->rank < drop) return 1;
  int64_t ax = 0;
  if (n->version >= 9) {
    ax = scan_axis(n, "scan_input_axes", (size_t)m, i - (body->n_inputs - (size_t)m), x->rank);
    if (ax < 0) return 1;
  }
  if (!an_set_rank(c, s, x->rank - drop)) return -1;
  for (size_t k = 0, j = 0; k < x->rank; k++) {
    if (n->version < 9 ? k >= 2 : (int64_t)k != ax) s->dims[j++] = x->dims[k];
  }
  return 1;
}

/* Scan-8, batched: input 0 is sequence_lens (optional), then N states
 * [batch, ...] and M scan inputs [batch, sequence, ...], every one with the
 * same batch and sequence dims; the body takes one batch entry's state and
 * element. A final state is carried() of the initial value and the body's
 * state output and declared state input under the initial value's batch
 * dim, an iteration certain when the sequence is >= 1 long and no
 * sequence_lens is given; a scan output the body's
 * output under [batch, sequence] of the first scan input (padded to the
 * sequence dim when sequence_lens is shorter). */
static onnxshape_status scan8(an_ctx *c, const graph_node *n, const model_graph *body, int64_t m) {
  if (n->n_inputs < 1 || (uint64_t)m > n->n_inputs - 1 || body->n_inputs != n->n_inputs - 1 ||
      body->n_outputs != n->n_outputs) {
    return ONNXSHAPE_OK;
  }
  size_t n_state = n->n_inputs - 1 - (size_t)m;
  if (n->n_outputs < n_state) return ONNXSHAPE_OK;
  an_elem batch = an_unknown(), len = an_unknown();
  const slot_info *first = in(c, n, 1 + n_state);
  if (first != NULL && first->rank_known) {
    if (first->rank < 2) return ONNXSHAPE_OK; /* the node fails */
    batch = first->dims[0];
    len = first->dims[1];
  }
  /* An iteration is certain to run when the sequence has a length of at
   * least 1 and no sequence_lens may make one entry's 0. */
  int once = len.known && len.v >= 1 && in(c, n, 0) == NULL;
  for (size_t i = 0; i < n->n_outputs; i++) {
    slot_info *out = an_out(c, n, i);
    const slot_info *last = &c->slots[body->output_slots[i]];
    slot_info under;
    memset(&under, 0, sizeof under);
    int ok;
    if (i < n_state) {
      const slot_info *init = in(c, n, 1 + i);
      an_elem b = init != NULL && init->rank_known && init->rank > 0 ? init->dims[0] : batch;
      slot_info decl_under;
      memset(&decl_under, 0, sizeof decl_under);
      ok = out == NULL ||
           (stacked(c, &under, last, 0, b) &&
            stacked(c, &decl_under, &c->slots[body->input_slots[i]], 0, b) &&
            carried(c, out, init, &under, &decl_under, once));
    } else {
      ok = out == NULL || (stacked(c, &under, last, 0, len) && stacked(c, out, &under, 0, batch));
    }
    if (!ok) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  }
  return ONNXSHAPE_OK;
}

/* Scan: from version 9, the N states as carried() gives them; the K scan
 * outputs stacked along scan_output_axes over the sequence, whose length is
 * the first scan input's dim along its scan_input_axes. Scan-8 batches
 * (scan8). */
onnxshape_status onnxshape__an_op_scan(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const model_graph *body = an_subgraph(n, "body");
  int64_t m = an_attr_int(n, "num_scan_inputs", 0);
  if (body != NULL && n->version < 9 && m >= 1) return scan8(c, n, body, m);
  if (body == NULL || n->version < 9 || m < 1 || (uint64_t)m > n->n_inputs ||
      body->n_inputs != n->n_inputs || body->n_outputs != n->n_outputs) {
    return ONNXSHAPE_OK;
  }
  size_t n_state = n->n_inputs - (size_t)m;
  if (n->n_outputs < n_state) return ONNXSHAPE_OK;
  size_t n_scan = n->n_outputs - n_state;
  an_elem len = an_unknown();
  const slot_info *first = in(c, n, n_state);
  if (first != NULL && first->rank_known) {
    int64_t ax = scan_axis(n, "scan_input_axes", (size_t)m, 0, first->rank);
    if (ax < 0) return ONNXSHAPE_OK;
    len = first->dims[ax];
  }
  for (size_t i = 0; i < n->n_outputs; i++) {
    slot_info *out = an_out(c, n, i);
    const slot_info *last = &c->slots[body->output_slots[i]];
    int ok;
    if (i < n_state) {
      ok = carried(c, out, in(c, n, i), last, &c->slots[body->input_slots[i]],
                   len.known && len.v >= 1);
    } else {
      int64_t ax = last->rank_known
                       ? scan_axis(n, "scan_output_axes", n_scan, i - n_state, last->rank + 1)
                       : 0;
      ok = stacked(c, out, last, ax, len);
    }
    if (!ok) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  }
  return ONNXSHAPE_OK;
}
