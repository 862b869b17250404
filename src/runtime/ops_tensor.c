/* SPDX-License-Identifier: Apache-2.0 */
/* The tensor-shaping operators (docs/analysis.md): Transpose, Expand,
 * Tile, Flatten, Split, Pad, the reductions, ArgMax/ArgMin, Resize and
 * Upsample. Output dims follow each version's specification; where it
 * does not determine them (an axis out of range, a list of the wrong
 * length, a count that does not add up) they are left unknown. The matrix
 * products and Einsum are ops_matmul.c's, the indexing operators
 * ops_index.c's. */
#include <string.h>

#include "../core/le.h"
#include "analysis.h"

/* The longest axes, pads or split list evaluated (a longer one leaves
 * the dims it names unknown). */
#define LIST_CAP 64u

/* ---- Transpose ------------------------------------------------------------- */

/* perm (default: the dims reversed) as a permutation of 0..r-1 in p: 1;
 * 0 when it is not one (an error at run time); -1 when out of budget or
 * memory. */
static int transpose_perm(an_ctx *c, const graph_node *n, size_t r, size_t *p) {
  const node_attr *a = an_attr(n, "perm");
  if (a == NULL) {
    for (size_t i = 0; i < r; i++) p[i] = r - 1 - i;
    return 1;
  }
  if (a->type != ATTR_INTS || a->n_ints != r) return 0;
  unsigned char *seen = an_alloc(c, r, 1);
  if (seen == NULL) return -1;
  memset(seen, 0, r + 1);
  for (size_t i = 0; i < r; i++) {
    int64_t v = a->ints[i];
    if (v < 0 || (uint64_t)v >= r || seen[v]) return 0;
    seen[v] = 1;
    p[i] = (size_t)v;
  }
  return 1;
}

/* Transpose: out[i] = x[perm[i]]; known elements are moved to their
 * places (a tensor of rank <= 1 is left as it is). */
static int eval_transpose(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0), *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known) return 1;
  size_t *p = an_alloc(c, x->rank, sizeof *p);
  if (p == NULL) return 0;
  int valid = transpose_perm(c, n, x->rank, p);
  if (valid <= 0) return valid == 0;
  if (x->rank <= 1) {
    if (!an_copy(c, out, x)) return 0;
    out->value = NULL;
    return 1;
  }
  if (!an_set_rank(c, out, x->rank)) return 0;
  for (size_t i = 0; i < x->rank; i++) out->dims[i] = x->dims[p[i]];
  if (!x->vals_known || x->rank > 64) return 1;
  int64_t zero[64], one[64];
  for (size_t i = 0; i < x->rank; i++) {
    zero[i] = 0;
    one[i] = 1;
  }
  return an_take_strided(c, out, x, x->rank, p, zero, one);
}

/* ---- Expand, Tile --------------------------------------------------------- */

/* The target shape of Expand (input 1) as a value of that rank whose dims
 * are its elements (a negative one, or one not known, unknown): 1 and *s;
 * 0 when even its length is not known; -1 when out of budget or memory. */
static int expand_target(an_ctx *c, const graph_node *n, slot_info *s) {
  const slot_info *shape = in(c, n, 1);
  size_t len;
  memset(s, 0, sizeof *s);
  if (shape == NULL) return 0;
  if (shape->vals_known) {
    if (!an_set_rank(c, s, shape->n_vals)) return -1;
    for (size_t i = 0; i < shape->n_vals; i++) {
      an_elem e = shape->vals[i];
      s->dims[i] = e.known && e.v < 0 ? an_unknown() : e;
    }
    return 1;
  }
  if (!an_list_length(c, n, "shape", 0, 1, &len) || len > MAX_ENUM) return 0;
  return an_set_unknown_dims(c, s, len) ? 1 : -1;
}

/* Expand: the broadcast of the input's dims and the target's. */
static int eval_expand(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0), *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  slot_info target;
  int known = expand_target(c, n, &target);
  if (known <= 0) return known == 0;
  slot_info *both[2] = {x, &target};
  return an_broadcast(c, out, both, 2);
}

/* Tile: each dim times its repeat (a list of the input's rank, from
 * version 6); Tile-1: dim `axis` times `tiles` (two scalars). */
static int eval_tile(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0), *rep = in(c, n, 1), *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || rep == NULL || !rep->vals_known) return 1;
  size_t r = x->rank;
  if (n->version < 6) {
    const slot_info *ax = in(c, n, 2);
    if (ax == NULL || !ax->vals_known || ax->n_vals != 1 || rep->n_vals != 1) return 1;
    an_elem t = rep->vals[0];
    int64_t a = ax->vals[0].known ? an_norm_axis(ax->vals[0].v, r, 0) : -1;
    if (a < 0 || (t.known && t.v < 0)) return 1;
    if (!an_set_dims(c, out, x->dims, r)) return 0;
    out->dims[a] = an_expr_mul(c->x, x->dims[a], t);
    return 1;
  }
  if (rep->n_vals != r) return 1;
  for (size_t i = 0; i < r; i++) {
    if (rep->vals[i].known && rep->vals[i].v < 0) return 1;
  }
  if (!an_set_rank(c, out, r)) return 0;
  for (size_t i = 0; i < r; i++) out->dims[i] = an_expr_mul(c->x, x->dims[i], rep->vals[i]);
  return 1;
}

/* ---- Flatten -------------------------------------------------------------- */

/* The product of dims[from..to) (1 for none). */
static an_elem dims_product(an_ctx *c, const an_elem *dims, size_t from, size_t to) {
  an_elem p = an_num(1);
  for (size_t i = from; i < to; i++) p = an_expr_mul(c->x, p, dims[i]);
  return p;
}

/* Flatten: [d0*...*d(axis-1), d(axis)*...]; axis in [0, r], and from
 * version 11 in [-r, r]. */
static int eval_flatten(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0), *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known) return 1;
  int64_t r = (int64_t)x->rank, axis = an_attr_int(n, "axis", 1);
  if (axis < 0 && n->version >= 11 && axis >= -r) axis += r;
  if (axis < 0 || axis > r) return 1;
  if (!an_set_rank(c, out, 2)) return 0;
  out->dims[0] = dims_product(c, x->dims, 0, (size_t)axis);
  out->dims[1] = dims_product(c, x->dims, (size_t)axis, x->rank);
  return 1;
}

/* ---- Split ---------------------------------------------------------------- */

/* The part lengths of an equal split of d into k parts: Split-18 with
 * num_outputs, ceil(d/k) each and the rest last (the specification's "the
 * last chunk smaller"), valid only when the last is at least 1; before 18,
 * d/k each, valid only when k divides d. onnxruntime computes that ceiling
 * in float, ceil((float)d / k), which differs from the exact one past
 * 2^24 (a review's model: d = 16777227, k = 3 gives 5592410, 5592410,
 * 5592407, not 5592409 three times; docs/divergences.md D14): so only a
 * number d up to 2^24 is evaluated (there the two agree), not a symbol. */
static void split_equal(an_ctx *c, const graph_node *n, an_elem d, size_t k, an_elem *part) {
  an_exprs *x = c->x;
  an_elem chunk, last;
  if (n->version >= 18) {
    chunk = last = an_unknown();
    if (d.known && d.v >= 1 && d.v <= ((int64_t)1 << 24)) {
      chunk = an_expr_ceil_div(x, d, (int64_t)k);
      last = an_expr_sub(x, d, an_expr_mul(x, chunk, an_num((int64_t)k - 1)));
      if (!last.known || last.v < 1) chunk = last = an_unknown();
    }
  } else {
    chunk = last = an_div_valid(c, d, (int64_t)k);
  }
  for (size_t i = 0; i < k; i++) part[i] = i + 1 == k ? last : chunk;
}

/* The length of each of Split's k parts along a dim d: the `split` list
 * (attribute before 13, input from 13) when given, else an equal split
 * (num_outputs from 18). Lengths not determined are unknown. */
static void split_parts(an_ctx *c, const graph_node *n, an_elem d, size_t k, an_elem *part) {
  int64_t v[LIST_CAP];
  size_t len = 0;
  int absent;
  for (size_t i = 0; i < k; i++) part[i] = an_unknown();
  int ok = an_int_list(c, n, "split", 13, 1, v, LIST_CAP, &len, &absent);
  if (ok) {
    int64_t sum = 0;
    for (size_t i = 0; i < len; i++) {
      if (v[i] < 0 || __builtin_add_overflow(sum, v[i], &sum)) return;
    }
    if (len != k || (d.known && sum != d.v)) return;
    for (size_t i = 0; i < k; i++) part[i] = an_num(v[i]);
    return;
  }
  /* Split-1 may give the lengths as input 1 instead. */
  if (!absent || k == 0 || (n->version < 2 && in(c, n, 1) != NULL)) return;
  if (n->version >= 18 && an_attr_int(n, "num_outputs", -1) != (int64_t)k) return;
  split_equal(c, n, d, k, part);
}

/* Split: each output the input with the split axis's dim its part. */
static int eval_split(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0);
  size_t k = n->n_outputs;
  if (x == NULL) return 1;
  for (size_t i = 0; i < k; i++) {
    if (an_out(c, n, i) != NULL) an_out(c, n, i)->type = x->type;
  }
  if (!x->rank_known) return 1;
  int64_t axis = an_norm_axis(an_attr_int(n, "axis", 0), x->rank, n->version >= 11);
  if (axis < 0 || k > LIST_CAP) return 1;
  an_elem part[LIST_CAP];
  if (!an_charge(c, an_mul(k, x->rank))) return 0;
  split_parts(c, n, x->dims[axis], k, part);
  for (size_t i = 0; i < k; i++) {
    slot_info *out = an_out(c, n, i);
    if (out == NULL) continue;
    if (!an_set_dims(c, out, x->dims, x->rank)) return 0;
    out->dims[axis] = part[i];
  }
  return 1;
}

/* ---- Pad ------------------------------------------------------------------ */

/* Pad: each padded dim d + begin + end (pads: attribute `paddings` in
 * version 1, `pads` to 10, input 1 from 11; axes input 3 from 18, else
 * every axis). A dim that would be negative is an error at run time. */
static int eval_pad(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0), *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known) return 1;
  size_t r = x->rank, np = 0, na = 0;
  int64_t pads[2 * LIST_CAP], axes[LIST_CAP];
  int absent, absent_a = 1;
  int ok = an_int_list(c, n, n->version < 2 ? "paddings" : "pads", 11, 1, pads, 2 * LIST_CAP,
                       &np, &absent);
  int ok_a = n->version >= 18 && an_int_list(c, n, "axes", 0, 3, axes, LIST_CAP, &na, &absent_a);
  if (!an_set_unknown_dims(c, out, r)) return 0;
  if (!ok || (!ok_a && !absent_a) || r > LIST_CAP) return 1;
  if (absent_a) {
    for (size_t i = 0; i < r; i++) axes[i] = (int64_t)i;
    na = r;
  }
  unsigned char padded[LIST_CAP] = {0};
  if (np != 2 * na) return 1;
  for (size_t i = 0; i < na; i++) {
    int64_t a = an_norm_axis(axes[i], r, 1);
    if (a < 0 || padded[a]) return 1;
    padded[a] = 1;
    axes[i] = a;
  }
  for (size_t i = 0; i < r; i++) out->dims[i] = padded[i] ? an_unknown() : x->dims[i];
  for (size_t i = 0; i < na; i++) {
    int64_t add;
    if (__builtin_add_overflow(pads[i], pads[i + na], &add)) continue;
    an_elem d = an_expr_add(c->x, x->dims[axes[i]], an_num(add));
    out->dims[axes[i]] = d.known && d.v < 0 ? an_unknown() : d;
  }
  return 1;
}

/* ---- reductions, ArgMax, ArgMin ------------------------------------------- */

/* Marks in `mark` (r entries) the axes a reduction of x removes: the list
 * (attribute before `since`, input 1 from it; every axis when absent or,
 * from `since`, empty, unless noop_with_empty_axes), negatives counting
 * from the end. *noop: the node is the identity. 1; 0 when the axes are not
 * known; -1 when they are not valid (an error at run time). */
static int reduce_axes(an_ctx *c, const graph_node *n, int since, size_t r, unsigned char *mark,
                       int *noop) {
  int64_t axes[LIST_CAP];
  size_t na = 0;
  int absent;
  int ok = an_int_list(c, n, "axes", since, 1, axes, LIST_CAP, &na, &absent);
  *noop = 0;
  if (!ok && !absent) return 0;
  if (absent || na == 0) {
    *noop = n->version >= since && an_attr_int(n, "noop_with_empty_axes", 0) != 0;
    memset(mark, !*noop, r);
    return 1;
  }
  memset(mark, 0, r);
  for (size_t i = 0; i < na; i++) {
    /* negative axes count from the end in every version: from 11 the
     * specification says so; before, it is silent, and onnx's inference
     * and onnxruntime count them so (divergences.md D13) */
    int64_t a = an_norm_axis(axes[i], r, 1);
    if (a < 0 || mark[a]) return -1;
    mark[a] = 1;
  }
  return 1;
}

int an_reduce_dims(an_ctx *c, const graph_node *n, int since, slot_info *out, const slot_info *x,
                   int *all) {
  int noop;
  *all = 0;
  out->type = x->type;
  if (!x->rank_known || x->rank > LIST_CAP) {
    /* The identity leaves even a rank not known as it is. */
    int64_t axes[1];
    size_t na;
    int absent;
    if (n->version >= since && an_attr_int(n, "noop_with_empty_axes", 0) != 0 &&
        (!an_int_list(c, n, "axes", since, 1, axes, 1, &na, &absent) ? absent : na == 0)) {
      return an_copy(c, out, x);
    }
    return 1;
  }
  unsigned char mark[LIST_CAP];
  int keep = an_attr_int(n, "keepdims", 1) != 0;
  int axes_known = reduce_axes(c, n, since, x->rank, mark, &noop);
  if (axes_known < 0) return 1;
  if (axes_known == 0) {
    /* Axes not known: with keepdims the rank stays, and so does a dim of 1. */
    if (!keep) return 1;
    if (!an_set_unknown_dims(c, out, x->rank)) return 0;
    for (size_t i = 0; i < x->rank; i++) {
      if (x->dims[i].known && x->dims[i].v == 1) out->dims[i] = x->dims[i];
    }
    return 1;
  }
  if (noop) return an_copy(c, out, x);
  size_t rank = 0;
  *all = 1;
  for (size_t i = 0; i < x->rank; i++) {
    rank += keep || !mark[i];
    *all &= mark[i];
  }
  if (!an_set_rank(c, out, rank)) return 0;
  for (size_t i = 0, k = 0; i < x->rank; i++) {
    if (keep || !mark[i]) out->dims[k++] = mark[i] ? an_num(1) : x->dims[i];
  }
  return 1;
}

/* The reductions other than ReduceProd (analysis.c, which also computes
 * its value): dims only, and the input's values where noop_with_empty_axes
 * leaves it as it is and the reduction of one element is that element
 * (Sum, Max, Min, Mean). ReduceSumSquare, L1, L2, LogSum and LogSumExp
 * still apply their element function there in onnxruntime (a review's
 * model: ReduceSumSquare of {2,-3,4} with no axes gives {4,9,16}), which
 * the specification's "equivalent to input tensor" does not say: their
 * values are not claimed. */
static int eval_reduce(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  int all;
  if (x == NULL) return 1;
  int since = n->op == OP_REDUCE_SUM ? 13 : 18;
  slot_info *out = an_out(c, n, 0);
  if (!an_reduce_dims(c, n, since, out, x, &all)) return 0;
  if (n->op != OP_REDUCE_SUM && n->op != OP_REDUCE_MAX && n->op != OP_REDUCE_MIN &&
      n->op != OP_REDUCE_MEAN) {
    out->vals_known = 0;
    out->n_vals = 0;
    out->value = NULL;
  }
  return 1;
}

/* ArgMax, ArgMin: int64 indices, the axis (negatives from version 11)
 * kept as 1 or removed. */
static int eval_arg(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  out->type = ONNXSHAPE_TYPE_INT64;
  if (x == NULL || !x->rank_known) return 1;
  int64_t a = an_norm_axis(an_attr_int(n, "axis", 0), x->rank, n->version >= 11);
  if (a < 0) return 1;
  int keep = an_attr_int(n, "keepdims", 1) != 0;
  if (!an_set_rank(c, out, keep ? x->rank : x->rank - 1)) return 0;
  for (size_t i = 0, k = 0; i < x->rank; i++) {
    if (keep || i != (size_t)a) out->dims[k++] = i == (size_t)a ? an_num(1) : x->dims[i];
  }
  return 1;
}

/* ---- Resize, Upsample ------------------------------------------------------ */

/* Element i of a float constant: 1 and *f, or 0. */
static int read_float(const slot_info *s, size_t i, float *f) {
  const onnxshape_tensor *t = s != NULL ? s->value : NULL;
  if (t == NULL || t->type != ONNXSHAPE_TYPE_FLOAT || t->data == NULL || i >= t->data_bytes / 4) {
    return 0;
  }
  uint32_t u = (uint32_t)onnxshape__load_le((const unsigned char *)t->data + 4 * i, 4);
  memcpy(f, &u, sizeof *f);
  return 1;
}

/* A dim d scaled by s: the specification's floor(d * s), which
 * onnxruntime computes as the float product truncated; known when the
 * two agree (a number d, s > 0 and finite). */
static an_elem scaled_dim(an_elem d, float s) {
  if (!d.known || d.v > ((int64_t)1 << 24) || !(s > 0.0f) || !(s < 1e9f)) return an_unknown();
  volatile float product = (float)d.v * s; /* rounded to float, as onnxruntime's */
  /* Exact (24 by 24 bits), and > 0: truncation is floor. */
  int64_t exact = (int64_t)((double)d.v * (double)s);
  return (int64_t)product == exact ? an_num(exact) : an_unknown();
}

/* Resize (scales at input 1 in version 10, sizes at 3 and scales at 2
 * after; sizes win) and Upsample (scales an attribute in version 7, input
 * 1 from 9): the sizes, or each dim scaled. Resize-18's axes and
 * keep_aspect_ratio_policy other than stretch are not evaluated. */
static int eval_resize(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || an_has_attr(n, "axes") ||
      (an_has_attr(n, "keep_aspect_ratio_policy") && !an_attr_is(n, "keep_aspect_ratio_policy", "stretch"))) {
    return 1;
  }
  size_t r = x->rank;
  int resize = n->op == OP_RESIZE;
  const slot_info *sizes = resize && n->version >= 11 ? in(c, n, 3) : NULL;
  const slot_info *scales = resize ? in(c, n, n->version >= 11 ? 2 : 1) : in(c, n, 1);
  const node_attr *attr = !resize && n->version < 9 ? an_attr(n, "scales") : NULL;
  if (sizes != NULL && !(sizes->rank_known && sizes->rank == 1 && sizes->dims[0].known &&
                         sizes->dims[0].v == 0)) {
    if (!sizes->vals_known || sizes->n_vals != r) return 1;
    if (!an_set_dims(c, out, sizes->vals, r)) return 0;
    for (size_t i = 0; i < r; i++) {
      if (out->dims[i].known && out->dims[i].v < 0) out->dims[i] = an_unknown();
    }
    return 1;
  }
  if (!an_set_unknown_dims(c, out, r)) return 0;
  for (size_t i = 0; i < r; i++) {
    float f;
    if (attr != NULL ? attr->type == ATTR_FLOATS && attr->n_floats == r && (f = attr->floats[i], 1)
                     : read_float(scales, i, &f) && scales->value->rank == 1 &&
                           scales->value->dims[0] == (int64_t)r) {
      out->dims[i] = scaled_dim(x->dims[i], f);
    }
  }
  return 1;
}

/* ---- the handlers ---------------------------------------------------------- */

AN_FIRST_OUTPUT(transpose, eval_transpose(c, n))
AN_FIRST_OUTPUT(expand, eval_expand(c, n))
AN_FIRST_OUTPUT(tile, eval_tile(c, n))
AN_FIRST_OUTPUT(flatten, eval_flatten(c, n))
AN_FIRST_OUTPUT(pad, eval_pad(c, n))
AN_FIRST_OUTPUT(reduce, eval_reduce(c, n))
AN_FIRST_OUTPUT(arg_reduce, eval_arg(c, n))
AN_FIRST_OUTPUT(resize, eval_resize(c, n))

AN_HANDLER(split, eval_split(c, n))
