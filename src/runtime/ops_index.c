/* SPDX-License-Identifier: Apache-2.0 */
/* The indexing operators (docs/analysis.md): GatherElements, GatherND,
 * the scatters, OneHot, TopK, DepthToSpace and SpaceToDepth, and those
 * whose output dims depend on the data (Compress, NonZero, Unique, TopK
 * with a k not known): there the dim is a fresh symbol named after the
 * node (one per node: every output of a Unique shares its count), or its
 * number when the data is known. */
#include <string.h>

#include "analysis.h"

/* d / k where a valid model has k dividing d (a number that does not
 * divide is an error at run time: unknown): exact on numbers; an
 * expression's floor(d / k) is then d / k. */
an_elem an_div_valid(an_ctx *c, an_elem d, int64_t k) {
  if (k <= 0) return an_unknown();
  if (d.known) return d.v % k == 0 ? an_num(d.v / k) : an_unknown();
  an_elem q = an_expr_div_exact(c->x, d, an_num(k));
  return an_is_set(q) ? q : an_expr_floor_div(c->x, d, k);
}

/* The fresh symbol of node n's data-dependent dim. */
static an_elem fresh_dim(an_ctx *c, const graph_node *n) { return an_expr_fresh(c->x, n->label); }

/* ---- gathers and scatters ------------------------------------------------- */

/* GatherElements: the dims of the indices (of the data's rank). */
static int eval_gather_elements(an_ctx *c, const graph_node *n) {
  const slot_info *data = in(c, n, 0), *idx = in(c, n, 1);
  slot_info *out = an_out(c, n, 0);
  if (data == NULL) return 1;
  out->type = data->type;
  if (idx == NULL || !idx->rank_known || (data->rank_known && data->rank != idx->rank)) return 1;
  return an_set_dims(c, out, idx->dims, idx->rank);
}

/* GatherND: indices[:-1] + data[batch_dims + m:], m the indices' last dim
 * (1 <= m <= r - batch_dims; batch_dims from version 12). */
static int eval_gather_nd(an_ctx *c, const graph_node *n) {
  const slot_info *data = in(c, n, 0), *idx = in(c, n, 1);
  slot_info *out = an_out(c, n, 0);
  if (data == NULL) return 1;
  out->type = data->type;
  if (idx == NULL || !data->rank_known || !idx->rank_known || idx->rank == 0) return 1;
  int64_t b = n->version >= 12 ? an_attr_int(n, "batch_dims", 0) : 0;
  an_elem m = idx->dims[idx->rank - 1];
  int64_t r = (int64_t)data->rank, q = (int64_t)idx->rank;
  if (b < 0 || b >= q || b > r || !m.known || m.v < 1 || m.v > r - b) return 1;
  size_t from = (size_t)(b + m.v), k = idx->rank - 1;
  if (!an_set_rank(c, out, k + data->rank - from)) return 0;
  memcpy(out->dims, idx->dims, k * sizeof *idx->dims);
  for (size_t i = from; i < data->rank; i++) out->dims[k++] = data->dims[i];
  return 1;
}

/* Scatter, ScatterElements, ScatterND: the data's type and dims. */
static int eval_scatter(an_ctx *c, const graph_node *n) {
  const slot_info *data = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  if (data == NULL) return 1;
  out->type = data->type;
  return !data->rank_known || an_set_dims(c, out, data->dims, data->rank);
}

/* ---- OneHot, TopK --------------------------------------------------------- */

/* OneHot: the indices' dims with depth inserted at axis (in [-r-1, r]);
 * the type of `values`. A depth not a positive integer is not evaluated. */
static int eval_one_hot(an_ctx *c, const graph_node *n) {
  const slot_info *idx = in(c, n, 0), *depth = in(c, n, 1), *values = in(c, n, 2);
  slot_info *out = an_out(c, n, 0);
  if (values != NULL) out->type = values->type;
  if (idx == NULL || !idx->rank_known) return 1;
  int64_t axis = an_norm_axis(an_attr_int(n, "axis", -1), idx->rank + 1, 1);
  if (axis < 0) return 1;
  an_elem d = an_unknown();
  if (depth != NULL && depth->vals_known && depth->n_vals == 1) {
    an_elem v = depth->vals[0];
    if ((v.known && v.v > 0) || (!v.known && an_expr_nonneg(c->x, v))) d = v;
  }
  if (!an_set_rank(c, out, idx->rank + 1)) return 0;
  for (size_t i = 0, k = 0; i <= idx->rank; i++) {
    out->dims[i] = i == (size_t)axis ? d : idx->dims[k++];
  }
  return 1;
}

/* TopK: values (the input's type) and int64 indices, the input's dims
 * with k at axis (k: attribute in version 1, a one-element input after);
 * a k past the dim is an error at run time; a k not known, a fresh
 * symbol. */
static int eval_top_k(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *outs[2] = {an_out(c, n, 0), an_out(c, n, 1)};
  if (x == NULL) return 1;
  if (outs[0] != NULL) outs[0]->type = x->type;
  if (outs[1] != NULL) outs[1]->type = ONNXSHAPE_TYPE_INT64;
  if (!x->rank_known) return 1;
  int64_t axis = an_norm_axis(an_attr_int(n, "axis", -1), x->rank, 1);
  if (axis < 0) return 1;
  an_elem k = an_unknown(), d = x->dims[axis];
  if (n->version < 10) {
    k = an_has_attr(n, "k") ? an_num(an_attr_int(n, "k", -1)) : an_unknown();
  } else if (in(c, n, 1) != NULL && in(c, n, 1)->vals_known && in(c, n, 1)->n_vals == 1) {
    k = in(c, n, 1)->vals[0];
  }
  if (k.known && (k.v < 0 || (d.known && k.v > d.v))) return 1;
  if (!an_is_set(k)) k = fresh_dim(c, n);
  for (size_t i = 0; i < 2; i++) {
    if (outs[i] == NULL) continue;
    if (!an_set_dims(c, outs[i], x->dims, x->rank)) return 0;
    outs[i]->dims[axis] = k;
  }
  return 1;
}

/* ---- DepthToSpace, SpaceToDepth ------------------------------------------- */

/* [N, C, H, W] to [N, C/(b*b), H*b, W*b] (DepthToSpace) or [N, C*b*b,
 * H/b, W/b] (SpaceToDepth), where b divides what it divides. */
static int eval_depth_space(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || x->rank != 4) return 1;
  int64_t b = an_attr_int(n, "blocksize", 0), bb;
  if (b <= 0 || __builtin_mul_overflow(b, b, &bb)) return 1;
  if (!an_set_dims(c, out, x->dims, 4)) return 0;
  an_exprs *e = c->x;
  if (n->op == OP_DEPTH_TO_SPACE) {
    out->dims[1] = an_div_valid(c, x->dims[1], bb);
    for (size_t i = 2; i < 4; i++) out->dims[i] = an_expr_mul(e, x->dims[i], an_num(b));
  } else {
    out->dims[1] = an_expr_mul(e, x->dims[1], an_num(bb));
    for (size_t i = 2; i < 4; i++) out->dims[i] = an_div_valid(c, x->dims[i], b);
  }
  return 1;
}

/* ---- data-dependent dims ---------------------------------------------------- */

/* The number of nonzero elements among x's first `limit` (at most its
 * element count), when they are known (else a fresh symbol). */
static an_elem count_nonzero(an_ctx *c, const graph_node *n, const slot_info *x, size_t limit) {
  if (!x->vals_known || limit > x->n_vals) return fresh_dim(c, n);
  int64_t k = 0;
  for (size_t i = 0; i < limit; i++) {
    if (!x->vals[i].known) return fresh_dim(c, n);
    k += x->vals[i].v != 0;
  }
  return an_num(k);
}

/* NonZero: int64 [rank, count]. */
static int eval_non_zero(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  out->type = ONNXSHAPE_TYPE_INT64;
  if (x == NULL) return 1;
  if (!an_set_rank(c, out, 2)) return 0;
  /* A scalar: onnxruntime gives [1, count], numpy and the ONNX reference
   * [0, count]: not evaluated. */
  out->dims[0] = x->rank_known && x->rank > 0 ? an_num((int64_t)x->rank) : an_unknown();
  out->dims[1] = count_nonzero(c, n, x, x->n_vals);
  return 1;
}

/* Compress: along axis (in [-r, r-1], negatives from version 11) the
 * count of true conditions among the first `dim` of them; without axis,
 * of the flattened input, 1-D. */
static int eval_compress(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0), *cond = in(c, n, 1);
  slot_info *out = an_out(c, n, 0);
  if (x == NULL) return 1;
  out->type = x->type;
  if (cond == NULL || !cond->rank_known || cond->rank != 1) return 1;
  int has_axis = an_has_attr(n, "axis");
  int64_t axis = 0;
  size_t total;
  an_elem d = !has_axis && small_count(x, &total) ? an_num((int64_t)total) : an_unknown();
  if (has_axis) {
    if (!x->rank_known) return 1;
    axis = an_norm_axis(an_attr_int(n, "axis", 0), x->rank, n->version >= 11);
    if (axis < 0) return 1;
    d = x->dims[axis];
    if (!an_set_dims(c, out, x->dims, x->rank)) return 0;
  } else if (!an_set_rank(c, out, 1)) {
    return 0;
  }
  an_elem count = fresh_dim(c, n);
  if (d.known && cond->vals_known) {
    count = count_nonzero(c, n, cond, (uint64_t)d.v < cond->n_vals ? (size_t)d.v : cond->n_vals);
  }
  out->dims[axis] = count;
  return 1;
}

/* Unique: Y (the input's type; the count of unique elements U, or of
 * unique slices along axis), indices and counts int64 [U], inverse_indices
 * int64 [element count] (or [the axis's dim]). */
static int eval_unique(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  if (x == NULL) return 1;
  for (size_t i = 0; i < 4; i++) {
    slot_info *o = an_out(c, n, i);
    if (o != NULL) o->type = i == 0 ? x->type : ONNXSHAPE_TYPE_INT64;
  }
  if (!x->rank_known) return 1;
  int has_axis = an_has_attr(n, "axis");
  int64_t axis = has_axis ? an_norm_axis(an_attr_int(n, "axis", 0), x->rank, 1) : 0;
  if (axis < 0) return 1;
  an_elem u = fresh_dim(c, n), len = has_axis ? x->dims[axis] : an_num(1);
  for (size_t i = 0; !has_axis && i < x->rank; i++) len = an_expr_mul(c->x, len, x->dims[i]);
  for (size_t i = 0; i < 4; i++) {
    slot_info *o = an_out(c, n, i);
    if (o == NULL) continue;
    if (i == 0 && has_axis) {
      if (!an_set_dims(c, o, x->dims, x->rank)) return 0;
      o->dims[axis] = u;
    } else {
      if (!an_set_rank(c, o, 1)) return 0;
      o->dims[0] = i == 2 ? len : u;
    }
  }
  return 1;
}

/* ---- the handlers ---------------------------------------------------------- */

AN_FIRST_OUTPUT(gather_elements, eval_gather_elements(c, n))
AN_FIRST_OUTPUT(gather_nd, eval_gather_nd(c, n))
AN_FIRST_OUTPUT(scatter, eval_scatter(c, n))
AN_FIRST_OUTPUT(one_hot, eval_one_hot(c, n))
AN_FIRST_OUTPUT(depth_space, eval_depth_space(c, n))
AN_FIRST_OUTPUT(non_zero, eval_non_zero(c, n))
AN_FIRST_OUTPUT(compress, eval_compress(c, n))

AN_HANDLER(top_k, eval_top_k(c, n))
AN_HANDLER(unique, eval_unique(c, n))
