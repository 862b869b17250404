/* SPDX-License-Identifier: Apache-2.0 */
/* The value lattice of static analysis (analysis.h): what is known of a
 * value (element type, dims, elements, each a number, a symbol or
 * unknown), made, copied and joined within the analysis's work and memory
 * budget (LIMIT-ANALYSIS-WORK), and the integer types whose elements are
 * tracked. */
#include <string.h>

#include "../core/le.h"
#include "analysis.h"

/* Node n could not afford its work: counted once. */
void count_stopped(an_ctx *c, const graph_node *n) {
  c->out_of_work = 0;
  if (c->last_stopped != n) c->nodes_out_of_work++;
  c->last_stopped = n;
}

/* For a part of node n's result that can be left unknown (element values
 * beside dims): 1 when `units` are spent, else 0 with the node counted as
 * left incomplete by the budget. */
int an_afford(an_ctx *c, const graph_node *n, uint64_t units) {
  if (an_charge(c, units)) return 1;
  count_stopped(c, n);
  return 0;
}

/* n items of `size` (filled by the caller: n units of work), or NULL when
 * memory or the work budget ran out. */
void *an_alloc(an_ctx *c, size_t n, size_t size) {
  if (!an_charge(c, (uint64_t)n + 1)) return NULL;
  /* Past the evaluation's share of the memory limit: as past the work
   * budget (the node's outputs unknown); only the machine's memory running
   * out is an error. */
  if (size != 0 && n > SIZE_MAX / 2 / size) {
    c->out_of_work = 1;
    return NULL;
  }
  size_t bytes = (n + 1) * size;
  if (c->arena->taken > c->memory_soft || bytes > c->memory_soft - c->arena->taken) {
    if ((size_t)(c->arena->end - c->arena->cur) < bytes) { /* would take a new block */
      c->out_of_work = 1;
      return NULL;
    }
  }
  void *p = onnxshape__arena_alloc(c->arena, bytes);
  if (p == NULL && !c->arena->out_of_memory) c->out_of_work = 1;
  return p;
}

int an_set_rank(an_ctx *c, slot_info *s, size_t rank) {
  s->rank_known = 1;
  s->rank = rank;
  s->dims = an_alloc(c, rank, sizeof(an_elem));
  return s->dims != NULL;
}

int an_set_vals(an_ctx *c, slot_info *s, size_t n) {
  s->vals = an_alloc(c, n, sizeof(an_elem));
  if (s->vals == NULL) return 0;
  for (size_t i = 0; i < n; i++) s->vals[i] = an_unknown();
  s->vals_known = 1;
  s->n_vals = n;
  return 1;
}

int an_all_known(const an_elem *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!x[i].known) return 0;
  }
  return 1;
}

int an_all_unknown(const an_elem *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (an_is_set(x[i])) return 0;
  }
  return 1;
}

int an_expr_charge(void *ctx, uint64_t units) {
  an_ctx *c = ctx;
  if (!an_charge(c, units)) return 0;
  /* Expressions take memory as they are made: past the evaluation's share
   * of it, as past the work budget. */
  if (c->arena->taken > c->memory_soft) {
    c->out_of_work = 1;
    return 0;
  }
  return 1;
}

void an_equate(an_ctx *c, an_elem a, an_elem b) {
  if (c->certain && an_is_set(a) && an_is_set(b)) (void)an_expr_equate(c->x, a, b);
}

an_elem an_sym(an_ctx *c, const char *name) {
  return an_expr_resolve(c->x, an_expr_symbol_held(c->x, name));
}

an_elem an_decl_dim(an_ctx *c, const decl_dim *d) {
  return d->value >= 0 ? an_num(d->value) : d->param != NULL ? an_sym(c, d->param) : an_unknown();
}

int an_from_decl(an_ctx *c, slot_info *s, const value_decl *d) {
  if (d->has_type && s->type == 0) s->type = d->elem_type; /* a computed type stays */
  if (!d->has_shape) return 1;
  if (!an_set_rank(c, s, d->rank)) return 0;
  for (size_t i = 0; i < d->rank; i++) s->dims[i] = an_decl_dim(c, &d->dims[i]);
  return !c->out_of_work;
}

/* The integer (and bool) types whose elements are tracked: their storage
 * and their range (uint64 values past INT64_MAX are not tracked). The one
 * table of them: reading an element and checking a result both use it. */

static const int_type int_types[] = {
    {ONNXSHAPE_TYPE_BOOL, 1, 0, 0, 1},
    {ONNXSHAPE_TYPE_UINT8, 1, 0, 0, UINT8_MAX},
    {ONNXSHAPE_TYPE_INT8, 1, 1, INT8_MIN, INT8_MAX},
    {ONNXSHAPE_TYPE_UINT16, 2, 0, 0, UINT16_MAX},
    {ONNXSHAPE_TYPE_INT16, 2, 1, INT16_MIN, INT16_MAX},
    {ONNXSHAPE_TYPE_INT32, 4, 1, INT32_MIN, INT32_MAX},
    {ONNXSHAPE_TYPE_UINT32, 4, 0, 0, UINT32_MAX},
    {ONNXSHAPE_TYPE_INT64, 8, 1, INT64_MIN, INT64_MAX},
    {ONNXSHAPE_TYPE_UINT64, 8, 0, 0, INT64_MAX},
};

/* Type t's row, or NULL when its elements are not tracked. */
const int_type *int_type_of(int32_t t) {
  for (size_t i = 0; i < sizeof int_types / sizeof int_types[0]; i++) {
    if (int_types[i].type == t) return &int_types[i];
  }
  return NULL;
}

int int_range(int32_t t, int64_t *lo, int64_t *hi) {
  const int_type *it = int_type_of(t);
  if (it == NULL) return 0;
  *lo = it->lo;
  *hi = it->hi;
  return 1;
}

int is_int_type(int32_t t) { return int_type_of(t) != NULL; }

/* Element i of an integer or bool tensor (little-endian storage). */
int read_elem(const onnxshape_tensor *t, size_t i, int64_t *v) {
  const int_type *it = int_type_of(t->type);
  if (it == NULL) return 0;
  unsigned bytes = it->bytes;
  if (t->data == NULL || i >= t->data_bytes / bytes) return 0;
  uint64_t u = onnxshape__load_le((const unsigned char *)t->data + i * bytes, bytes);
  if (t->type == ONNXSHAPE_TYPE_BOOL) u = u != 0;
  if (it->sign && bytes < 8 && (u >> (8 * bytes - 1)) != 0) u |= ~(uint64_t)0 << (8 * bytes);
  if (!it->sign && u > (uint64_t)INT64_MAX) return 0;
  *v = (int64_t)u; /* two's complement: the value itself for signed types */
  return 1;
}

/* The element count of s when its dims are all numbers and it is at most
 * MAX_ENUM; else 0 and *n untouched. */
int small_count(const slot_info *s, size_t *n) {
  if (!s->rank_known || !an_all_known(s->dims, s->rank)) return 0;
  uint64_t k = 1;
  for (size_t i = 0; i < s->rank; i++) {
    if (s->dims[i].v == 0) {
      *n = 0;
      return 1;
    }
  }
  for (size_t i = 0; i < s->rank; i++) {
    if ((uint64_t)s->dims[i].v > MAX_ENUM) return 0;
    k *= (uint64_t)s->dims[i].v;
    if (k > MAX_ENUM) return 0;
  }
  *n = (size_t)k;
  return 1;
}

int an_from_tensor(an_ctx *c, slot_info *s, const onnxshape_tensor *t, int value_known) {
  s->type = t->type;
  if (!an_set_rank(c, s, t->rank)) return 0;
  for (size_t i = 0; i < t->rank; i++) s->dims[i] = an_num(t->dims[i]);
  if (!value_known) return 1;
  s->value = t;
  size_t n;
  if (!is_int_type(t->type) || !small_count(s, &n)) return 1;
  if (!an_set_vals(c, s, n)) return 0;
  for (size_t i = 0; i < n; i++) {
    int64_t v;
    if (read_elem(t, i, &v)) s->vals[i] = an_num(v);
  }
  return 1;
}

int an_take_strided(an_ctx *c, slot_info *out, const slot_info *x, size_t r, const size_t *ax,
                    const int64_t *first, const int64_t *step) {
  if (!x->vals_known || !x->rank_known || x->rank != r || !out->rank_known || out->rank != r ||
      r > 64) {
    return 1;
  }
  size_t n = 1, stride[64], k[64];
  for (size_t i = 0; i < r; i++) {
    if (!out->dims[i].known || !x->dims[i].known) return 1;
    n *= (size_t)out->dims[i].v; /* at most x's element count, itself at most MAX_ENUM */
    if (n > x->n_vals) return 1;
    k[i] = 0;
  }
  size_t s = 1;
  for (size_t i = r; i-- > 0;) {
    stride[i] = s;
    s *= (size_t)x->dims[i].v;
  }
  if (s != x->n_vals) return 1;
  if (!an_charge(c, an_mul(n, r))) return 0;
  an_elem *vals = an_alloc(c, n, sizeof *vals);
  if (vals == NULL) return 0;
  for (size_t o = 0; o < n; o++) {
    size_t at = 0;
    for (size_t i = 0; i < r; i++) {
      /* first + k * step lies in [0, dim) for a valid range: computed in
       * uint64 so that a range the caller got wrong cannot overflow, then
       * checked. */
      uint64_t pos = (uint64_t)first[i] + (uint64_t)k[i] * (uint64_t)step[i];
      if (pos >= (uint64_t)x->dims[ax[i]].v) return 1;
      at += (size_t)pos * stride[ax[i]];
    }
    vals[o] = x->vals[at];
    for (size_t i = r; i-- > 0;) { /* the next coordinates, the last dim fastest */
      if (++k[i] < (size_t)out->dims[i].v) break;
      k[i] = 0;
    }
  }
  out->vals = vals;
  out->n_vals = n;
  out->vals_known = 1;
  return 1;
}

int an_copy(an_ctx *c, slot_info *out, const slot_info *in) {
  *out = *in;
  if (in->rank_known) {
    if (!an_set_rank(c, out, in->rank)) return 0;
    memcpy(out->dims, in->dims, in->rank * sizeof(an_elem));
  }
  if (in->vals_known) {
    if (!an_set_vals(c, out, in->n_vals)) return 0;
    memcpy(out->vals, in->vals, in->n_vals * sizeof(an_elem));
  }
  return 1;
}

int same_elem(an_ctx *c, an_elem a, an_elem b) { return an_expr_same(c->x, a, b); }

/* What two sequences' (or optionals') elements a and b have in common:
 * NULL when nothing is (or a or b is NULL), else a new slot (*ok 0 when
 * out of budget or memory). */
static const slot_info *join_elem(an_ctx *c, const slot_info *a, const slot_info *b, int *ok) {
  if (a == NULL || b == NULL) return NULL;
  slot_info *e = an_alloc(c, 1, sizeof *e);
  *ok = e != NULL && an_join(c, e, a, b);
  return *ok ? e : NULL;
}

int an_join(an_ctx *c, slot_info *out, const slot_info *a, const slot_info *b) {
  memset(out, 0, sizeof *out);
  if (a->kind != 0 || b->kind != 0) {
    /* A sequence or an optional: only with another of its kind. */
    if (a->kind != b->kind) return 1;
    int ok = 1;
    out->kind = a->kind;
    out->elem = join_elem(c, a->elem, b->elem, &ok);
    out->seq_len = same_elem(c, a->seq_len, b->seq_len) ? a->seq_len : an_unknown();
    out->opt_has = a->opt_has == b->opt_has ? a->opt_has : 0;
    return ok;
  }
  out->type = a->type == b->type ? a->type : 0;
  if (!a->rank_known || !b->rank_known || a->rank != b->rank) return 1;
  if (!an_set_rank(c, out, a->rank)) return 0;
  for (size_t i = 0; i < a->rank; i++) {
    out->dims[i] = same_elem(c, a->dims[i], b->dims[i]) ? a->dims[i] : an_unknown();
  }
  if (a->vals_known && b->vals_known && a->n_vals == b->n_vals && out->type != 0 &&
      an_all_known(out->dims, out->rank)) {
    if (!an_set_vals(c, out, a->n_vals)) return 0;
    for (size_t i = 0; i < a->n_vals; i++) {
      out->vals[i] = same_elem(c, a->vals[i], b->vals[i]) ? a->vals[i] : an_unknown();
    }
  }
  return 1;
}

/* 1 for a number, an expression in canonical form, or unknown. */
static int elem_sound(an_elem e) {
  return e.e == NULL || (!e.known && an_expr_canonical(e.e));
}

int an_slot_sound(const slot_info *s) {
  if (s->kind != 0) {
    /* A sequence or an optional: nothing a tensor has; a length >= 0. */
    if (s->type != 0 || s->rank_known || s->vals_known || s->value != NULL) return 0;
    if (!elem_sound(s->seq_len) || (s->seq_len.known && s->seq_len.v < 0)) return 0;
    return s->elem == NULL || an_slot_sound(s->elem);
  }
  if (s->elem != NULL || an_is_set(s->seq_len) || s->opt_has != 0) return 0;
  if (s->rank_known && s->rank > 0 && s->dims == NULL) return 0;
  uint64_t count = 1; /* the known dims' product, saturated past MAX_ENUM */
  int counted = s->rank_known;
  for (size_t i = 0; s->rank_known && i < s->rank; i++) {
    an_elem d = s->dims[i];
    if (!elem_sound(d) || (d.known && d.v < 0)) return 0;
    if (!d.known) {
      counted = 0;
    } else if (count != 0) {
      count = (uint64_t)d.v > MAX_ENUM || count * (uint64_t)d.v > MAX_ENUM
                  ? MAX_ENUM + 1u : count * (uint64_t)d.v;
    }
  }
  if (!s->vals_known) return 1;
  if (s->n_vals > MAX_ENUM || (s->n_vals > 0 && s->vals == NULL)) return 0;
  if (counted && count != s->n_vals) return 0;
  for (size_t i = 0; i < s->n_vals; i++) {
    if (!elem_sound(s->vals[i])) return 0;
  }
  return 1;
}
