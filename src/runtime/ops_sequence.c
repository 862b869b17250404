/* SPDX-License-Identifier: Apache-2.0 */
/* Sequences and optionals (slot_info.kind): SequenceEmpty,
 * SequenceConstruct, SequenceInsert, SequenceErase, SplitToSequence and
 * SequenceMap make a sequence, known by its element type, what every
 * element's shape has in common (a dim known only where all agree: an_join)
 * and its length; SequenceAt and ConcatFromSequence give tensors from it,
 * SequenceLength (ops_other.c) its length. Optional makes an optional,
 * known by its element and whether it holds one; OptionalHasElement and
 * OptionalGetElement (ops_other.c) read it. A sequence or an optional is
 * never a tensor to the other handlers (its type and rank stay unknown),
 * and a tensor is never a sequence to these: an input of the wrong kind
 * leaves the outputs unknown. */
#include <string.h>

#include "analysis.h"

/* A new element slot: a copy of x (a tensor), or NULL when x is not a
 * tensor known in any way; *ok 0 when out of budget or memory. */
static const slot_info *elem_of(an_ctx *c, const slot_info *x, int *ok) {
  *ok = 1;
  if (x == NULL || x->kind != 0 || (x->type == 0 && !x->rank_known)) return NULL;
  slot_info *e = an_alloc(c, 1, sizeof *e);
  *ok = e != NULL && an_copy(c, e, x);
  return *ok ? e : NULL;
}

/* A new element slot of type t alone (NULL for 0). */
static const slot_info *elem_typed(an_ctx *c, int32_t t, int *ok) {
  *ok = 1;
  if (t == 0) return NULL;
  slot_info *e = an_alloc(c, 1, sizeof *e);
  if (e == NULL) return *ok = 0, NULL;
  memset(e, 0, sizeof *e);
  e->type = t;
  return e;
}

/* What elements a and b (tensors, either NULL) have in common; their type
 * when one is not known (a valid sequence has one element type). */
static const slot_info *elem_join(an_ctx *c, const slot_info *a, const slot_info *b, int *ok) {
  *ok = 1;
  int32_t t = a == NULL ? an_type_of(b) : b == NULL || b->type == 0 ? a->type
              : a->type == 0 || a->type == b->type ? b->type : 0;
  if (a == NULL || b == NULL) return elem_typed(c, t, ok);
  slot_info *e = an_alloc(c, 1, sizeof *e);
  if (e == NULL || !an_join(c, e, a, b)) return *ok = 0, NULL;
  e->type = t;
  return e;
}

/* out as a sequence of elements `elem` and length len. */
static void set_sequence(slot_info *out, const slot_info *elem, an_elem len) {
  memset(out, 0, sizeof *out);
  out->kind = AN_SEQUENCE;
  out->elem = elem;
  out->seq_len = len;
}

/* A sequence input: x, or NULL when x is not known to be one. */
static const slot_info *sequence_in(an_ctx *c, const graph_node *n, size_t k) {
  const slot_info *x = in(c, n, k);
  return x != NULL && x->kind == AN_SEQUENCE ? x : NULL;
}

/* SequenceEmpty: no element, of `dtype` (default float). */
static int eval_sequence_empty(an_ctx *c, const graph_node *n) {
  const node_attr *a = an_attr(n, "dtype");
  int64_t t = a == NULL ? ONNXSHAPE_TYPE_FLOAT : a->type == ATTR_INT ? a->i : 0;
  if (t <= 0 || t > ONNXSHAPE_TYPE_LAST) return 1;
  int ok;
  const slot_info *e = elem_typed(c, (int32_t)t, &ok);
  if (ok) set_sequence(an_out(c, n, 0), e, an_num(0));
  return ok;
}

/* SequenceConstruct: its n inputs (tensors of one type), in order. */
static int eval_sequence_construct(an_ctx *c, const graph_node *n) {
  const slot_info *e = NULL;
  if (n->n_inputs == 0) return 1;
  for (size_t k = 0; k < n->n_inputs; k++) {
    const slot_info *x = in(c, n, k);
    if (x == NULL || x->kind != 0) return 1;
    int ok, joined = 1;
    const slot_info *xe = elem_of(c, x, &ok);
    if (ok && k > 0) xe = elem_join(c, e, xe, &joined);
    if (!ok || !joined) return 0;
    e = xe;
    if (k > 0 && e == NULL) break; /* nothing in common */
  }
  set_sequence(an_out(c, n, 0), e, an_num((int64_t)n->n_inputs));
  return 1;
}

/* A length changed by d (+1, -1): known when len is a number (and the
 * result >= 0), or an expression. */
static an_elem len_plus(an_ctx *c, an_elem len, int64_t d) {
  if (len.known) return len.v + d >= 0 ? an_num(len.v + d) : an_unknown();
  if (!an_is_set(len) || d < 0) return an_unknown();
  return an_expr_add(c->x, len, an_num(d));
}

/* SequenceInsert: the tensor joins the elements (it is the only one of an
 * empty sequence); one more element. */
static int eval_sequence_insert(an_ctx *c, const graph_node *n) {
  const slot_info *s = in(c, n, 0), *x = in(c, n, 1);
  if (s == NULL || x == NULL || x->kind != 0 || (s->kind != 0 && s->kind != AN_SEQUENCE)) return 1;
  int ok;
  const slot_info *xe = elem_of(c, x, &ok);
  if (!ok) return 0;
  const slot_info *e;
  an_elem len = an_unknown();
  if (s->kind != AN_SEQUENCE) { /* nothing known of the sequence: x's type */
    e = elem_typed(c, x->type, &ok);
  } else if (s->seq_len.known && s->seq_len.v == 0) { /* x alone, of the sequence's type */
    int32_t st = s->elem != NULL ? s->elem->type : 0;
    e = xe;
    if (st != 0 && x->type != 0 && st != x->type) {
      e = NULL; /* the node fails */
    } else if (st != 0 && x->type == 0) {
      slot_info *t = an_alloc(c, 1, sizeof *t);
      if (t == NULL) return 0;
      if (xe != NULL) {
        if (!an_copy(c, t, xe)) return 0;
      } else {
        memset(t, 0, sizeof *t);
      }
      t->type = st;
      e = t;
    }
    len = an_num(1);
  } else {
    e = elem_join(c, s->elem, xe, &ok);
    len = len_plus(c, s->seq_len, 1);
  }
  if (!ok || c->out_of_work) return 0;
  set_sequence(an_out(c, n, 0), e, len);
  return 1;
}

/* SequenceErase: the elements as they were (those left are among them);
 * one fewer. Erasing from an empty sequence fails (unknown). */
static int eval_sequence_erase(an_ctx *c, const graph_node *n) {
  const slot_info *s = sequence_in(c, n, 0);
  if (s == NULL || (s->seq_len.known && s->seq_len.v == 0)) return 1;
  an_elem len = s->seq_len.known ? an_num(s->seq_len.v - 1) : an_unknown();
  set_sequence(an_out(c, n, 0), s->elem, len);
  return 1;
}

/* SequenceAt: an element (what every element has in common). */
static int eval_sequence_at(an_ctx *c, const graph_node *n) {
  const slot_info *s = sequence_in(c, n, 0);
  if (s == NULL || s->elem == NULL) return 1;
  return an_copy(c, an_out(c, n, 0), s->elem);
}

/* SplitToSequence: x's type; its dims with the axis's the length of a
 * part, known when every part has the same (split a scalar dividing the
 * dim, or larger than it; a 1-D split of equal numbers; no split: 1,
 * removed when keepdims is 0); the length: split's when 1-D, ceil(dim /
 * split) for a scalar, the dim with no split. A split of another rank or
 * type, a scalar split < 1 or an axis out of range fail (unknown). */
static int eval_split_to_sequence(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0), *sp = in(c, n, 1);
  if (x == NULL || x->kind != 0) return 1;
  if (sp != NULL && (sp->kind != 0 || (sp->rank_known && sp->rank > 1) ||
                     (sp->type != 0 && sp->type != ONNXSHAPE_TYPE_INT32 &&
                      sp->type != ONNXSHAPE_TYPE_INT64))) {
    return 1;
  }
  an_elem len = an_unknown(), part = an_unknown();
  /* keepdims is ignored when split is given (the specification), but
   * onnxruntime keeps the axis only for a 1-D split with elements: with
   * keepdims 0 and a scalar split, or a 1-D split that may be empty, it
   * drops the axis. There the rank is left unknown (neither is claimed). */
  int keep = an_attr_int(n, "keepdims", 1) != 0 || sp != NULL;
  int rank_sure = an_attr_int(n, "keepdims", 1) != 0 || sp == NULL ||
                  (sp->rank_known && sp->rank == 1 && sp->dims[0].known && sp->dims[0].v >= 1);
  int64_t ax = -1;
  if (x->rank_known) {
    ax = an_norm_axis(an_attr_int(n, "axis", 0), x->rank, 1);
    if (ax < 0) return 1;
  }
  an_elem dim = ax >= 0 ? x->dims[ax] : an_unknown();
  if (sp == NULL) {
    len = dim;
    part = an_num(1);
  } else if (sp->rank_known && sp->rank == 0) {
    int64_t k = sp->vals_known && sp->n_vals == 1 && sp->vals[0].known ? sp->vals[0].v : 0;
    if (sp->vals_known && sp->n_vals == 1 && sp->vals[0].known && k < 1) return 1;
    if (k >= 1 && dim.known && dim.v >= 1) {
      len = an_num(dim.v / k + (dim.v % k != 0));
      if (dim.v % k == 0) part = an_num(k);
      if (dim.v < k) part = dim;
    }
  } else if (sp->rank_known && sp->rank == 1) {
    if (sp->dims[0].known && sp->dims[0].v >= 1) len = sp->dims[0];
    if (sp->vals_known && sp->n_vals >= 1) {
      part = sp->vals[0];
      for (size_t i = 0; i < sp->n_vals; i++) {
        if (sp->vals[i].known && sp->vals[i].v < 0) return 1; /* the node fails */
        if (!same_elem(c, part, sp->vals[i])) part = an_unknown();
      }
    }
  }
  slot_info *e = an_alloc(c, 1, sizeof *e);
  if (e == NULL) return 0;
  memset(e, 0, sizeof *e);
  e->type = x->type;
  if (ax >= 0 && rank_sure) {
    if (!an_set_rank(c, e, x->rank - (keep ? 0 : 1))) return 0;
    for (size_t i = 0, j = 0; i < x->rank; i++) {
      if ((int64_t)i == ax && !keep) continue;
      e->dims[j++] = (int64_t)i == ax ? part : x->dims[i];
    }
  }
  set_sequence(an_out(c, n, 0), e->type != 0 || e->rank_known ? e : NULL, len);
  return 1;
}

/* ConcatFromSequence: the elements joined along `axis` (new_axis 1:
 * stacked along a new one); the axis's dim the length (stacked) or the
 * length times the elements' common dim, for a sequence of at least one
 * element. */
static int eval_concat_from_sequence(an_ctx *c, const graph_node *n) {
  const slot_info *s = sequence_in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  int64_t stack = an_attr_int(n, "new_axis", 0);
  if (s == NULL || s->elem == NULL || !an_has_attr(n, "axis") || (stack != 0 && stack != 1)) {
    return 1;
  }
  const slot_info *e = s->elem;
  if (!e->rank_known) {
    out->type = e->type;
    return 1;
  }
  size_t r = e->rank + (size_t)stack;
  int64_t ax = an_norm_axis(an_attr_int(n, "axis", 0), r, 1);
  if (ax < 0) return 1;
  out->type = e->type;
  if (!an_set_rank(c, out, r)) return 0;
  an_elem len = s->seq_len.known && s->seq_len.v >= 1 ? s->seq_len : an_unknown();
  for (size_t i = 0, j = 0; i < r; i++) {
    if ((int64_t)i != ax) {
      out->dims[i] = e->dims[j++];
    } else if (stack) {
      out->dims[i] = len;
    } else {
      an_elem d = e->dims[j++];
      out->dims[i] = len.known && d.known && (d.v == 0 || len.v <= INT64_MAX / d.v)
                         ? an_num(len.v * d.v) : len.known && len.v == 1 ? d : an_unknown();
    }
  }
  return 1;
}

/* A tensor as a type attribute declares it (t: TP_TENSOR), a dim_param
 * the model's symbol of that name; NULL when it declares nothing. *ok 0
 * when out of budget or memory. */
static const slot_info *declared_tensor(an_ctx *c, const attr_type_info *t, int *ok) {
  *ok = 1;
  const value_decl *d = &t->decl;
  if (d->elem_type == 0 && !d->has_shape) return NULL;
  slot_info *e = an_alloc(c, 1, sizeof *e);
  if (e == NULL) return *ok = 0, NULL;
  memset(e, 0, sizeof *e);
  if (!an_from_decl(c, e, d)) return *ok = 0, NULL;
  return e;
}

/* The element an Optional's `type` attribute declares: a tensor or a
 * sequence of tensors (the types Optional takes); NULL for anything else or
 * nothing known. *ok as above. */
static const slot_info *declared_element(an_ctx *c, const attr_type_info *t, int *ok) {
  *ok = 1;
  if (t == NULL) return NULL;
  if (t->kind == TP_TENSOR) return declared_tensor(c, t, ok);
  if (t->kind != TP_SEQUENCE || t->elem == NULL || t->elem->kind != TP_TENSOR) return NULL;
  const slot_info *e = declared_tensor(c, t->elem, ok);
  slot_info *s = *ok ? an_alloc(c, 1, sizeof *s) : NULL;
  if (s == NULL) return *ok = 0, NULL;
  set_sequence(s, e, an_unknown());
  return s;
}

/* Optional: holds its input (a tensor or a sequence), or is empty, of the
 * element its `type` attribute declares. */
static int eval_optional(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  const slot_info *e = NULL;
  if (x != NULL && x->kind == AN_OPTIONAL) return 1;
  if (x != NULL && (x->kind == AN_SEQUENCE || x->type != 0 || x->rank_known)) {
    slot_info *copy = an_alloc(c, 1, sizeof *copy);
    if (copy == NULL || !an_copy(c, copy, x)) return 0;
    e = copy;
  } else if (x == NULL) {
    const node_attr *a = an_attr(n, "type");
    int ok;
    e = declared_element(c, a != NULL ? a->tp : NULL, &ok);
    if (!ok) return 0;
  }
  memset(out, 0, sizeof *out);
  out->kind = AN_OPTIONAL;
  out->elem = e;
  out->opt_has = x != NULL ? AN_OPT_FULL : AN_OPT_EMPTY;
  return 1;
}

/* SequenceMap: sequences of the body's output types (its shapes, computed
 * from the body's declared inputs, may not hold for every element), each
 * as long as the first input. */
static int eval_sequence_map(an_ctx *c, const graph_node *n) {
  const model_graph *body = an_subgraph(n, "body");
  const slot_info *s = in(c, n, 0);
  if (body == NULL || s == NULL || s->kind == AN_OPTIONAL || body->n_inputs != n->n_inputs ||
      body->n_outputs != n->n_outputs) {
    return 1;
  }
  an_elem len = s->kind == AN_SEQUENCE ? s->seq_len : an_unknown();
  for (size_t i = 0; i < n->n_outputs; i++) {
    slot_info *out = an_out(c, n, i);
    const slot_info *r = &c->slots[body->output_slots[i]];
    int ok;
    if (out == NULL) continue;
    const slot_info *e = elem_typed(c, r->kind == 0 ? r->type : 0, &ok);
    if (!ok) return 0;
    set_sequence(out, e, len);
  }
  return 1;
}

/* ---- the handlers (called through the operator registry, registry.c) ---------- */

AN_FIRST_OUTPUT(sequence_empty, eval_sequence_empty(c, n))
AN_FIRST_OUTPUT(sequence_construct, eval_sequence_construct(c, n))
AN_FIRST_OUTPUT(sequence_insert, eval_sequence_insert(c, n))
AN_FIRST_OUTPUT(sequence_erase, eval_sequence_erase(c, n))
AN_FIRST_OUTPUT(sequence_at, eval_sequence_at(c, n))
AN_FIRST_OUTPUT(split_to_sequence, eval_split_to_sequence(c, n))
AN_FIRST_OUTPUT(concat_from_sequence, eval_concat_from_sequence(c, n))
AN_FIRST_OUTPUT(optional, eval_optional(c, n))
AN_HANDLER(sequence_map, eval_sequence_map(c, n))
