/* SPDX-License-Identifier: Apache-2.0 */
/* Convolution, pooling and their neighbours (docs/operators.md lists
 * them): Conv, DeformConv, ConvInteger, QLinearConv, ConvTranspose, MaxPool,
 * AveragePool, LpPool, the global pools, MaxUnpool, the ROI pools; LSTM,
 * GRU, RNN; GridSample, AffineGrid, Col2Im, CenterCropPad,
 * ReverseSequence, Det, NonMaxSuppression; DFT, STFT, MelWeightMatrix and
 * the window functions. A convolution's or pool's output is [N, channels,
 * spatial...] over the input's rank, the spatial dims from the window's
 * geometry (kernel, strides, dilations, pads or auto_pad) where ONNX's
 * specification and onnxruntime agree; where they do not, or the
 * geometry is invalid, a spatial dim is left unknown. */
#include <string.h>

#include "analysis.h"

/* Spatial dims evaluated (real models have 1 to 3): a node with more has
 * its spatial dims left unknown. */
#define WIN_MAX 8u
/* onnxruntime's pools have computed the output size in float, the input
 * dim read through an int (pool_attributes.h, ComputeOutputSize, in past
 * releases): exact while the input dim, pads and stride stay below this,
 * so a number past it is left unknown. */
#define POOL_EXACT ((int64_t)1 << 20)

enum pad_mode { PAD_NOTSET, PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER };
enum win_rule { RULE_CONV, RULE_POOL, RULE_TRANSPOSE };

/* The geometry of one node's window over r spatial dims. */
typedef struct window {
  size_t r;
  enum win_rule rule;
  enum pad_mode mode;
  int ceil_mode;                       /* pools */
  int has_out_shape;                   /* ConvTranspose's output_shape */
  an_elem k[WIN_MAX];                  /* kernel (W's dims may be expressions) */
  int64_t s[WIN_MAX], d[WIN_MAX];      /* strides, dilations */
  int64_t p[2 * WIN_MAX];              /* pads: begins, then ends (0 unless NOTSET) */
  int64_t adj[WIN_MAX];                /* ConvTranspose's output_padding */
  int64_t out_shape[WIN_MAX];
} window;

/* INTS attribute `name` as len numbers of at least min into v (def each
 * when absent or empty, as onnxruntime reads it): 1, or 0 for another
 * length, type or a number below min. */
static int attr_list(const graph_node *n, const char *name, size_t len, int64_t min, int64_t def,
                     int64_t *v) {
  size_t got = 0;
  const int64_t *a = an_attr_ints(n, name, &got);
  if (a == NULL && an_has_attr(n, name)) return 0;
  if (a == NULL || got == 0) {
    for (size_t i = 0; i < len; i++) v[i] = def;
    return 1;
  }
  if (got != len) return 0;
  for (size_t i = 0; i < len; i++) {
    if (a[i] < min) return 0;
    v[i] = a[i];
  }
  return 1;
}

/* auto_pad: 1 and *m, or 0 for a value no version defines. */
static int read_pad_mode(const graph_node *n, enum pad_mode *m) {
  static const char *const names[] = {"NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"};
  if (!an_has_attr(n, "auto_pad") || an_attr_is(n, "auto_pad", "")) {
    *m = PAD_NOTSET;
    return 1;
  }
  for (int i = 0; i < 4; i++) {
    if (an_attr_is(n, "auto_pad", names[i])) {
      *m = (enum pad_mode)i;
      return 1;
    }
  }
  return 0;
}

/* The kernel: kernel_shape, else W's spatial dims (w NULL for the pools,
 * which need kernel_shape). 1, or 0 when neither gives r dims > 0 or the
 * two disagree (onnxruntime refuses the node). */
static int kernel_dims(const graph_node *n, const slot_info *w, size_t r, an_elem *k) {
  int from_w = w != NULL && w->rank_known && w->rank == r + 2;
  size_t got = 0;
  const int64_t *a = an_attr_ints(n, "kernel_shape", &got);
  if (a == NULL || got == 0) {
    if (!from_w || (a == NULL && an_has_attr(n, "kernel_shape"))) return 0;
    for (size_t i = 0; i < r; i++) {
      k[i] = w->dims[i + 2];
      if (!an_is_set(k[i]) || (k[i].known && k[i].v <= 0)) return 0;
    }
    return 1;
  }
  if (got != r) return 0;
  for (size_t i = 0; i < r; i++) {
    if (a[i] <= 0) return 0;
    if (from_w && w->dims[i + 2].known && w->dims[i + 2].v != a[i]) return 0;
    k[i] = an_num(a[i]);
  }
  return 1;
}

/* The pools' geometry within POOL_EXACT. */
static int pool_exact(const window *w) {
  for (size_t i = 0; i < w->r; i++) {
    if (w->s[i] >= POOL_EXACT || w->p[i] >= POOL_EXACT || w->p[i + w->r] >= POOL_EXACT) return 0;
  }
  return 1;
}

/* Node n's window over r spatial dims (w: the weights, or NULL): 1, or 0
 * when the attributes are invalid (pads beside an auto_pad other than
 * NOTSET: the specification forbids it). */
static int read_window(const graph_node *n, const slot_info *w, size_t r, enum win_rule rule,
                       window *win) {
  size_t n_pads = 0;
  memset(win, 0, sizeof *win);
  win->r = r;
  win->rule = rule;
  win->ceil_mode = rule == RULE_POOL && an_attr_int(n, "ceil_mode", 0) != 0;
  if (r == 0 || r > WIN_MAX || !read_pad_mode(n, &win->mode) || !kernel_dims(n, w, r, win->k))
    return 0;
  if (!attr_list(n, "strides", r, 1, 1, win->s) || !attr_list(n, "dilations", r, 1, 1, win->d) ||
      !attr_list(n, "pads", 2 * r, 0, 0, win->p))
    return 0;
  if (win->mode != PAD_NOTSET && an_attr_ints(n, "pads", &n_pads) != NULL && n_pads > 0) return 0;
  if (rule == RULE_POOL) return pool_exact(win);
  if (rule != RULE_TRANSPOSE) return 1;
  if (!attr_list(n, "output_padding", r, 0, 0, win->adj)) return 0;
  size_t n_out = 0;
  win->has_out_shape = an_attr_ints(n, "output_shape", &n_out) != NULL && n_out > 0;
  return !win->has_out_shape || attr_list(n, "output_shape", r, 1, 1, win->out_shape);
}

/* The dilated kernel along dim i: d*(k-1) + 1. */
static an_elem span_of(an_ctx *c, const window *w, size_t i) {
  an_exprs *x = c->x;
  an_elem k1 = an_expr_sub(x, w->k[i], an_num(1));
  return an_expr_add(x, an_expr_mul(x, an_num(w->d[i]), k1), an_num(1));
}

/* A pool's dim from num = in + low (low = pads - span, a number): 1 when
 * num is at least `bound` (for a number in, certain; else whatever in,
 * which onnxruntime requires to be at least 1). */
static int num_at_least(an_elem num, an_elem low, int64_t bound) {
  if (num.known) return num.v >= bound;
  return low.known && low.v >= bound - 1;
}

/* d, or unknown when it is a number below 0. */
static an_elem nonneg_dim(an_elem d) { return d.known && d.v < 0 ? an_unknown() : d; }

/* A pool along dim i, as onnxruntime computes it: without ceil_mode
 * trunc(num/s) + 1 (integer division: a window that does not fit still
 * gives 1 where -s < num < 0, where the specification's floor gives 0;
 * trunc is max(floor, min(ceil, 0)), max(floor, 0) for num > -s); with
 * ceil_mode ceil(num/s) + 1 less the windows that would start in the
 * right padding (AveragePool-19's specification; onnxruntime drops them
 * for every pool). A dim below 0 is not known (onnxruntime refuses it);
 * 0 is what onnxruntime gives. */
static an_elem pool_dim(an_ctx *c, const window *w, size_t i, an_elem in, an_elem num, an_elem low) {
  an_exprs *x = c->x;
  int64_t s = w->s[i];
  if (!w->ceil_mode) {
    an_elem q = an_expr_floor_div(x, num, s);
    if (s > 1 && num_at_least(num, low, 1 - s) && !num_at_least(num, low, 0)) {
      q = an_expr_max(x, q, an_num(0));
    } else if (s > 1 && !num_at_least(num, low, 0)) {
      q = an_expr_max(x, q, an_expr_min(x, an_expr_ceil_div(x, num, s), an_num(0)));
    }
    return nonneg_dim(an_expr_add(x, q, an_num(1)));
  }
  an_elem last = an_expr_ceil_div(x, num, s);
  /* The last start s*ceil(num/s) is below num + s = in + pb + (pe + s -
   * span): inside the input and left padding whenever pe + s <= span. */
  int64_t pb = w->p[i], pe = w->p[i + w->r];
  an_elem slack = an_expr_sub(x, span_of(c, w, i), an_expr_add(x, an_num(pe), an_num(s)));
  if (!an_is_set(slack) || !an_expr_nonneg(x, slack)) {
    an_elem inside = an_expr_floor_div(x, an_expr_add(x, in, an_num(pb - 1)), s);
    last = an_expr_min(x, last, inside);
  }
  return nonneg_dim(an_expr_add(x, last, an_num(1)));
}

/* Conv and the pools along dim i of `in`: num = in + pads - span; Conv
 * floor(num/s) + 1 (num < 0: onnxruntime refuses), the pools pool_dim;
 * SAME: ceil(in/s), for dilation 1 only (onnxruntime refuses Conv and
 * pads differently for the pools otherwise). */
static an_elem forward_dim(an_ctx *c, const window *w, size_t i, an_elem in) {
  an_exprs *x = c->x;
  int64_t s = w->s[i];
  if (w->mode == PAD_SAME_UPPER || w->mode == PAD_SAME_LOWER)
    return w->d[i] == 1 ? an_expr_ceil_div(x, in, s) : an_unknown();
  int64_t pb = w->p[i], pe = w->p[i + w->r];
  an_elem low = an_expr_sub(x, an_expr_add(x, an_num(pb), an_num(pe)), span_of(c, w, i));
  an_elem num = an_expr_add(x, in, low);
  if (!an_is_set(num)) return an_unknown();
  if (w->rule == RULE_POOL) return pool_dim(c, w, i, in, num, low);
  if (num.known && num.v < 0) return an_unknown();
  return an_expr_add(x, an_expr_floor_div(x, num, s), an_num(1));
}

/* ConvTranspose along dim i: output_shape when given; else s*(in - 1) +
 * output_padding + span - pads; SAME: in*s, where the full output is at
 * least that (onnxruntime pads it down to in*s). A result not above 0 is
 * not known (onnxruntime refuses it). */
static an_elem transpose_dim(an_ctx *c, const window *w, size_t i, an_elem in) {
  an_exprs *x = c->x;
  if (w->has_out_shape) return an_num(w->out_shape[i]);
  int64_t s = w->s[i];
  an_elem grown = an_expr_mul(x, an_expr_sub(x, in, an_num(1)), an_num(s));
  an_elem extra = an_expr_add(x, an_num(w->adj[i]), span_of(c, w, i));
  an_elem out;
  if (w->mode == PAD_SAME_UPPER || w->mode == PAD_SAME_LOWER) {
    an_elem slack = an_expr_sub(x, extra, an_num(s));
    if (!an_is_set(slack) || !an_expr_nonneg(x, slack)) return an_unknown();
    out = an_expr_mul(x, in, an_num(s));
  } else {
    int64_t pb = w->p[i], pe = w->p[i + w->r];
    out = an_expr_sub(x, an_expr_add(x, grown, extra), an_expr_add(x, an_num(pb), an_num(pe)));
  }
  return out.known && out.v <= 0 ? an_unknown() : out;
}

/* The output's spatial dim i from the input's dim `in`. */
static an_elem window_dim(an_ctx *c, const window *w, size_t i, an_elem in) {
  if (w->rule == RULE_TRANSPOSE) return transpose_dim(c, w, i, in);
  if (w->rule == RULE_POOL && in.known && in.v >= POOL_EXACT) return an_unknown();
  return forward_dim(c, w, i, in);
}

/* out: [N, ch, ?...] over x's rank (known, at least 2). */
static int batch_channels(an_ctx *c, slot_info *out, const slot_info *x, an_elem ch) {
  if (!an_set_unknown_dims(c, out, x->rank)) return 0;
  out->dims[0] = x->dims[0];
  out->dims[1] = ch;
  return 1;
}

/* out: [N, ch, spatial...] over x's rank (at least 3), the spatial dims
 * unknown when the window is not (ok 0). */
static int window_output(an_ctx *c, slot_info *out, const slot_info *x, an_elem ch,
                         const window *win, int ok) {
  if (out == NULL || !x->rank_known || x->rank < 3) return 1;
  if (!batch_channels(c, out, x, ch)) return 0;
  for (size_t i = 0; ok && i < win->r; i++) out->dims[i + 2] = window_dim(c, win, i, x->dims[i + 2]);
  return 1;
}

enum conv_kind { CONV_FLOAT, CONV_INTEGER, CONV_QLINEAR, CONV_TRANSPOSE };

/* Conv (and DeformConv, whose offset and mask inputs follow the output)
 * and its kinds: the output channels are W's first dim (W's second
 * times group for ConvTranspose); the element type is X's, int32
 * (ConvInteger) or y_zero_point's (QLinearConv). */
static int eval_conv(an_ctx *c, const graph_node *n, enum conv_kind kind) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0), *w = in(c, n, kind == CONV_QLINEAR ? 3 : 1);
  const slot_info *yzp = kind == CONV_QLINEAR ? in(c, n, 7) : NULL;
  if (out == NULL || x == NULL) return 1;
  out->type = kind == CONV_INTEGER   ? ONNXSHAPE_TYPE_INT32
              : kind == CONV_QLINEAR ? (yzp != NULL ? yzp->type : 0)
                                     : x->type;
  if (!x->rank_known || x->rank < 3) return 1;
  int64_t group = an_attr_int(n, "group", 1);
  an_elem ch = an_unknown();
  if (group > 0 && w != NULL && w->rank_known && w->rank == x->rank) {
    ch = kind == CONV_TRANSPOSE ? an_expr_mul(c->x, w->dims[1], an_num(group)) : w->dims[0];
  }
  window win;
  int ok = group > 0 && read_window(n, w, x->rank - 2,
                                    kind == CONV_TRANSPOSE ? RULE_TRANSPOSE : RULE_CONV, &win);
  return window_output(c, out, x, ch, &win, ok);
}

/* MaxPool, AveragePool, LpPool: X's type and channels; MaxPool's Indices
 * (version 8 on) the same dims, int64. */
static int eval_pool(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  if (x == NULL) return 1;
  window win;
  int ok = x->rank_known && x->rank >= 3 && read_window(n, NULL, x->rank - 2, RULE_POOL, &win);
  for (size_t k = 0; k < 2; k++) {
    slot_info *out = an_out(c, n, k);
    if (out == NULL || (k == 1 && n->op != OP_MAX_POOL)) continue;
    out->type = k == 0 ? x->type : ONNXSHAPE_TYPE_INT64;
    if (!window_output(c, out, x, x->rank_known && x->rank >= 3 ? x->dims[1] : an_unknown(), &win, ok))
      return 0;
  }
  return 1;
}

/* The global pools: [N, C, 1, ...] over X's rank (at least 2). */
static int eval_global_pool(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || x->rank < 2) return 1;
  if (!batch_channels(c, out, x, x->dims[1])) return 0;
  for (size_t i = 2; i < x->rank; i++) out->dims[i] = an_num(1);
  return 1;
}

/* The recurrent layers (LSTM, GRU, RNN): the directions, 2 for
 * "bidirectional", 1 for "forward" (the default) and "reverse". */
static an_elem rnn_directions(const graph_node *n) {
  if (an_attr_is(n, "direction", "bidirectional")) return an_num(2);
  if (!an_has_attr(n, "direction") || an_attr_is(n, "direction", "forward") ||
      an_attr_is(n, "direction", "reverse"))
    return an_num(1);
  return an_unknown();
}

/* LSTM, GRU, RNN: Y [seq, dirs, batch, hidden], Y_h and Y_c [dirs, batch,
 * hidden] (layout 1, version 14 on: batch first), X's type; hidden is the
 * hidden_size attribute (onnxruntime requires it). Before version 7, Y
 * depends on output_sequence, which the specification leaves vague: not
 * known. */
static int eval_rnn(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  if (x == NULL) return 1;
  int64_t layout = n->version >= 14 ? an_attr_int(n, "layout", 0) : 0;
  int64_t hidden = an_attr_int(n, "hidden_size", 0);
  int x_ok = x->rank_known && x->rank == 3 && (layout == 0 || layout == 1);
  an_elem seq = x_ok ? x->dims[layout] : an_unknown();
  an_elem batch = x_ok ? x->dims[1 - layout] : an_unknown();
  for (size_t k = 0; k < 3; k++) {
    slot_info *out = an_out(c, n, k);
    if (out == NULL) continue;
    out->type = x->type;
    if ((layout != 0 && layout != 1) || (k == 0 && n->version < 7)) continue;
    an_elem dims[4];
    size_t r = 0;
    if (layout == 1) dims[r++] = batch;
    if (k == 0) dims[r++] = seq;
    dims[r++] = rnn_directions(n);
    if (layout == 0) dims[r++] = batch;
    dims[r++] = hidden > 0 ? an_num(hidden) : an_unknown();
    if (!an_set_dims(c, out, dims, r)) return 0;
  }
  return 1;
}

/* out: x's type and its dims but the last `drop`. */
static int leading_dims(an_ctx *c, slot_info *out, const slot_info *x, size_t drop) {
  out->type = x->type;
  if (!x->rank_known || x->rank < drop) return 1;
  return an_set_dims(c, out, x->dims, x->rank - drop);
}

/* ReverseSequence: the input's shape; Det: [*, M, M] to [*]. */
static int eval_det_like(an_ctx *c, const graph_node *n, size_t drop) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  return out == NULL || x == NULL || leading_dims(c, out, x, drop);
}

/* NonMaxSuppression: [selected, 3] int64, the count a fresh symbol named
 * after the node (it depends on the scores). */
static int eval_nms(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  if (out == NULL) return 1;
  out->type = ONNXSHAPE_TYPE_INT64;
  an_elem dims[2] = {an_expr_fresh(c->x, n->label), an_num(3)};
  return an_set_dims(c, out, dims, 2);
}

/* HannWindow, HammingWindow, BlackmanWindow: [size] (input 0's value, a
 * number >= 0 or an expression), of type output_datatype (float by
 * default). */
static int eval_window_fn(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *size = in(c, n, 0);
  if (out == NULL) return 1;
  int64_t t = an_attr_int(n, "output_datatype", ONNXSHAPE_TYPE_FLOAT);
  out->type = t > 0 && t <= ONNXSHAPE_TYPE_LAST ? (int32_t)t : 0;
  if (size == NULL || !size->vals_known || size->n_vals != 1) return 1;
  an_elem d = size->vals[0];
  if (!an_is_set(d) || (d.known && d.v < 0)) return an_set_unknown_dims(c, out, 1);
  return an_set_dims(c, out, &d, 1);
}

/* RoiAlign and MaxRoiPool: [rois, C, height, width], the rois counted by
 * input 1's first dim (or RoiAlign's batch_indices), height and width
 * output_height and output_width (default 1) or pooled_shape. */
static int eval_roi(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0), *rois = in(c, n, 1), *idx = in(c, n, 2);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  an_elem dims[4] = {an_unknown(), an_unknown(), an_unknown(), an_unknown()};
  if (rois != NULL && rois->rank_known && rois->rank == 2) dims[0] = rois->dims[0];
  if (!an_is_set(dims[0]) && idx != NULL && idx->rank_known && idx->rank == 1) dims[0] = idx->dims[0];
  if (x->rank_known && x->rank == 4) dims[1] = x->dims[1];
  size_t len = 0;
  const int64_t *pooled = an_attr_ints(n, "pooled_shape", &len);
  int64_t hw[2] = {an_attr_int(n, "output_height", 1), an_attr_int(n, "output_width", 1)};
  if (n->op == OP_MAX_ROI_POOL) {
    hw[0] = pooled != NULL && len == 2 ? pooled[0] : 0;
    hw[1] = pooled != NULL && len == 2 ? pooled[1] : 0;
  }
  for (size_t i = 0; i < 2; i++) dims[2 + i] = hw[i] > 0 ? an_num(hw[i]) : an_unknown();
  return an_set_dims(c, out, dims, 4);
}

/* GridSample: [N, C, grid's dims 1 .. r-2] over X's rank r (grid: [N,
 * out..., r-2]). */
static int eval_grid_sample(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0), *grid = in(c, n, 1);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || x->rank < 3) return 1;
  if (!batch_channels(c, out, x, x->dims[1])) return 0;
  if (grid == NULL || !grid->rank_known || grid->rank != x->rank) return 1;
  for (size_t i = 2; i < x->rank; i++) out->dims[i] = grid->dims[i - 1];
  return 1;
}

/* Input k's elements when they are all known or expressions and there
 * are `want` of them (0: any number up to WIN_MAX + 2): their count, or 0. */
static size_t value_dims(an_ctx *c, const graph_node *n, size_t k, size_t want, const an_elem **v) {
  const slot_info *s = in(c, n, k);
  if (s == NULL || !s->vals_known || s->n_vals == 0 || s->n_vals > WIN_MAX + 2) return 0;
  if (want != 0 && s->n_vals != want) return 0;
  for (size_t i = 0; i < s->n_vals; i++) {
    if (!an_is_set(s->vals[i]) || (s->vals[i].known && s->vals[i].v < 0)) return 0;
  }
  *v = s->vals;
  return s->n_vals;
}

/* MaxUnpool: output_shape (input 2) when given, else per spatial dim
 * s*(in - 1) + k - pads (ConvTranspose's rule without dilation). */
static int eval_max_unpool(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  if (in(c, n, 2) != NULL) {
    const an_elem *v = NULL;
    size_t r = value_dims(c, n, 2, x->rank_known ? x->rank : 0, &v);
    return r == 0 || an_set_dims(c, out, v, r);
  }
  window win;
  int ok = x->rank_known && x->rank >= 3 &&
           read_window(n, NULL, x->rank - 2, RULE_TRANSPOSE, &win);
  return window_output(c, out, x, x->rank_known && x->rank >= 3 ? x->dims[1] : an_unknown(),
                       &win, ok);
}

/* AffineGrid: size [N, C, H, W] gives [N, H, W, 2], [N, C, D, H, W] gives
 * [N, D, H, W, 3]; theta's type. */
static int eval_affine_grid(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *theta = in(c, n, 0);
  if (out == NULL) return 1;
  out->type = theta != NULL ? theta->type : 0;
  const an_elem *v = NULL;
  size_t r = value_dims(c, n, 1, 0, &v);
  if (r != 4 && r != 5) return 1;
  an_elem dims[5];
  dims[0] = v[0];
  for (size_t i = 2; i < r; i++) dims[i - 1] = v[i];
  dims[r - 1] = an_num((int64_t)r - 2);
  return an_set_dims(c, out, dims, r);
}

/* CenterCropPad: the input's dims with those of `axes` (all by default)
 * replaced by shape's values (an axis twice: not known). */
static int eval_center_crop_pad(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || x->rank > WIN_MAX + 2) return 1;
  size_t n_axes = x->rank;
  const int64_t *axes = an_attr_ints(n, "axes", &n_axes);
  if (axes == NULL) n_axes = x->rank;
  const an_elem *v = NULL;
  if (n_axes == 0 || value_dims(c, n, 1, n_axes, &v) == 0) return 1;
  an_elem dims[WIN_MAX + 2];
  int set[WIN_MAX + 2] = {0};
  memcpy(dims, x->dims, x->rank * sizeof *dims);
  for (size_t i = 0; i < n_axes; i++) {
    int64_t a = axes == NULL ? (int64_t)i : an_norm_axis(axes[i], x->rank, 1);
    if (a < 0 || set[a]) return 1;
    set[a] = 1;
    dims[a] = v[i];
  }
  return an_set_dims(c, out, dims, x->rank);
}

/* Col2Im: input [N, C*prod(block), L], image_shape and block_shape of r
 * values: [N, C, image...] (C the exact quotient). */
static int eval_col2im(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  const an_elem *image = NULL, *block = NULL;
  size_t r = value_dims(c, n, 1, 0, &image);
  if (r == 0 || r > WIN_MAX || value_dims(c, n, 2, r, &block) != r) return 1;
  an_elem dims[WIN_MAX + 2], prod = an_num(1);
  for (size_t i = 0; i < r; i++) prod = an_expr_mul(c->x, prod, block[i]);
  int x_ok = x->rank_known && x->rank == 3;
  dims[0] = x_ok ? x->dims[0] : an_unknown();
  dims[1] = x_ok && !(prod.known && prod.v == 0) ? an_expr_div_exact(c->x, x->dims[1], prod)
                                                 : an_unknown();
  memcpy(dims + 2, image, r * sizeof *dims);
  return an_set_dims(c, out, dims, r + 2);
}

/* Input k's one element when it is a number > 0 or an expression, else
 * unknown (also when absent). */
static an_elem scalar_size(an_ctx *c, const graph_node *n, size_t k) {
  const slot_info *s = in(c, n, k);
  if (s == NULL || !s->vals_known || s->n_vals != 1) return an_unknown();
  an_elem v = s->vals[0];
  return v.known && v.v <= 0 ? an_unknown() : v;
}

/* floor(len/2) + 1 (the one-sided spectrum of len points), or len. */
static an_elem spectrum_bins(an_ctx *c, an_elem len, int onesided) {
  if (!onesided) return len;
  return an_expr_add(c->x, an_expr_floor_div(c->x, len, 2), an_num(1));
}

/* DFT: the input's dims with the last 2 (complex) and the axis's n
 * (dft_length, or the axis's dim) one-sided when asked. The axis: an
 * attribute (default 1) before version 20, then input 2 (default -2,
 * negatives from the back from version 20), never the last dim. onesided
 * only for a real input and not with inverse (the specification does not
 * define those): else not known. */
static int eval_dft(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  if (!x->rank_known || x->rank < 2 || x->rank > WIN_MAX + 2) return 1;
  int64_t axis = an_attr_int(n, "axis", 1);
  if (n->version >= 20) {
    const slot_info *a = in(c, n, 2);
    int known = a != NULL && a->vals_known && a->n_vals == 1 && a->vals[0].known;
    axis = a == NULL ? -2 : known ? a->vals[0].v : INT64_MIN;
    if (axis < 0 && axis >= -(int64_t)x->rank) axis += (int64_t)x->rank;
  }
  int onesided = an_attr_int(n, "onesided", 0) != 0;
  an_elem last = x->dims[x->rank - 1];
  if (!an_set_dims(c, out, x->dims, x->rank)) return 0;
  out->dims[x->rank - 1] = an_num(2);
  if (axis < 0 || axis >= (int64_t)x->rank - 1 || (last.known && last.v != 1 && last.v != 2) ||
      (onesided && (an_attr_int(n, "inverse", 0) != 0 || !last.known || last.v != 1))) {
    return an_set_unknown_dims(c, out, x->rank);
  }
  an_elem len = in(c, n, 1) != NULL ? scalar_size(c, n, 1) : x->dims[axis];
  out->dims[axis] = an_is_set(len) ? spectrum_bins(c, len, onesided) : an_unknown();
  return 1;
}

/* STFT: signal [B, L, 1 or 2] to [B, frames, bins, 2]: frames =
 * floor((L - frame_length)/frame_step) + 1, bins the one-sided spectrum
 * of frame_length (input 3, or the window's length) unless onesided is
 * 0. */
static int eval_stft(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0), *win = in(c, n, 2);
  if (out == NULL || x == NULL) return 1;
  out->type = x->type;
  an_elem step = scalar_size(c, n, 1);
  an_elem len = in(c, n, 3) != NULL ? scalar_size(c, n, 3)
                : win != NULL && win->rank_known && win->rank == 1 ? win->dims[0]
                                                                   : an_unknown();
  an_elem dims[4] = {an_unknown(), an_unknown(), an_unknown(), an_num(2)};
  if (x->rank_known && x->rank == 3) {
    dims[0] = x->dims[0];
    an_elem span = an_expr_sub(c->x, x->dims[1], len);
    if (step.known && an_is_set(span) && !(span.known && span.v < 0))
      dims[1] = an_expr_add(c->x, an_expr_floor_div(c->x, span, step.v), an_num(1));
  }
  if (an_is_set(len)) dims[2] = spectrum_bins(c, len, an_attr_int(n, "onesided", 1) != 0);
  return an_set_dims(c, out, dims, 4);
}

/* MelWeightMatrix: [floor(dft_length/2) + 1, num_mel_bins], of type
 * output_datatype (float by default). */
static int eval_mel_weight_matrix(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  if (out == NULL) return 1;
  int64_t t = an_attr_int(n, "output_datatype", ONNXSHAPE_TYPE_FLOAT);
  out->type = t > 0 && t <= ONNXSHAPE_TYPE_LAST ? (int32_t)t : 0;
  an_elem len = scalar_size(c, n, 1);
  an_elem dims[2] = {an_is_set(len) ? spectrum_bins(c, len, 1) : an_unknown(), scalar_size(c, n, 0)};
  return an_set_dims(c, out, dims, 2);
}

AN_HANDLER(conv, eval_conv(c, n, CONV_FLOAT))
AN_HANDLER(conv_integer, eval_conv(c, n, CONV_INTEGER))
AN_HANDLER(qlinear_conv, eval_conv(c, n, CONV_QLINEAR))
AN_HANDLER(conv_transpose, eval_conv(c, n, CONV_TRANSPOSE))
AN_HANDLER(pool, eval_pool(c, n))
AN_HANDLER(global_pool, eval_global_pool(c, n))
AN_HANDLER(rnn, eval_rnn(c, n))
AN_HANDLER(reverse_sequence, eval_det_like(c, n, 0))
AN_HANDLER(det, eval_det_like(c, n, 2))
AN_HANDLER(non_max_suppression, eval_nms(c, n))
AN_HANDLER(window_function, eval_window_fn(c, n))
AN_HANDLER(roi, eval_roi(c, n))
AN_HANDLER(grid_sample, eval_grid_sample(c, n))
AN_HANDLER(max_unpool, eval_max_unpool(c, n))
AN_HANDLER(affine_grid, eval_affine_grid(c, n))
AN_HANDLER(center_crop_pad, eval_center_crop_pad(c, n))
AN_HANDLER(col2im, eval_col2im(c, n))
AN_HANDLER(dft, eval_dft(c, n))
AN_HANDLER(stft, eval_stft(c, n))
AN_HANDLER(mel_weight_matrix, eval_mel_weight_matrix(c, n))
