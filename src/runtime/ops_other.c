/* SPDX-License-Identifier: Apache-2.0 */
/* The operators of no larger family: the random generators (RandomNormal,
 * RandomUniform and their Like forms, Bernoulli, Multinomial), EyeLike,
 * the cumulative operators (CumSum, CumProd), BitCast, SwiGLU, the losses
 * (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), the string
 * operators (StringNormalizer, StringSplit), OptionalHasElement,
 * OptionalGetElement, SequenceLength, ImageDecoder and TfIdfVectorizer. Each
 * gives the element type and dims its specification fixes; where an
 * attribute or input makes the node fail (a type outside the operator's
 * constraint, an axis out of range, a rank the operator does not take), the
 * outputs are left unknown. */

#include "analysis.h"

/* ---- element types -------------------------------------------------------------- */

/* 1 when t is a floating-point type of the random operators' constraint:
 * float16, float, double, and bfloat16 from version 22. */
static int random_float_type(int32_t t, int version) {
  return t == ONNXSHAPE_TYPE_FLOAT16 || t == ONNXSHAPE_TYPE_FLOAT || t == ONNXSHAPE_TYPE_DOUBLE ||
         (t == ONNXSHAPE_TYPE_BFLOAT16 && version >= 22);
}

/* 1 when t is a number or bool type of EyeLike's and Bernoulli's output
 * constraint: the float types above, the 8- to 64-bit integers and bool. */
static int numeric_type(int32_t t, int version) {
  switch (t) {
    case ONNXSHAPE_TYPE_UINT8:
    case ONNXSHAPE_TYPE_INT8:
    case ONNXSHAPE_TYPE_UINT16:
    case ONNXSHAPE_TYPE_INT16:
    case ONNXSHAPE_TYPE_INT32:
    case ONNXSHAPE_TYPE_INT64:
    case ONNXSHAPE_TYPE_UINT32:
    case ONNXSHAPE_TYPE_UINT64:
    case ONNXSHAPE_TYPE_BOOL:
      return 1;
    default:
      return random_float_type(t, version);
  }
}

/* The type attribute `name` names, `def` when it is absent (0: the input's
 * type `from`); 0 when it is not an INT or names no type that ok() accepts
 * (the node fails: its outputs stay unknown). */
static int32_t type_attr(const graph_node *n, const char *name, int32_t def, int32_t from,
                         int (*ok)(int32_t, int)) {
  const node_attr *a = an_attr(n, name);
  int64_t t = def != 0 ? def : from;
  if (a != NULL) t = a->type == ATTR_INT ? a->i : 0;
  return t > 0 && t <= ONNXSHAPE_TYPE_LAST && ok((int32_t)t, n->version) ? (int32_t)t : 0;
}

/* ---- generators ------------------------------------------------------------------ */

/* RandomNormal, RandomUniform: the dims of the `shape` attribute (each >=
 * 0), of `dtype` (default float). */
static int eval_random(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  int32_t t = type_attr(n, "dtype", ONNXSHAPE_TYPE_FLOAT, 0, random_float_type);
  const node_attr *a = an_attr(n, "shape");
  if (t == 0 || a == NULL || a->type != ATTR_INTS) return 1;
  size_t rank = a->n_ints;
  const int64_t *shape = a->ints;
  for (size_t i = 0; i < rank; i++) {
    if (shape[i] < 0) return 1;
  }
  if (!an_afford(c, n, rank) || !an_set_rank(c, out, rank)) return 0;
  out->type = t;
  for (size_t i = 0; i < rank; i++) out->dims[i] = an_num(shape[i]);
  return 1;
}

/* RandomNormalLike, RandomUniformLike: the input's dims, of `dtype` (else
 * the input's type), a float type. Bernoulli: the same, the input a float
 * type and `dtype` any number or bool type. */
static int eval_random_like(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  int bernoulli = n->op == OP_BERNOULLI;
  if (x == NULL || (bernoulli && x->type != 0 && !random_float_type(x->type, n->version))) return 1;
  int32_t t = type_attr(n, "dtype", 0, x->type, bernoulli ? numeric_type : random_float_type);
  if (t == 0 && (x->type != 0 || an_has_attr(n, "dtype"))) return 1;
  return an_like(c, n, 0, x, t);
}

/* Multinomial: [batch_size, sample_size] of `dtype` (int32 or int64,
 * default int32) for an input [batch_size, class_size]. */
static int multinomial_type(int32_t t, int version) {
  (void)version;
  return t == ONNXSHAPE_TYPE_INT32 || t == ONNXSHAPE_TYPE_INT64;
}

static int eval_multinomial(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  int32_t t = type_attr(n, "dtype", ONNXSHAPE_TYPE_INT32, 0, multinomial_type);
  int64_t samples = an_attr_int(n, "sample_size", 1);
  if (x == NULL || t == 0 || samples < 0 || (x->rank_known && x->rank != 2)) return 1;
  out->type = t;
  if (!x->rank_known) return 1;
  if (!an_set_rank(c, out, 2)) return 0;
  out->dims[0] = x->dims[0];
  out->dims[1] = an_num(samples);
  return 1;
}

/* EyeLike: the 2-D input's dims, of `dtype` (else the input's type). */
static int eval_eye_like(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  if (x == NULL || (x->rank_known && x->rank != 2)) return 1;
  int32_t t = type_attr(n, "dtype", 0, x->type, numeric_type);
  if (t == 0 && (x->type != 0 || an_has_attr(n, "dtype"))) return 1;
  return an_like(c, n, 0, x, t);
}

/* ---- an input's dims ------------------------------------------------------------- */

/* CumSum, CumProd: x's type and dims, when the axis (a scalar or 1-element
 * input) is not known to be outside [-r, r-1]. */
static int eval_cumulative(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0), *axis = in(c, n, 1);
  if (x == NULL) return 1;
  if (x->rank_known && axis != NULL && axis->vals_known && axis->n_vals == 1 &&
      axis->vals[0].known && an_norm_axis(axis->vals[0].v, x->rank, 1) < 0) {
    return 1;
  }
  return an_like(c, n, 0, x, x->type);
}

/* BitCast: the input's dims, of type `to`, which must have the input's
 * bit width (neither a string). */
static int eval_bit_cast(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  int64_t to = an_attr_int(n, "to", 0);
  const onnxshape_type_info *want =
      to > 0 && to <= ONNXSHAPE_TYPE_LAST ? onnxshape_type_get((int32_t)to) : NULL;
  if (x == NULL || want == NULL || want->bits == 0) return 1;
  const onnxshape_type_info *have = x->type != 0 ? onnxshape_type_get(x->type) : NULL;
  if (have != NULL && have->bits != want->bits) return 1;
  return an_like(c, n, 0, x, want->type);
}

/* SwiGLU: A and B have the same dims (no broadcasting): the output has
 * them, each taken from whichever input knows it, and recorded equal. */
static int eval_swiglu(an_ctx *c, const graph_node *n) {
  const slot_info *a = in(c, n, 0), *b = in(c, n, 1);
  if (a == NULL || b == NULL) return 1;
  const slot_info *x = a->rank_known ? a : b;
  if (a->rank_known && b->rank_known) {
    if (a->rank != b->rank) return 1;
    for (size_t i = 0; i < a->rank; i++) {
      if (a->dims[i].known && b->dims[i].known && a->dims[i].v != b->dims[i].v) return 1;
    }
  }
  if (!an_like(c, n, 0, x, a->type)) return 0;
  slot_info *out = an_out(c, n, 0);
  if (!a->rank_known || !b->rank_known) return 1;
  for (size_t i = 0; i < a->rank; i++) {
    if (!an_is_set(a->dims[i])) {
      out->dims[i] = b->dims[i];
    } else if (an_is_set(b->dims[i])) {
      an_equate(c, a->dims[i], b->dims[i]);
    }
  }
  return 1;
}

/* NegativeLogLikelihoodLoss (input [N, C, d1, ..., dk], target [N, d1,
 * ..., dk]) and SoftmaxCrossEntropyLoss (scores, labels the same): with
 * reduction "none", the target's dims (input's without C); with "mean"
 * (the default) or "sum", a scalar; of the input's type. The second output
 * of SoftmaxCrossEntropyLoss, log_prob, has the scores' type and dims. */
static int eval_loss(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0), *t = in(c, n, 1);
  slot_info *out = an_out(c, n, 0);
  int none = an_attr_is(n, "reduction", "none");
  if (x == NULL || t == NULL) return 1;
  if (!none && an_has_attr(n, "reduction") && !an_attr_is(n, "reduction", "mean") &&
      !an_attr_is(n, "reduction", "sum")) {
    return 1;
  }
  if (x->rank_known && (x->rank < 2 || (t->rank_known && t->rank + 1 != x->rank))) return 1;
  if (n->op == OP_SOFTMAX_CROSS_ENTROPY_LOSS && !an_like(c, n, 1, x, x->type)) return 0;
  if (out == NULL) return 1;
  out->type = x->type;
  if (!none) return an_set_rank(c, out, 0);
  if (t->rank_known) return an_set_dims(c, out, t->dims, t->rank);
  if (!x->rank_known) return 1;
  if (!an_set_rank(c, out, x->rank - 1)) return 0;
  out->dims[0] = x->dims[0];
  for (size_t i = 2; i < x->rank; i++) out->dims[i - 1] = x->dims[i];
  return 1;
}

/* ---- strings and optionals ------------------------------------------------------- */

/* StringNormalizer: strings of X's dims ([C] or [1, C]); with stopwords,
 * the count left is data-dependent: a fresh symbol named after the node. */
static int eval_string_normalizer(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  if (x == NULL || (x->type != 0 && x->type != ONNXSHAPE_TYPE_STRING)) return 1;
  if (x->rank_known && x->rank != 1 && !(x->rank == 2 && x->dims[0].known && x->dims[0].v == 1)) {
    return 1;
  }
  const node_attr *sw = an_attr(n, "stopwords");
  int stop = sw != NULL && sw->type == ATTR_STRINGS && sw->n_strings > 0;
  if (!an_like(c, n, 0, x, ONNXSHAPE_TYPE_STRING)) return 0;
  if (stop && out->rank_known) out->dims[out->rank - 1] = an_expr_fresh(c->x, n->label);
  return 1;
}

/* StringSplit: Y, strings of X's dims and one more, the most substrings of
 * any element (data-dependent: a fresh symbol named after the node); Z,
 * int64 of X's dims. */
static int eval_string_split(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *y = an_out(c, n, 0);
  if (x == NULL || (x->type != 0 && x->type != ONNXSHAPE_TYPE_STRING)) return 1;
  if (!an_like(c, n, 1, x, ONNXSHAPE_TYPE_INT64)) return 0;
  if (y == NULL) return 1;
  y->type = ONNXSHAPE_TYPE_STRING;
  if (!x->rank_known) return 1;
  if (!an_set_rank(c, y, x->rank + 1)) return 0;
  for (size_t i = 0; i < x->rank; i++) y->dims[i] = x->dims[i];
  y->dims[x->rank] = an_expr_fresh(c->x, n->label);
  return 1;
}

/* OptionalHasElement: a bool scalar. */
static int eval_has_element(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  out->type = ONNXSHAPE_TYPE_BOOL;
  if (!an_set_rank(c, out, 0)) return 0;
  if (x == NULL || x->kind != AN_OPTIONAL || x->opt_has == 0) return 1;
  if (!an_set_vals(c, out, 1)) return 0;
  out->vals[0] = an_num(x->opt_has == AN_OPT_FULL);
  return 1;
}

/* OptionalGetElement: an optional's element (ops_sequence.c); from version
 * 18 a tensor input is passed through (a sequence, or anything else
 * nothing is known of, leaves the output unknown); version 15 takes
 * optionals only. */
static int eval_get_element(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  if (x == NULL || x->kind == AN_SEQUENCE) return 1;
  if (x->kind == AN_OPTIONAL) return x->elem == NULL || an_copy(c, an_out(c, n, 0), x->elem);
  if (n->version < 18) return 1;
  return an_copy(c, an_out(c, n, 0), x);
}

/* SequenceLength: an int64 scalar, the sequence's length when it is known
 * (ops_sequence.c). */
static int eval_sequence_length(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  out->type = ONNXSHAPE_TYPE_INT64;
  if (!an_set_rank(c, out, 0)) return 0;
  if (x == NULL || x->kind != AN_SEQUENCE || !an_is_set(x->seq_len)) return 1;
  if (!an_set_vals(c, out, 1)) return 0;
  out->vals[0] = x->seq_len;
  return 1;
}

/* ImageDecoder: uint8. An image decodes to [H, W, C], but a stream that
 * cannot be decoded gives "an empty matrix" of no stated rank, so the rank
 * is not known; an input of another type or rank than 1-D uint8 makes the
 * node fail (unknown). */
static int eval_image_decoder(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  if (x == NULL || (x->type != 0 && x->type != ONNXSHAPE_TYPE_UINT8)) return 1;
  if (x->rank_known && x->rank != 1) return 1;
  out->type = ONNXSHAPE_TYPE_UINT8;
  return 1;
}

/* TfIdfVectorizer: float, [D] for X of [C], [N, D] for X of [N, C], D =
 * max(ngram_indexes) + 1. X must be string, int32 or int64, ngram_indexes
 * non-empty with no negative value: otherwise the node fails (unknown). The
 * attribute's length is charged before the loop over it. */
static int eval_tfidf(an_ctx *c, const graph_node *n) {
  const slot_info *x = in(c, n, 0);
  slot_info *out = an_out(c, n, 0);
  if (x == NULL || (x->type != 0 && x->type != ONNXSHAPE_TYPE_STRING &&
                    x->type != ONNXSHAPE_TYPE_INT32 && x->type != ONNXSHAPE_TYPE_INT64)) {
    return 1;
  }
  size_t len = 0;
  const int64_t *idx = an_attr_ints(n, "ngram_indexes", &len);
  if (idx == NULL || len == 0) return 1;
  if (!an_charge(c, (uint64_t)len)) return 0;
  int64_t top = -1;
  for (size_t i = 0; i < len; i++) {
    if (idx[i] < 0) return 1;
    if (idx[i] > top) top = idx[i];
  }
  if (top == INT64_MAX) return 1;
  out->type = ONNXSHAPE_TYPE_FLOAT;
  if (!x->rank_known || x->rank < 1 || x->rank > 2) return 1;
  if (!an_set_rank(c, out, x->rank)) return 0;
  if (x->rank == 2) out->dims[0] = x->dims[0];
  out->dims[x->rank - 1] = an_num(top + 1);
  return 1;
}

/* ---- the handlers (called through the operator registry, registry.c) ---------- */

AN_FIRST_OUTPUT(random, eval_random(c, n))
AN_FIRST_OUTPUT(random_like, eval_random_like(c, n))
AN_FIRST_OUTPUT(multinomial, eval_multinomial(c, n))
AN_FIRST_OUTPUT(eye_like, eval_eye_like(c, n))
AN_FIRST_OUTPUT(cumulative, eval_cumulative(c, n))
AN_FIRST_OUTPUT(bit_cast, eval_bit_cast(c, n))
AN_FIRST_OUTPUT(swiglu, eval_swiglu(c, n))
AN_HANDLER(loss, eval_loss(c, n))
AN_FIRST_OUTPUT(string_normalizer, eval_string_normalizer(c, n))
AN_HANDLER(string_split, eval_string_split(c, n))
AN_FIRST_OUTPUT(has_element, eval_has_element(c, n))
AN_FIRST_OUTPUT(get_element, eval_get_element(c, n))
AN_FIRST_OUTPUT(sequence_length, eval_sequence_length(c, n))
AN_FIRST_OUTPUT(image_decoder, eval_image_decoder(c, n))
AN_FIRST_OUTPUT(tfidf, eval_tfidf(c, n))
