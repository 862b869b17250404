/* SPDX-License-Identifier: Apache-2.0 */
/* The evaluation of one node for static analysis (analysis.h,
 * docs/analysis.md). Integer arithmetic is exact: a result that overflows
 * int64 or the output type, a division by zero, an index out of range, or
 * anything else the ONNX specification does not determine gives an unknown
 * element, never a guess. Symbols pass where the result is the symbol
 * (x + 0, x * 1, x / 1, min(x, x), a Gather or Slice of a symbolic dim, a
 * cast to int64). */
#include "analysis.h"

#include <string.h>

#include "../core/internal.h"
#include "../core/le.h"
#include "../ops/reshape_rules.h"
#include "../ops/shape_rules.h"

/* ---- arithmetic ------------------------------------------------------------- */


/* x op y for one element pair of an integer type: exact on numbers; on
 * expressions (int64 values, which is what shapes are computed in: every
 * symbol a dim, so exact integer arithmetic; a result past int64 would be
 * an overflow the specification does not determine) the sum, difference,
 * product, min and max, and a quotient where it is exact or both operands
 * are >= 0 (then truncation is floor division). */
static an_elem arith(an_ctx *c, operator_id op, an_elem x, an_elem y, int32_t type) {
  int64_t r;
  if (x.known && y.known) {
    int64_t a = x.v, b = y.v;
    switch (op) {
      case OP_ADD: if (__builtin_add_overflow(a, b, &r)) return an_unknown(); break;
      case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) return an_unknown(); break;
      case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) return an_unknown(); break;
      case OP_DIV:
        /* Integer Div truncates toward zero (C++ and onnxruntime; the
         * specification does not say, docs/analysis.md): a division by zero
         * or INT64_MIN / -1 is not determined. */
        if (b == 0 || (a == INT64_MIN && b == -1)) return an_unknown();
        r = a / b;
        break;
      case OP_MIN: r = a < b ? a : b; break;
      case OP_MAX: r = a > b ? a : b; break;
      case OP_EQUAL: return an_num(a == b);
      default: return an_unknown();
    }
    return an_in_range(an_num(r), type);
  }
  if (!an_is_set(x) || !an_is_set(y)) return an_unknown();
  an_exprs *e = c->x;
  if (op == OP_EQUAL) {
    return an_expr_same(e, x, y) ? an_num(1) : an_expr_differ(e, x, y) ? an_num(0) : an_unknown();
  }
  if (type != ONNXSHAPE_TYPE_INT64) {
    /* Other types may wrap or lose the value: only what does not depend
     * on it. */
    int same = same_elem(c, x, y);
    if ((op == OP_ADD || op == OP_SUB) && y.known && y.v == 0) return x;
    if (op == OP_ADD && x.known && x.v == 0) return y;
    if ((op == OP_MUL || op == OP_DIV) && y.known && y.v == 1) return x;
    if (op == OP_MUL && x.known && x.v == 1) return y;
    if ((op == OP_MIN || op == OP_MAX) && same) return x;
    if (op == OP_SUB && same) return an_num(0);
    return an_unknown();
  }
  switch (op) {
    case OP_ADD: return an_expr_add(e, x, y);
    case OP_SUB: return an_expr_sub(e, x, y);
    case OP_MUL: return an_expr_mul(e, x, y);
    case OP_MIN: return an_expr_min(e, x, y);
    case OP_MAX: return an_expr_max(e, x, y);
    case OP_DIV: {
      an_elem q = an_expr_div_exact(e, x, y);
      if (an_is_set(q)) return q;
      if (y.known && y.v > 0 && an_expr_nonneg(e, x)) return an_expr_floor_div(e, x, y.v);
      return an_unknown();
    }
    default: return an_unknown();
  }
}

/* ---- broadcasting ------------------------------------------------------------ */

/* The flat index into s of output element f of dims od (rank r), with
 * broadcasting. */
static size_t source_index(const slot_info *s, const an_elem *od, size_t r, size_t f) {
  size_t idx = 0, stride = 1;
  for (size_t d = r; d-- > 0;) {
    size_t coord = f % (size_t)od[d].v;
    f /= (size_t)od[d].v;
    if (d + s->rank < r) continue;
    size_t sd = d + s->rank - r;
    size_t dim = (size_t)s->dims[sd].v;
    idx += (dim == 1 ? 0 : coord) * stride;
    stride *= dim;
  }
  return idx;
}

/* Elementwise operators: Add, Sub, Mul, Div, Equal (two inputs), Min, Max
 * (any number), Where (condition, x, y). Versions before 7 (8 for Min and
 * Max) do not broadcast multidirectionally: there the output is evaluated
 * only when every input has the same dims. */
static int eval_elementwise(an_ctx *c, const graph_node *n) {
  operator_id op = n->op;
  slot_info *out = &c->slots[n->outputs[0]];
  size_t k = n->n_inputs;
  slot_info *ins[3];
  slot_info **list = k <= 3 ? ins : an_alloc(c, k, sizeof *list);
  if (list == NULL) return 0;
  for (size_t i = 0; i < k; i++) list[i] = in(c, n, i);
  if (k == 0) return 1;
  const slot_info *x = op == OP_WHERE ? (k == 3 ? list[1] : NULL) : list[0];
  if (x == NULL) return 1;
  out->type = op == OP_EQUAL ? ONNXSHAPE_TYPE_BOOL : x->type;
  int legacy = (op == OP_MIN || op == OP_MAX) ? n->version < 8 : n->version < 7;
  if (legacy) {
    if (x->rank_known && !an_charge(c, an_mul(k, x->rank))) return 0;
    for (size_t i = 1; i < k; i++) {
      if (list[i] == NULL || !list[i]->rank_known || !x->rank_known ||
          list[i]->rank != x->rank) {
        return 1;
      }
      for (size_t d = 0; d < x->rank; d++) {
        if (!same_elem(c, list[i]->dims[d], x->dims[d]) || !x->dims[d].known) return 1;
      }
    }
  }
  if (!an_broadcast(c, out, list, k)) return 0;
  size_t count;
  if (!small_count(out, &count) || !is_int_type(out->type)) return 1;
  for (size_t i = 0; i < k; i++) {
    if (list[i] == NULL || !list[i]->vals_known || !is_int_type(list[i]->type)) return 1;
  }
  /* Each element reads k inputs, each index in `rank` steps: when that is
   * more than the budget left, the dims stay and the values are unknown. */
  if (!an_afford(c, n, an_mul(an_mul(count, k), (uint64_t)out->rank + 1))) return 1;
  if (!an_set_vals(c, out, count)) return 0;
  for (size_t f = 0; f < count; f++) {
    if (op == OP_WHERE) {
      an_elem cond = list[0]->vals[source_index(list[0], out->dims, out->rank, f)];
      if (cond.known) {
        const slot_info *pick = cond.v != 0 ? list[1] : list[2];
        out->vals[f] = pick->vals[source_index(pick, out->dims, out->rank, f)];
      }
      continue;
    }
    an_elem r = list[0]->vals[source_index(list[0], out->dims, out->rank, f)];
    for (size_t i = 1; i < k; i++) {
      r = arith(c, op, r, list[i]->vals[source_index(list[i], out->dims, out->rank, f)], out->type);
    }
    out->vals[f] = r;
  }
  return 1;
}

/* ---- the operators ------------------------------------------------------------ */

static int eval_not(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  if (x == NULL) return 1;
  if (!an_copy(c, out, x)) return 0;
  out->type = ONNXSHAPE_TYPE_BOOL;
  out->value = NULL;
  for (size_t i = 0; out->vals_known && i < out->n_vals; i++) {
    out->vals[i] = x->vals[i].known ? an_num(x->vals[i].v == 0) : an_unknown();
  }
  return 1;
}

/* Cast: the value when it fits the target type (out of range the
 * specification keeps the low bits, and onnxruntime does: left unknown
 * here); an expression to int64, and to uint64 when it is certain to be
 * >= 0. Narrower types lose it: nothing bounds a symbol from above (a dim
 * of 2^31 or more cast to int32 wraps). */
static int eval_cast(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  int64_t to = an_attr_int(n, "to", 0);
  if (x == NULL) return 1;
  if (!an_copy(c, out, x)) return 0;
  out->value = NULL;
  out->type = to > 0 && to <= ONNXSHAPE_TYPE_LAST ? (int32_t)to : 0;
  if (!out->vals_known) return 1;
  if (!is_int_type(out->type) || !is_int_type(x->type)) {
    out->vals_known = 0;
    out->n_vals = 0;
    return 1;
  }
  for (size_t i = 0; i < out->n_vals; i++) {
    an_elem e = x->vals[i];
    if (e.known) {
      out->vals[i] = out->type == ONNXSHAPE_TYPE_BOOL ? an_num(e.v != 0) : an_in_range(e, out->type);
    } else if (out->type != ONNXSHAPE_TYPE_INT64 &&
               (out->type != ONNXSHAPE_TYPE_UINT64 || !an_expr_nonneg(c->x, e))) {
      out->vals[i] = an_unknown();
    }
  }
  return 1;
}

/* Identity and the like: the input as it is. */
static int eval_copy(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0);
  if (x == NULL) return 1;
  return an_copy(c, &c->slots[n->outputs[0]], x);
}

/* Gather: dims data[:axis] + indices + data[axis+1:]; values for a 1-D
 * data along axis 0. Negative indices count from the end from version 11
 * (version 1 does not define them: not evaluated); an index out of range is
 * an error at run time (unknown here). */
static int eval_gather(an_ctx *c, const graph_node *n) {
  slot_info *data = in(c, n, 0), *idx = in(c, n, 1);
  slot_info *out = &c->slots[n->outputs[0]];
  if (data == NULL || idx == NULL) return 1;
  out->type = data->type;
  if (!data->rank_known || !idx->rank_known) return 1;
  int64_t axis = an_norm_axis(an_attr_int(n, "axis", 0), data->rank, 1);
  if (axis < 0) return 1;
  size_t a = (size_t)axis;
  if (!an_set_rank(c, out, data->rank - 1 + idx->rank)) return 0;
  size_t o = 0;
  for (size_t i = 0; i < a; i++) out->dims[o++] = data->dims[i];
  for (size_t i = 0; i < idx->rank; i++) out->dims[o++] = idx->dims[i];
  for (size_t i = a + 1; i < data->rank; i++) out->dims[o++] = data->dims[i];
  if (data->rank != 1 || !data->vals_known || !idx->vals_known) return 1;
  if (!an_set_vals(c, out, idx->n_vals)) return 0;
  int64_t len = (int64_t)data->n_vals;
  for (size_t i = 0; i < idx->n_vals; i++) {
    an_elem e = idx->vals[i];
    if (!e.known) continue;
    int64_t k = e.v;
    if (k < 0 && n->version >= 11) k += len;
    if (k >= 0 && k < len) out->vals[i] = data->vals[k];
  }
  return 1;
}

/* Slice's clamping (Slice-10 and later): the first index and the count
 * along a dim of `dim` elements. A start below 0 after adding dim is 0 for
 * either direction, as the specification says ("clamped to [0, dims-1]"
 * for negative steps); the count is computed without overflow (a step of
 * INT64_MIN or INT64_MAX is fine). */
static int slice_range(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t *first,
                       int64_t *count) {
  if (step == 0) return 0;
  /* An end of INT64_MAX or INT32_MAX with a negative step: the
   * specification clamps it to dim - 1, onnxruntime reads either as
   * "through index 0" (docs/divergences.md D9): not evaluated. */
  if (step < 0 && (end == INT64_MAX || end == INT32_MAX)) return 0;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  uint64_t span, stride;
  if (step > 0) {
    start = start < 0 ? 0 : start > dim ? dim : start;
    end = end < 0 ? 0 : end > dim ? dim : end;
    span = end > start ? (uint64_t)(end - start) : 0;
    stride = (uint64_t)step;
  } else {
    if (dim == 0) {
      *first = 0;
      *count = 0;
      return 1;
    }
    start = start < 0 ? 0 : start > dim - 1 ? dim - 1 : start;
    end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
    span = start > end ? (uint64_t)(start - end) : 0;
    stride = (uint64_t)0 - (uint64_t)step; /* |step|, also for INT64_MIN */
  }
  *count = span == 0 ? 0 : (int64_t)((span - 1) / stride + 1);
  *first = start;
  return 1;
}

/* The count of a slice of a dim that is an expression, step > 0: each end
 * clamped as the specification says (a value >= 0 to min(v, D), a
 * negative one to max(D + v, 0); INT64_MAX is D), the count
 * ceil(max(end - start, 0) / step). */
static an_elem slice_count_expr(an_ctx *c, an_elem d, int64_t start, int64_t end, int64_t step) {
  an_exprs *x = c->x;
  int64_t ends[2] = {start, end};
  an_elem at[2];
  for (int k = 0; k < 2; k++) {
    int64_t v = ends[k];
    at[k] = v == INT64_MAX ? d
            : v >= 0       ? an_expr_min(x, an_num(v), d)
                           : an_expr_max(x, an_expr_add(x, d, an_num(v)), an_num(0));
  }
  /* Through the end: D - min(s, D) is max(D - s, 0); D - max(D + s, 0) is
   * min(-s, D) (s > INT64_MIN: a negative start past -D clamps to 0). */
  an_elem span = end != INT64_MAX   ? an_expr_max(x, an_expr_sub(x, at[1], at[0]), an_num(0))
                 : start >= 0       ? an_expr_max(x, an_expr_sub(x, d, an_num(start)), an_num(0))
                 : start > INT64_MIN ? an_expr_min(x, an_num(-start), d)
                                     : d;
  return an_expr_ceil_div(x, span, step);
}

/* Slice (starts, ends: attributes before 10, inputs from 10, with axes and
 * steps). Dims not sliced stay; a sliced dim is a number, or an
 * expression (step > 0); known elements are taken, at any rank and step. */
static int eval_slice(an_ctx *c, const graph_node *n) {
  slot_info *data = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  if (data == NULL) return 1;
  out->type = data->type;
  if (!data->rank_known) return 1;
  size_t r = data->rank;
  int64_t starts[64], ends[64], axes[64], steps[64];
  size_t ns = 0, ne = 0, na = 0, nst = 0;
  int absent_s, absent_e, absent_a, absent_st;
  int ok_s = an_int_list(c, n, "starts", 10, 1, starts, 64, &ns, &absent_s);
  int ok_e = an_int_list(c, n, "ends", 10, 2, ends, 64, &ne, &absent_e);
  int ok_a = an_int_list(c, n, "axes", 10, 3, axes, 64, &na, &absent_a);
  int ok_st = n->version >= 10 ? an_int_list(c, n, "steps", 10, 4, steps, 64, &nst, &absent_st) : 0;
  if (n->version < 10) absent_st = 1;
  if (!an_set_rank(c, out, r)) return 0;
  for (size_t i = 0; i < r; i++) out->dims[i] = data->dims[i];
  /* Which dims are sliced: the axes (or 0, 1, ... as many as starts has
   * elements, when the count is known); every dim when that is unknown. */
  size_t count_s;
  int n_known = ok_s ? (count_s = ns, 1) : an_list_length(c, n, "starts", 10, 1, &count_s);
  if ((!ok_a && !absent_a) || (absent_a && !n_known) || r > 64) {
    for (size_t i = 0; i < r; i++) out->dims[i] = an_unknown();
    return 1;
  }
  if (absent_a) {
    if (count_s > r) return 1;
    for (size_t i = 0; i < count_s; i++) axes[i] = (int64_t)i;
    na = count_s;
  }
  unsigned char sliced[64] = {0};
  for (size_t i = 0; i < na; i++) {
    /* An axis out of range (negative ones before version 10) or repeated:
     * an error at run time, so nothing is known of the output. */
    int64_t a = an_norm_axis(axes[i], r, n->version >= 10);
    if (a < 0 || sliced[a]) {
      out->rank_known = 0;
      return 1;
    }
    axes[i] = a;
    sliced[a] = 1;
    out->dims[a] = an_unknown();
  }
  if (!ok_s || !ok_e || ns != ne || na != ns || (!ok_st && !absent_st)) return 1;
  if (absent_st) {
    for (size_t i = 0; i < ns; i++) steps[i] = 1;
    nst = ns;
  }
  if (nst != ns) return 1;
  int64_t first[64], count[64], step_of[64];
  for (size_t i = 0; i < ns; i++) {
    int64_t ax = axes[i];
    an_elem d = data->dims[ax];
    step_of[ax] = steps[i];
    if (d.known && slice_range(d.v, starts[i], ends[i], steps[i], &first[ax], &count[ax])) {
      out->dims[ax] = an_num(count[ax]);
    } else if (!d.known && an_is_set(d) && steps[i] > 0) {
      out->dims[ax] = slice_count_expr(c, d, starts[i], ends[i], steps[i]);
    }
  }
  if (!data->vals_known) return 1;
  /* The elements: each dim not sliced whole, each sliced one through its
   * range (every sliced dim's range known, else its dim is not a number). */
  size_t ax[64];
  for (size_t i = 0; i < r; i++) {
    ax[i] = i;
    if (!sliced[i]) {
      first[i] = 0;
      step_of[i] = 1;
    } else if (!out->dims[i].known || !data->dims[i].known) {
      return 1;
    }
  }
  return an_take_strided(c, out, data, r, ax, first, step_of);
}

/* Concat along `axis` (required from version 4; version 1 defaults to 1;
 * negative from version 11). */
static int eval_concat(an_ctx *c, const graph_node *n) {
  slot_info *out = &c->slots[n->outputs[0]];
  if (n->n_inputs == 0 || in(c, n, 0) == NULL) return 1;
  const slot_info *x0 = in(c, n, 0);
  out->type = x0->type;
  size_t r = 0;
  for (size_t i = 0; i < n->n_inputs; i++) {
    const slot_info *x = in(c, n, i);
    if (x == NULL || !x->rank_known) return 1;
    if (i > 0 && x->rank != r) return 1;
    r = x->rank;
  }
  if (!an_charge(c, an_mul(n->n_inputs, r))) return 0; /* each dim looks at every input */
  const node_attr *ax = an_attr(n, "axis");
  int64_t axis = ax != NULL ? ax->i : (n->version < 4 ? 1 : INT64_MAX);
  axis = an_norm_axis(axis, r, n->version >= 11);
  if (axis < 0) return 1;
  if (!an_set_rank(c, out, r)) return 0;
  unsigned char *empty = an_alloc(c, n->n_inputs, 1);
  if (empty == NULL) return 0;
  int all_empty = 1;
  for (size_t i = 0; i < n->n_inputs; i++) {
    const slot_info *x = in(c, n, i);
    empty[i] = 0;
    for (size_t d = 0; d < r; d++) empty[i] |= x->dims[d].known && x->dims[d].v == 0;
    all_empty &= empty[i];
  }
  for (size_t d = 0; d < r; d++) {
    if ((int64_t)d == axis) {
      an_elem sum = an_num(0);
      for (size_t i = 0; i < n->n_inputs; i++) sum = an_expr_add(c->x, sum, in(c, n, i)->dims[d]);
      out->dims[d] = sum;
      continue;
    }
    /* The other dims are equal in a valid model: a number if any is one,
     * else an expression; the expressions are recorded as equal. But
     * onnxruntime checks no dim of an empty input and takes the other dims
     * from the first input that is not empty (input 0's when all are;
     * docs/divergences.md D16): an input certain to be empty (a dim of 0)
     * is left out, and two numbers that differ leave the dim unknown (the
     * node runs only where the inputs of one of them are empty). */
    if (all_empty) {
      out->dims[d] = x0->dims[d];
      continue;
    }
    an_elem e = an_unknown();
    int differ = 0;
    for (size_t i = 0; i < n->n_inputs; i++) {
      an_elem x = in(c, n, i)->dims[d];
      if (empty[i] || !an_is_set(x)) continue;
      if (e.known && x.known && e.v != x.v) differ = 1;
      else if (an_is_set(e)) an_equate(c, e, x);
      if (!e.known) e = x;
    }
    out->dims[d] = differ ? an_unknown() : e;
  }
  if (r != 1) return 1;
  size_t total = 0;
  for (size_t i = 0; i < n->n_inputs; i++) {
    const slot_info *x = in(c, n, i);
    if (!x->vals_known) return 1;
    total += x->n_vals;
  }
  if (total > MAX_ENUM) return 1;
  if (!an_set_vals(c, out, total)) return 0;
  size_t at = 0;
  for (size_t i = 0; i < n->n_inputs; i++) {
    const slot_info *x = in(c, n, i);
    for (size_t k = 0; k < x->n_vals; k++) out->vals[at++] = x->vals[k];
  }
  return 1;
}

/* Unsqueeze (axes: attribute before 13, input from 13; negative from 11,
 * counted in the output's rank) and Squeeze (axes optional: without, every
 * dim of 1 goes, which needs every dim known). Elements keep their order.
 * Squeeze-1/11 with an empty axes list squeezes every 1 (onnxruntime and
 * the ONNX reference); Squeeze-13 and later with an empty axes input is not
 * evaluated: onnxruntime squeezes every 1, the reference none
 * (docs/divergences.md D11, a portability finding). */
static int eval_squeeze(an_ctx *c, const graph_node *n, int unsqueeze) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  if (x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || x->rank > 64) return 1;
  int64_t axes[64];
  size_t na = 0;
  int absent;
  int ok = an_int_list(c, n, "axes", 13, 1, axes, 64, &na, &absent);
  if (!unsqueeze && ok && na == 0) {
    if (n->version >= 13) return 1; /* D11 */
    ok = 0;
    absent = 1;
  }
  if (!ok && !(absent && !unsqueeze)) return 1;
  size_t r = x->rank;
  unsigned char mark[128] = {0};
  size_t out_rank;
  if (unsqueeze) {
    out_rank = r + na;
    if (out_rank > 128) return 1;
    for (size_t i = 0; i < na; i++) {
      int64_t a = an_norm_axis(axes[i], out_rank, n->version >= 11);
      if (a < 0 || mark[a]) return 1;
      mark[a] = 1;
    }
    if (!an_set_rank(c, out, out_rank)) return 0;
    for (size_t d = 0, k = 0; d < out_rank; d++) out->dims[d] = mark[d] ? an_num(1) : x->dims[k++];
  } else {
    if (absent) {
      for (size_t d = 0; d < r; d++) {
        if (!x->dims[d].known) return 1;
        mark[d] = x->dims[d].v == 1;
      }
    }
    for (size_t i = 0; i < na; i++) {
      int64_t a = an_norm_axis(axes[i], r, n->version >= 11);
      if (a < 0 || mark[a] || (x->dims[a].known && x->dims[a].v != 1)) return 1;
      mark[a] = 1;
    }
    out_rank = 0;
    for (size_t d = 0; d < r; d++) out_rank += !mark[d];
    if (!an_set_rank(c, out, out_rank)) return 0;
    for (size_t d = 0, k = 0; d < r; d++) {
      if (!mark[d]) out->dims[k++] = x->dims[d];
    }
  }
  if (x->vals_known) {
    if (!an_set_vals(c, out, x->n_vals)) return 0;
    memcpy(out->vals, x->vals, x->n_vals * sizeof(an_elem));
  }
  return 1;
}

/* ConstantOfShape: dims the input's values; elements the `value`
 * attribute's one element (default float 0). */
static int eval_constant_of_shape(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  const onnxshape_tensor *v = n->constant != NULL ? &n->constant->view : NULL;
  out->type = v != NULL ? v->type : ONNXSHAPE_TYPE_FLOAT;
  if (x == NULL) return 1;
  if (x->vals_known) {
    if (!an_set_rank(c, out, x->n_vals)) return 0;
    for (size_t i = 0; i < x->n_vals; i++) {
      out->dims[i] = x->vals[i].known && x->vals[i].v < 0 ? an_unknown() : x->vals[i];
    }
  } else if (x->rank_known && x->rank == 1 && x->dims[0].known &&
             x->dims[0].v <= (int64_t)MAX_ENUM) {
    if (!an_set_rank(c, out, (size_t)x->dims[0].v)) return 0;
    for (size_t i = 0; i < out->rank; i++) out->dims[i] = an_unknown();
  }
  size_t count;
  int64_t e;
  if (v == NULL || !is_int_type(v->type) || !small_count(out, &count) || !read_elem(v, 0, &e)) {
    return 1;
  }
  if (!an_set_vals(c, out, count)) return 0;
  for (size_t i = 0; i < count; i++) out->vals[i] = an_num(e);
  return 1;
}

/* Range: max(ceil((limit - start) / delta), 0) elements. */
static int eval_range(an_ctx *c, const graph_node *n) {
  slot_info *s = in(c, n, 0), *l = in(c, n, 1), *d = in(c, n, 2);
  slot_info *out = &c->slots[n->outputs[0]];
  if (s == NULL) return 1;
  out->type = s->type;
  if (!an_set_rank(c, out, 1)) return 0;
  out->dims[0] = an_unknown();
  if (l == NULL || d == NULL || !s->vals_known || !l->vals_known || !d->vals_known ||
      s->n_vals != 1 || l->n_vals != 1 || d->n_vals != 1 || !s->vals[0].known ||
      !l->vals[0].known || !d->vals[0].known || d->vals[0].v == 0) {
    return 1;
  }
  int64_t start = s->vals[0].v, delta = d->vals[0].v, diff, lo, hi;
  /* onnxruntime counts ceil((double)(limit - start) / delta) with limit -
   * start in the element type: where that difference overflows the type,
   * or passes 2^52 (past which the double quotient may round to another
   * count than the exact one), the length is not evaluated (docs/analysis.md,
   * "Range"). Within it the two agree. */
  if (__builtin_sub_overflow(l->vals[0].v, start, &diff) || !int_range(s->type, &lo, &hi) ||
      diff < lo || diff > hi || diff > ((int64_t)1 << 52) || diff < -((int64_t)1 << 52)) {
    return 1;
  }
  int64_t q = diff / delta, rem = diff % delta;
  if (rem != 0 && ((rem > 0) == (delta > 0))) q++; /* ceil */
  if (q < 0) q = 0;
  out->dims[0] = an_num(q);
  if (q > (int64_t)MAX_ENUM || !an_set_vals(c, out, (size_t)q)) return q > (int64_t)MAX_ENUM;
  for (int64_t i = 0; i < q; i++) {
    int64_t v;
    out->vals[i] = __builtin_mul_overflow(i, delta, &v) || __builtin_add_overflow(v, start, &v)
                       ? an_unknown()
                       : an_in_range(an_num(v), out->type);
  }
  return 1;
}

/* ReduceProd: the dims of any reduction (ops_tensor.c); the product when
 * every element of a small integer input is reduced (keepdims default 1).
 * Axes: attribute before 18, input from 18. */
static int eval_reduce_prod(an_ctx *c, const graph_node *n) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  int all;
  if (x == NULL) return 1;
  if (!an_reduce_dims(c, n, 18, out, x, &all)) return 0;
  if (!all || out->vals_known || !x->vals_known || !is_int_type(x->type)) return 1;
  if (!an_set_vals(c, out, 1) || !an_charge(c, x->n_vals)) return 0;
  an_elem p = an_num(1);
  for (size_t i = 0; i < x->n_vals; i++) p = arith(c, OP_MUL, p, x->vals[i], out->type);
  out->vals[0] = p;
  return 1;
}

/* ---- Shape, Size, Reshape: the kernels' rules -------------------------------- */

/* Shape's slice of the input's dims: start clamped as the kernel does. */
static onnxshape_status eval_shape(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  out->type = ONNXSHAPE_TYPE_INT64;
  if (!an_set_rank(c, out, 1)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  out->dims[0] = an_unknown();
  if (x->type != 0) {
    onnxshape_status st = onnxshape_check_type(ONNXSHAPE_OP_SHAPE, n->version, x->type, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  if (!x->rank_known) return ONNXSHAPE_OK;
  size_t len;
  int32_t type = x->type != 0 ? x->type : ONNXSHAPE_TYPE_FLOAT;
  onnxshape_status st = onnxshape_shape_infer(n->version, type, x->rank, &n->shape_attrs, &len, diag);
  if (st != ONNXSHAPE_OK) return st;
  out->dims[0] = an_num((int64_t)len);
  /* The kernel's own clamp (onnxshape_shape_infer accepted the rank). */
  size_t start = n->shape_attrs.has_start
                     ? (size_t)onnxshape__clamp_axis(n->shape_attrs.start, (int64_t)x->rank)
                     : 0;
  if (!an_set_vals(c, out, len)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t i = 0; i < len; i++) out->vals[i] = x->dims[start + i];
  return ONNXSHAPE_OK;
}

static onnxshape_status eval_size(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  slot_info *x = in(c, n, 0);
  slot_info *out = &c->slots[n->outputs[0]];
  out->type = ONNXSHAPE_TYPE_INT64;
  if (!an_set_rank(c, out, 0) || !an_set_vals(c, out, 1)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  if (x->type != 0) {
    onnxshape_status st = onnxshape_size_infer(n->version, x->type, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  if (!x->rank_known) return ONNXSHAPE_OK;
  if (!an_all_known(x->dims, x->rank)) {
    /* The product of the dims' expressions. */
    if (!an_charge(c, x->rank)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    an_elem p = an_num(1);
    for (size_t i = 0; i < x->rank; i++) p = an_expr_mul(c->x, p, x->dims[i]);
    out->vals[0] = p;
    return ONNXSHAPE_OK;
  }
  int64_t *dims = an_alloc(c, x->rank, sizeof(int64_t));
  if (dims == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t i = 0; i < x->rank; i++) dims[i] = x->dims[i].v;
  onnxshape_tensor t = {x->type != 0 ? x->type : ONNXSHAPE_TYPE_FLOAT, x->rank, dims, NULL, 0};
  int64_t count;
  onnxshape_status st = onnxshape_size_run(n->version, &t, &count, diag);
  if (st != ONNXSHAPE_OK) return st;
  out->vals[0] = an_num(count);
  return ONNXSHAPE_OK;
}

/* Reshape with some target values or input dims not numbers: the rules the
 * known values alone decide (the kernel's own, reshape_rules.h, each value
 * not known given as 1, which none of them rejects), and the dims that can
 * be named. */
static onnxshape_status reshape_symbolic(an_ctx *c, const graph_node *n, const slot_info *x,
                                         const an_elem *target, size_t len, slot_info *out,
                                         onnxshape_diag *diag) {
  int64_t *values = an_alloc(c, len, sizeof(int64_t));
  if (values == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t i = 0; i < len; i++) values[i] = target[i].known ? target[i].v : 1;
  onnxshape_status st = onnxshape__reshape_check_known(
      n->version, x->type, values, len, x->rank_known ? x->rank : SIZE_MAX, &n->reshape_attrs,
      diag);
  if (st != ONNXSHAPE_OK) return st;
  int allowzero = n->reshape_attrs.has_allowzero && n->reshape_attrs.allowzero == 1;
  if (!an_set_rank(c, out, len)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  /* The target's values as the output's dims: a 0 (allowzero = 0) copies
   * the input's dim; an expression is the dim when it is >= 0 and, with
   * allowzero = 0, cannot be a 0 that copies something else (it is the
   * input's dim there, or it lies past the input's rank, where a 0 would
   * fail the node, or it is >= 1). One that may be negative may be -1: then nothing
   * is known of the -1. */
  size_t minus = len;
  int all_nonneg = 1;
  unsigned char *copied = an_alloc(c, len, 1);
  if (copied == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t i = 0; i < len; i++) {
    an_elem t = target[i];
    int has_input_dim = x->rank_known && i < x->rank;
    copied[i] = 0;
    if (!t.known) {
      int nonneg = an_expr_nonneg(c->x, t);
      all_nonneg &= nonneg;
      /* Past the input's rank a 0 copies nothing and fails the node
       * (RESHAPE-ZERO-COPY-RANGE): there the value is the dim too. */
      int past_rank = x->rank_known && i >= x->rank;
      int sure = nonneg && (allowzero || past_rank ||
                            (has_input_dim && same_elem(c, x->dims[i], t)) ||
                            an_expr_nonneg(c->x, an_expr_sub(c->x, t, an_num(1))));
      out->dims[i] = sure ? t : an_unknown();
    } else if (t.v == -1) {
      minus = i;
      out->dims[i] = an_unknown();
    } else if (t.v == 0 && !allowzero) {
      copied[i] = 1;
      out->dims[i] = has_input_dim ? x->dims[i] : an_unknown();
    } else {
      out->dims[i] = an_num(t.v);
    }
  }
  /* The -1: the input's element count over the other dims', each dim a 0
   * copies left out of both (the same on each side, known or not), when
   * the quotient is exact ([N,3,4] to [0,-1]: 12; to [-1,12]: N). */
  if (minus == len || !x->rank_known || !all_nonneg) return ONNXSHAPE_OK;
  if (!an_charge(c, (uint64_t)x->rank + len)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  an_elem num = an_num(1), den = an_num(1);
  for (size_t i = 0; i < x->rank; i++) {
    if (i < len && copied[i]) continue;
    num = an_expr_mul(c->x, num, x->dims[i]);
  }
  for (size_t i = 0; i < len; i++) {
    if (i == minus || copied[i]) continue;
    den = an_expr_mul(c->x, den, out->dims[i]);
  }
  if (!an_is_set(num) || !an_is_set(den) || (den.known && den.v == 0)) return ONNXSHAPE_OK;
  out->dims[minus] = an_expr_div_exact(c->x, num, den);
  return ONNXSHAPE_OK;
}

static onnxshape_status eval_reshape(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  slot_info *x = in(c, n, 0);
  slot_info *shape = n->n_inputs == 2 ? in(c, n, 1) : NULL;
  slot_info *out = &c->slots[n->outputs[0]];
  out->type = x->type;
  an_elem *target = NULL;
  size_t len = 0;
  if (n->n_inputs == 1) {
    len = n->reshape1_len;
    target = an_alloc(c, len, sizeof(an_elem));
    if (target == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < len; i++) target[i] = an_num(n->reshape1_shape[i]);
  } else {
    if (shape->type != 0 && shape->rank_known) {
      onnxshape_status st =
          onnxshape_reshape_check_shape_input(n->version, shape->type, shape->rank, diag);
      if (st != ONNXSHAPE_OK) return st;
    }
    if (shape->vals_known) {
      target = shape->vals;
      len = shape->n_vals;
    } else if (shape->rank_known && shape->rank == 1 && shape->dims[0].known &&
               shape->dims[0].v <= (int64_t)MAX_ENUM) {
      /* The target's length is the output's rank (a longer one stays unknown). */
      if (!an_set_rank(c, out, (size_t)shape->dims[0].v)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
      for (size_t i = 0; i < out->rank; i++) out->dims[i] = an_unknown();
      return ONNXSHAPE_OK;
    } else {
      return ONNXSHAPE_OK;
    }
  }
  if (x->rank_known && an_all_known(x->dims, x->rank) && an_all_known(target, len)) {
    /* Everything is a number: the kernel decides, errors included. */
    int64_t *dims = an_alloc(c, x->rank, sizeof(int64_t));
    int64_t *tv = an_alloc(c, len, sizeof(int64_t));
    int64_t *od = an_alloc(c, len, sizeof(int64_t));
    if (dims == NULL || tv == NULL || od == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < x->rank; i++) dims[i] = x->dims[i].v;
    for (size_t i = 0; i < len; i++) tv[i] = target[i].v;
    onnxshape_status st = onnxshape_reshape_infer(
        n->version, x->type != 0 ? x->type : ONNXSHAPE_TYPE_FLOAT, dims, x->rank, tv, len,
        &n->reshape_attrs, od, len, diag);
    if (st != ONNXSHAPE_OK) return st;
    if (!an_set_rank(c, out, len)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < len; i++) out->dims[i] = an_num(od[i]);
  } else {
    onnxshape_status st = reshape_symbolic(c, n, x, target, len, out, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  /* The elements keep their order. */
  size_t count;
  if (x->vals_known && small_count(out, &count) && count == x->n_vals) {
    if (!an_set_vals(c, out, count)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    memcpy(out->vals, x->vals, count * sizeof(an_elem));
  }
  return ONNXSHAPE_OK;
}

/* ---- the handlers (called through the operator registry, registry.c) ---------- */

AN_FIRST_OUTPUT(cast, eval_cast(c, n))
AN_FIRST_OUTPUT(gather, eval_gather(c, n))
AN_FIRST_OUTPUT(slice, eval_slice(c, n))
AN_FIRST_OUTPUT(concat, eval_concat(c, n))
AN_FIRST_OUTPUT(unsqueeze, eval_squeeze(c, n, 1))
AN_FIRST_OUTPUT(squeeze, eval_squeeze(c, n, 0))
AN_FIRST_OUTPUT(arith, eval_elementwise(c, n))
AN_FIRST_OUTPUT(not, eval_not(c, n))
AN_FIRST_OUTPUT(constant_of_shape, eval_constant_of_shape(c, n))
AN_FIRST_OUTPUT(range, eval_range(c, n))
AN_FIRST_OUTPUT(reduce_prod, eval_reduce_prod(c, n))
AN_FIRST_OUTPUT(constant, an_from_tensor(c, &c->slots[n->outputs[0]], &n->constant->view, 1))

onnxshape_status onnxshape__an_op_shape(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  return eval_shape(c, n, diag);
}

onnxshape_status onnxshape__an_op_size(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  return eval_size(c, n, diag);
}

onnxshape_status onnxshape__an_op_reshape(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  return eval_reshape(c, n, diag);
}

onnxshape_status onnxshape__an_op_identity(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  const slot_info *x = in(c, n, 0);
  if (x->type != 0) {
    onnxshape_status st = onnxshape__identity_check(n->version, x->type, diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  return eval_copy(c, n) ? ONNXSHAPE_OK : ONNXSHAPE_ERR_OUT_OF_MEMORY;
}
