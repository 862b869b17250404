/* SPDX-License-Identifier: Apache-2.0 */
/* What every analysis handler uses (analysis.h, "Handler toolkit"): a
 * node's attributes, lists given as an attribute or an input, axes,
 * output slots, multidirectional broadcasting. */
#include <string.h>

#include "analysis.h"

const node_attr *an_attr(const graph_node *n, const char *name) {
  for (size_t i = 0; i < n->n_attrs; i++) {
    if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
  }
  return NULL;
}

const model_graph *an_subgraph(const graph_node *n, const char *name) {
  for (size_t k = 0; k < n->n_subgraphs; k++) {
    if (strcmp(n->subgraphs[k].attr, name) == 0) return n->subgraphs[k].graph;
  }
  return NULL;
}

/* An INT attribute, or def when absent. */
int64_t an_attr_int(const graph_node *n, const char *name, int64_t def) {
  const node_attr *a = an_attr(n, name);
  return a != NULL && a->type == ATTR_INT ? a->i : def;
}

/* A list of numbers from an INTS attribute (version < since) or from input
 * k: 1 with *v and *len when every number is known, 0 otherwise; *absent
 * says it is not given at all. */
int an_int_list(an_ctx *c, const graph_node *n, const char *name, int since, size_t k,
                int64_t *v, size_t cap, size_t *len, int *absent) {
  *absent = 0;
  if (n->version < since) {
    const node_attr *a = an_attr(n, name);
    if (a == NULL) {
      *absent = 1;
      return 0;
    }
    if (a->type != ATTR_INTS || a->n_ints > cap) return 0;
    for (size_t i = 0; i < a->n_ints; i++) v[i] = a->ints[i];
    *len = a->n_ints;
    return 1;
  }
  const slot_info *s = in(c, n, k);
  if (s == NULL) {
    *absent = 1;
    return 0;
  }
  if (!s->vals_known || s->n_vals > cap || !an_all_known(s->vals, s->n_vals)) return 0;
  for (size_t i = 0; i < s->n_vals; i++) v[i] = s->vals[i].v;
  *len = s->n_vals;
  return 1;
}

/* The number of elements of a list given as attribute `name` (version <
 * since) or input k, when known (its values need not be): 1 and *len. */
int an_list_length(an_ctx *c, const graph_node *n, const char *name, int since, size_t k,
                   size_t *len) {
  if (n->version < since) {
    const node_attr *a = an_attr(n, name);
    if (a == NULL || a->type != ATTR_INTS) return 0;
    *len = a->n_ints;
    return 1;
  }
  const slot_info *s = in(c, n, k);
  if (s == NULL || !s->rank_known || s->rank != 1 || !s->dims[0].known) return 0;
  *len = (size_t)s->dims[0].v;
  return 1;
}

/* An axis in [-r, r-1] (or [0, r-1] when negatives are not allowed) as
 * 0..r-1, or -1. */
int64_t an_norm_axis(int64_t axis, size_t r, int negative_ok) {
  int64_t rank = (int64_t)r;
  if (axis < 0 && negative_ok && axis >= -rank) return axis + rank;
  return axis >= 0 && axis < rank ? axis : -1;
}

an_elem an_in_range(an_elem e, int32_t type) {
  int64_t lo, hi;
  if (!e.known) return e;
  if (!int_range(type, &lo, &hi) || e.v < lo || e.v > hi) return an_unknown();
  return e;
}
/* out's dims: the multidirectional broadcast of the k inputs' dims
 * (BROADCAST), or unknown rank when a rank is unknown. Returns 0 when out
 * of memory. */
int an_broadcast(an_ctx *c, slot_info *out, slot_info *const *ins, size_t k) {
  size_t rank = 0;
  for (size_t i = 0; i < k; i++) {
    if (ins[i] == NULL || !ins[i]->rank_known) return 1;
    if (ins[i]->rank > rank) rank = ins[i]->rank;
  }
  if (!an_charge(c, an_mul(2 * (uint64_t)rank, k))) return 0; /* two passes over k dims */
  if (!an_set_rank(c, out, rank)) return 0;
  for (size_t d = 0; d < rank; d++) {
    /* A valid model has, at each position, dims that are 1 or one and the
     * same n: a number other than 1 is n (a dim not known, or an
     * expression, is then 1 or n); without one, n is the dims' common
     * expression when they have one. */
    an_elem num = an_unknown(), expr = an_unknown();
    int nums_agree = 1, exprs_agree = 1, any_unknown = 0;
    for (size_t i = 0; i < k; i++) {
      const slot_info *s = ins[i];
      if (d + s->rank < rank) continue; /* a missing leading dim is 1 */
      an_elem e = s->dims[d + s->rank - rank];
      if (e.known) {
        if (e.v == 1) continue;
        if (num.known && num.v != e.v) nums_agree = 0; /* an error at run time */
        num = e;
      } else if (!an_is_set(e)) {
        any_unknown = 1;
      } else if (!an_is_set(expr)) {
        expr = e;
      } else if (!same_elem(c, expr, e)) {
        exprs_agree = 0;
      }
    }
    if (num.known) {
      out->dims[d] = nums_agree ? num : an_unknown();
    } else if (any_unknown || !exprs_agree) {
      out->dims[d] = an_unknown();
    } else {
      out->dims[d] = an_is_set(expr) ? expr : an_num(1);
    }
  }
  return 1;
}


double an_attr_float(const graph_node *n, const char *name, double def) {
  const node_attr *a = an_attr(n, name);
  return a != NULL && a->type == ATTR_FLOAT ? (double)a->f : def;
}

const int64_t *an_attr_ints(const graph_node *n, const char *name, size_t *len) {
  const node_attr *a = an_attr(n, name);
  if (a == NULL || a->type != ATTR_INTS) return NULL;
  *len = a->n_ints;
  return a->ints;
}

int an_attr_is(const graph_node *n, const char *name, const char *value) {
  const node_attr *a = an_attr(n, name);
  size_t len = strlen(value);
  return a != NULL && a->type == ATTR_STRING && a->s.length == len &&
         (len == 0 || memcmp(a->s.data, value, len) == 0);
}

int an_has_attr(const graph_node *n, const char *name) { return an_attr(n, name) != NULL; }

slot_info *an_out(an_ctx *c, const graph_node *n, size_t k) {
  return k < n->n_outputs && n->outputs[k] != NO_SLOT ? &c->slots[n->outputs[k]] : NULL;
}

int an_set_dims(an_ctx *c, slot_info *out, const an_elem *dims, size_t rank) {
  if (!an_set_rank(c, out, rank)) return 0;
  if (rank > 0) memcpy(out->dims, dims, rank * sizeof *dims);
  return 1;
}

int an_set_unknown_dims(an_ctx *c, slot_info *out, size_t rank) {
  if (!an_set_rank(c, out, rank)) return 0;
  for (size_t i = 0; i < rank; i++) out->dims[i] = an_unknown();
  return 1;
}

int an_like(an_ctx *c, const graph_node *n, size_t k, const slot_info *x, int32_t type) {
  slot_info *out = an_out(c, n, k);
  if (out == NULL) return 1;
  out->type = type;
  return x == NULL || !x->rank_known || an_set_dims(c, out, x->dims, x->rank);
}
