/* SPDX-License-Identifier: Apache-2.0 */
/* The matrix products (docs/analysis.md): MatMul, MatMulInteger,
 * QLinearMatMul (numpy's matmul: a 1-D operand promoted and its dim
 * removed again, the batch dims broadcast), Gemm (two matrices, each maybe
 * transposed), Einsum and Attention; beside Attention, the recurrent
 * operators of opset 27, LinearAttention and CausalConvWithState. The inner
 * dims a valid model makes equal are recorded as equal; two known ones that
 * differ are an error at run time, and leave the output's dims unknown. */
#include <string.h>

#include "analysis.h"

/* 1 when the inner dims k_a and k_b can agree (then recorded as equal). */
static int inner_dims(an_ctx *c, an_elem k_a, an_elem k_b) {
  if (k_a.known && k_b.known && k_a.v != k_b.v) return 0;
  an_equate(c, k_a, k_b);
  return 1;
}

/* out's dims: matmul(a, b)'s. Returns 0 when out of budget or memory. */
static int matmul_dims(an_ctx *c, slot_info *out, const slot_info *a, const slot_info *b) {
  if (a == NULL || b == NULL || !a->rank_known || !b->rank_known || a->rank == 0 ||
      b->rank == 0) {
    return 1;
  }
  size_t ra = a->rank, rb = b->rank;
  if (!inner_dims(c, a->dims[ra - 1], b->dims[rb >= 2 ? rb - 2 : 0])) return 1;
  /* The batch dims: all but the last two of each (none of a 1-D one). */
  slot_info ba = {0}, bb = {0}, batch = {0};
  ba.rank_known = bb.rank_known = 1;
  ba.rank = ra >= 2 ? ra - 2 : 0;
  bb.rank = rb >= 2 ? rb - 2 : 0;
  ba.dims = a->dims;
  bb.dims = b->dims;
  slot_info *both[2] = {&ba, &bb};
  if (!an_broadcast(c, &batch, both, 2)) return 0;
  size_t r = batch.rank + (ra >= 2) + (rb >= 2);
  if (!an_set_rank(c, out, r)) return 0;
  if (batch.rank > 0) memcpy(out->dims, batch.dims, batch.rank * sizeof *batch.dims);
  size_t k = batch.rank;
  if (ra >= 2) out->dims[k++] = a->dims[ra - 2];
  if (rb >= 2) out->dims[k] = b->dims[rb - 1];
  return 1;
}

/* MatMul (the type of A), MatMulInteger (int32), QLinearMatMul (A at
 * input 0, B at 3, the type of y_zero_point at 7). */
static int eval_matmul(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  int q = n->op == OP_QLINEAR_MATMUL;
  const slot_info *a = in(c, n, 0), *b = in(c, n, q ? 3 : 1);
  const slot_info *typed = q ? in(c, n, 7) : a;
  out->type = n->op == OP_MATMUL_INTEGER ? ONNXSHAPE_TYPE_INT32 : typed != NULL ? typed->type : 0;
  return matmul_dims(c, out, a, b);
}

/* Gemm: [M, N] from A (M, K), or (K, M) with transA, and B (K, N), or (N,
 * K) with transB; C only broadcasts to it. */
static int eval_gemm(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *a = in(c, n, 0), *b = in(c, n, 1);
  if (a == NULL) return 1;
  out->type = a->type;
  if (b == NULL || !a->rank_known || !b->rank_known || a->rank != 2 || b->rank != 2) return 1;
  int ta = an_attr_int(n, "transA", 0) != 0, tb = an_attr_int(n, "transB", 0) != 0;
  if (!inner_dims(c, a->dims[ta ? 0 : 1], b->dims[tb ? 1 : 0])) return 1;
  if (!an_set_rank(c, out, 2)) return 0;
  out->dims[0] = a->dims[ta ? 1 : 0];
  out->dims[1] = b->dims[tb ? 0 : 1];
  return 1;
}

/* ---- Einsum ------------------------------------------------------------------ */

/* A letter's index 0..51, or -1. */
static int letter(char ch) {
  return ch >= 'a' && ch <= 'z' ? ch - 'a' : ch >= 'A' && ch <= 'Z' ? 26 + (ch - 'A') : -1;
}

/* The dim of a letter seen as d before and now as e: a number other than 1
 * wins (a valid model has the others 1 or equal), else the one expression;
 * two that differ leave it unknown (*bad). */
static an_elem letter_dim(an_ctx *c, an_elem d, an_elem e, int *bad) {
  if (d.known && e.known && d.v != 1 && e.v != 1 && d.v != e.v) *bad = 1;
  if (d.known && d.v != 1) return d;
  if (e.known && e.v != 1) return e;
  if (d.known) return e; /* d is 1 */
  if (e.known) return d;
  return an_is_set(d) && an_is_set(e) && same_elem(c, d, e) ? d : an_unknown();
}

/* Einsum's input terms (letters only: an ellipsis is not evaluated) read
 * against the inputs' dims: each letter's dim in dim[], its uses in
 * uses[]; 1, or 0 when a term does not match its input's rank. */
static int einsum_inputs(an_ctx *c, const graph_node *n, const char *eq, size_t len,
                         an_elem *dim, unsigned *uses, size_t *end) {
  size_t k = 0, i = 0;
  int bad = 0;
  while (k < n->n_inputs) {
    const slot_info *x = in(c, n, k);
    if (x == NULL || !x->rank_known) return 0;
    size_t r = 0;
    for (; i < len && eq[i] != ',' && eq[i] != '-'; i++) {
      int l = letter(eq[i]);
      if (eq[i] == ' ') continue;
      if (l < 0 || r >= x->rank) return 0;
      dim[l] = uses[l]++ == 0 ? x->dims[r] : letter_dim(c, dim[l], x->dims[r], &bad);
      r++;
    }
    if (r != x->rank || bad) return 0;
    k++;
    if (i < len && eq[i] == ',') i++;
    else break;
  }
  *end = i;
  return k == n->n_inputs && (i == len || (i + 1 < len && eq[i] == '-' && eq[i + 1] == '>'));
}

/* Einsum (equation without an ellipsis): the output's letters (after
 * "->", or, implicitly, those used once in index order; onnxruntime and
 * numpy order upper and lower case letters differently, so an implicit
 * output of both cases is not evaluated), each its dim. */
static int eval_einsum(an_ctx *c, const graph_node *n) {
  slot_info *out = an_out(c, n, 0);
  const slot_info *x = in(c, n, 0);
  const node_attr *a = an_attr(n, "equation");
  if (x != NULL) out->type = x->type;
  if (a == NULL || a->type != ATTR_STRING || n->n_inputs == 0) return 1;
  const char *eq = (const char *)a->s.data;
  size_t len = a->s.length, end;
  an_elem dim[52];
  unsigned uses[52] = {0};
  if (!an_charge(c, len)) return 0;
  if (!einsum_inputs(c, n, eq, len, dim, uses, &end)) return 1;
  char outs[52];
  size_t r = 0, lower = 0;
  if (end < len) {
    for (size_t i = end + 2; i < len; i++) {
      int l = letter(eq[i]);
      if (eq[i] == ' ') continue;
      if (l < 0 || uses[l] == 0 || r == 52 || memchr(outs, eq[i], r) != NULL) return 1;
      outs[r++] = eq[i];
    }
  } else {
    for (int l = 0; l < 52; l++) {
      if (uses[l] == 1) outs[r++] = (char)(l < 26 ? 'a' + l : 'A' + (l - 26));
      lower += uses[l] == 1 && l < 26;
    }
    if (lower != 0 && lower != r) return 1;
  }
  if (!an_set_rank(c, out, r)) return 0;
  for (size_t i = 0; i < r; i++) out->dims[i] = dim[letter(outs[i])];
  return 1;
}

/* ---- Attention ---------------------------------------------------------------- */

/* The dim a valid model makes equal in a and b: a number if either is one,
 * else a's expression (recorded as equal to b's). */
static an_elem same_dim(an_ctx *c, an_elem a, an_elem b) {
  if (an_is_set(a) && an_is_set(b)) an_equate(c, a, b);
  return a.known || !an_is_set(b) ? a : b.known || !an_is_set(a) ? b : a;
}

/* The dims of Attention's inputs, read in the 4-D layout (batch, heads,
 * sequence, head size); from 3-D inputs (batch, sequence, hidden) through
 * q_num_heads and kv_num_heads. 0 when they are not all 3-D or all 4-D,
 * or (3-D) a head count is missing or not positive. */
typedef struct attention_dims {
  an_elem batch, q_heads, q_seq, kv_heads, kv_seq, head, v_head, total;
  int three_d;
} attention_dims;

static int attention_read(an_ctx *c, const graph_node *n, attention_dims *a) {
  const slot_info *q = in(c, n, 0), *k = in(c, n, 1), *v = in(c, n, 2);
  if (q == NULL || k == NULL || v == NULL || !q->rank_known || !k->rank_known ||
      !v->rank_known || q->rank != k->rank || q->rank != v->rank ||
      (q->rank != 3 && q->rank != 4)) {
    return 0;
  }
  a->batch = same_dim(c, same_dim(c, q->dims[0], k->dims[0]), v->dims[0]);
  a->three_d = q->rank == 3;
  if (a->three_d) {
    int64_t qh = an_attr_int(n, "q_num_heads", 0), kvh = an_attr_int(n, "kv_num_heads", 0);
    if (qh <= 0 || kvh <= 0) return 0;
    a->q_heads = an_num(qh);
    a->kv_heads = an_num(kvh);
    a->q_seq = q->dims[1];
    a->kv_seq = same_dim(c, k->dims[1], v->dims[1]);
    a->head = an_div_valid(c, k->dims[2], kvh);
    a->v_head = an_div_valid(c, v->dims[2], kvh);
  } else {
    a->q_heads = q->dims[1];
    a->kv_heads = same_dim(c, k->dims[1], v->dims[1]);
    a->q_seq = q->dims[2];
    a->kv_seq = same_dim(c, k->dims[2], v->dims[2]);
    a->head = same_dim(c, q->dims[3], k->dims[3]);
    a->v_head = v->dims[3];
  }
  /* total_sequence_length: past_sequence_length (past_key's dim 2) plus
   * kv_sequence_length. */
  const slot_info *past = n->n_inputs > 4 ? in(c, n, 4) : NULL;
  a->total = a->kv_seq;
  if (past != NULL) {
    an_elem p = past->rank_known && past->rank == 4 ? past->dims[2] : an_unknown();
    a->total = an_is_set(p) && an_is_set(a->kv_seq) ? an_expr_add(c->x, p, a->kv_seq)
                                                      : an_unknown();
  }
  return 1;
}

/* Attention (23 on): Y is Q's type, (batch, q_heads, q_seq, v_head), or
 * 3-D (batch, q_seq, q_heads * v_head); present_key (K's type) and
 * present_value (V's) are (batch, kv_heads, total, head or v_head);
 * qk_matmul_output (Q's type) is (batch, q_heads, q_seq, total), where
 * total is past_key's sequence length plus K's. */
static int eval_attention(an_ctx *c, const graph_node *n) {
  const slot_info *q = in(c, n, 0), *k = in(c, n, 1), *v = in(c, n, 2);
  slot_info *out[4];
  for (size_t i = 0; i < 4; i++) out[i] = an_out(c, n, i);
  if (out[0] != NULL && q != NULL) out[0]->type = q->type;
  if (out[1] != NULL && k != NULL) out[1]->type = k->type;
  if (out[2] != NULL && v != NULL) out[2]->type = v->type;
  if (out[3] != NULL && q != NULL) out[3]->type = q->type;
  attention_dims a;
  if (!attention_read(c, n, &a)) return 1;
  if (out[0] != NULL) {
    an_elem y3[3] = {a.batch, a.q_seq, an_expr_mul(c->x, a.q_heads, a.v_head)};
    an_elem y4[4] = {a.batch, a.q_heads, a.q_seq, a.v_head};
    if (!an_set_dims(c, out[0], a.three_d ? y3 : y4, a.three_d ? 3 : 4)) return 0;
  }
  an_elem pk[4] = {a.batch, a.kv_heads, a.total, a.head};
  an_elem pv[4] = {a.batch, a.kv_heads, a.total, a.v_head};
  an_elem qk[4] = {a.batch, a.q_heads, a.q_seq, a.total};
  if (out[1] != NULL && !an_set_dims(c, out[1], pk, 4)) return 0;
  if (out[2] != NULL && !an_set_dims(c, out[2], pv, 4)) return 0;
  if (out[3] != NULL && !an_set_dims(c, out[3], qk, 4)) return 0;
  return 1;
}

/* ---- LinearAttention and CausalConvWithState (27) ------------------------------ */

/* Their T (and LinearAttention's S): float, float16 or bfloat16. */
static int recurrent_type(int32_t t) {
  return t == ONNXSHAPE_TYPE_FLOAT || t == ONNXSHAPE_TYPE_FLOAT16 || t == ONNXSHAPE_TYPE_BFLOAT16;
}

/* The type the present ones of inputs ks[0..m) share (0 when none is
 * known), or -1 when one is not a recurrent_type or two differ. */
static int32_t shared_type(an_ctx *c, const graph_node *n, const size_t *ks, size_t m) {
  int32_t t = 0;
  for (size_t i = 0; i < m; i++) {
    int32_t u = an_type_of(in(c, n, ks[i]));
    if (u == 0) continue;
    if (!recurrent_type(u) || (t != 0 && u != t)) return -1;
    t = u;
  }
  return t;
}

/* x's dims when it has rank r; NULL when x is absent or of unknown rank;
 * *bad when its rank is another. */
static const an_elem *dims_of_rank(const slot_info *x, size_t r, int *bad) {
  if (x == NULL || !x->rank_known) return NULL;
  if (x->rank != r) *bad = 1;
  return x->rank == r ? x->dims : NULL;
}

/* Element k of dims d, or unknown when d is NULL. */
static an_elem dim_at(const an_elem *d, size_t k) { return d != NULL ? d[k] : an_unknown(); }

/* 0 when two of d[0..m) are numbers that differ (a valid model has them
 * equal). */
static int dims_agree(const an_elem *d, size_t m) {
  for (size_t i = 0; i < m; i++) {
    for (size_t j = i + 1; j < m; j++) {
      if (d[i].known && d[j].known && d[i].v != d[j].v) return 0;
    }
  }
  return 1;
}

/* The one dim d[0..m) are in a valid model (dims_agree): a number if one
 * is, else the first expression, the others recorded as equal to it. */
static an_elem one_dim(an_ctx *c, const an_elem *d, size_t m) {
  an_elem r = an_unknown();
  for (size_t i = 0; i < m; i++) r = an_is_set(r) ? same_dim(c, r, d[i]) : d[i];
  return r;
}

/* A STRING attribute `name` that is absent (the default, def) or one of
 * values[0..m): its index, or -1. */
static int string_choice(const graph_node *n, const char *name, int def, const char *const *values,
                         int m) {
  if (!an_has_attr(n, name)) return def;
  for (int i = 0; i < m; i++) {
    if (an_attr_is(n, name, values[i])) return i;
  }
  return -1;
}

/* LinearAttention (27): query, key, value (B, T, H_q * d_k), (B, T, H_kv
 * * d_k), (B, T, H_kv * d_v); past_state (B, H_kv, d_k, d_v); decay (B,
 * T, H_kv * d_k or H_kv), beta (B, T, H_kv or 1), required by the update
 * rules with a gate or a delta and refused by the others. output is T,
 * (B, T, H_q * d_v); present_state is (B, H_kv, d_k, d_v), of past_state's
 * type S, or T without past_state. q_num_heads must be a positive
 * multiple of kv_num_heads, the packed dims multiples of their heads. */
static int eval_linear_attention(an_ctx *c, const graph_node *n) {
  static const char *const rules[] = {"linear", "gated", "delta", "gated_delta"};
  static const size_t t_inputs[] = {0, 1, 2, 4, 5}, s_inputs[] = {3};
  slot_info *y = an_out(c, n, 0), *present = an_out(c, n, 1);
  const slot_info *x[6];
  for (size_t k = 0; k < 6; k++) x[k] = in(c, n, k);
  int64_t hq = an_attr_int(n, "q_num_heads", 0), hkv = an_attr_int(n, "kv_num_heads", 0);
  int rule = string_choice(n, "update_rule", 3, rules, 4);
  int32_t t = shared_type(c, n, t_inputs, 5), s = shared_type(c, n, s_inputs, 1);
  /* gated and gated_delta take decay, delta and gated_delta beta. */
  if (x[0] == NULL || x[1] == NULL || x[2] == NULL || hq <= 0 || hkv <= 0 || hq % hkv != 0 ||
      rule < 0 || (x[4] != NULL) != (rule == 1 || rule == 3) ||
      (x[5] != NULL) != (rule == 2 || rule == 3) || t < 0 || s < 0) {
    return 1;
  }
  int bad = 0;
  const an_elem *q = dims_of_rank(x[0], 3, &bad), *k = dims_of_rank(x[1], 3, &bad);
  const an_elem *v = dims_of_rank(x[2], 3, &bad), *p = dims_of_rank(x[3], 4, &bad);
  const an_elem *g = dims_of_rank(x[4], 3, &bad), *b = dims_of_rank(x[5], 3, &bad);
  if (bad) return 1;
  an_elem q_pack = dim_at(q, 2), k_pack = dim_at(k, 2), v_pack = dim_at(v, 2);
  if ((q_pack.known && q_pack.v % hq != 0) || (k_pack.known && k_pack.v % hkv != 0) ||
      (v_pack.known && v_pack.v % hkv != 0)) {
    return 1;
  }
  an_elem batch[6] = {dim_at(q, 0), dim_at(k, 0), dim_at(v, 0), dim_at(p, 0), dim_at(g, 0),
                      dim_at(b, 0)};
  an_elem seq[5] = {dim_at(q, 1), dim_at(k, 1), dim_at(v, 1), dim_at(g, 1), dim_at(b, 1)};
  an_elem heads[2] = {an_num(hkv), dim_at(p, 1)};
  an_elem dk[3] = {dim_at(p, 2), an_div_valid(c, q_pack, hq), an_div_valid(c, k_pack, hkv)};
  an_elem dv[2] = {dim_at(p, 3), an_div_valid(c, v_pack, hkv)};
  if (!dims_agree(batch, 6) || !dims_agree(seq, 5) || !dims_agree(heads, 2) ||
      !dims_agree(dk, 3) || !dims_agree(dv, 2)) {
    return 1;
  }
  /* decay's last dim: H_kv, or H_kv * d_k (a multiple of H_kv while d_k is
   * not a number); beta's: H_kv or 1. */
  an_elem g_last = dim_at(g, 2), b_last = dim_at(b, 2);
  const an_elem *dk_num = dk[0].known ? &dk[0] : dk[1].known ? &dk[1] : &dk[2];
  if (g_last.known && g_last.v != hkv &&
      (g_last.v % hkv != 0 || (dk_num->known && g_last.v / hkv != dk_num->v))) {
    return 1;
  }
  if (b_last.known && b_last.v != 1 && b_last.v != hkv) return 1;
  an_elem bt = one_dim(c, batch, 6), sq = one_dim(c, seq, 5);
  an_elem d_k = one_dim(c, dk, 3), d_v = one_dim(c, dv, 2);
  (void)one_dim(c, heads, 2);
  if (y != NULL) {
    /* H_q * d_v: (H_q / H_kv) * value's packed dim unless d_v is a number. */
    an_elem last = !d_v.known && an_is_set(v_pack) ? an_expr_mul(c->x, an_num(hq / hkv), v_pack)
                                                   : an_expr_mul(c->x, an_num(hq), d_v);
    an_elem dims[3] = {bt, sq, last};
    y->type = t;
    if (!an_set_dims(c, y, dims, 3)) return 0;
  }
  if (present != NULL) {
    an_elem dims[4] = {bt, an_num(hkv), d_k, d_v};
    present->type = x[3] != NULL ? s : t;
    if (!an_set_dims(c, present, dims, 4)) return 0;
  }
  return 1;
}

/* CausalConvWithState (27): input (B, C, L), weight (C, 1, k), k at least
 * 1, bias (C), past_state (B, C, k - 1), all of one type T; activation
 * none, silu or swish. output is the input's (B, C, L), present_state (B,
 * C, k - 1). */
static int eval_causal_conv(an_ctx *c, const graph_node *n) {
  static const char *const activations[] = {"none", "silu", "swish"};
  static const size_t t_inputs[] = {0, 1, 2, 3};
  slot_info *y = an_out(c, n, 0), *present = an_out(c, n, 1);
  const slot_info *x = in(c, n, 0), *w = in(c, n, 1);
  int32_t t = shared_type(c, n, t_inputs, 4);
  if (x == NULL || w == NULL || t < 0 || string_choice(n, "activation", 0, activations, 3) < 0) {
    return 1;
  }
  int bad = 0;
  const an_elem *xd = dims_of_rank(x, 3, &bad), *wd = dims_of_rank(w, 3, &bad);
  const an_elem *bd = dims_of_rank(in(c, n, 2), 1, &bad), *pd = dims_of_rank(in(c, n, 3), 3, &bad);
  an_elem one = dim_at(wd, 1), k = dim_at(wd, 2);
  if (bad || (one.known && one.v != 1) || (k.known && k.v < 1)) return 1;
  an_elem batch[2] = {dim_at(xd, 0), dim_at(pd, 0)};
  an_elem chans[4] = {dim_at(xd, 1), dim_at(wd, 0), dim_at(bd, 0), dim_at(pd, 1)};
  an_elem carry[2] = {an_expr_sub(c->x, k, an_num(1)), dim_at(pd, 2)};
  if (!dims_agree(batch, 2) || !dims_agree(chans, 4) || !dims_agree(carry, 2)) return 1;
  an_elem bt = one_dim(c, batch, 2), ch = one_dim(c, chans, 4), km1 = one_dim(c, carry, 2);
  if (y != NULL) {
    an_elem dims[3] = {bt, ch, dim_at(xd, 2)};
    y->type = t;
    if (!an_set_dims(c, y, dims, 3)) return 0;
  }
  if (present != NULL) {
    an_elem dims[3] = {bt, ch, km1};
    present->type = t;
    if (!an_set_dims(c, present, dims, 3)) return 0;
  }
  return 1;
}

AN_HANDLER(attention, eval_attention(c, n))
AN_HANDLER(linear_attention, eval_linear_attention(c, n))
AN_HANDLER(causal_conv_with_state, eval_causal_conv(c, n))
AN_FIRST_OUTPUT(matmul, eval_matmul(c, n))
AN_FIRST_OUTPUT(gemm, eval_gemm(c, n))
AN_FIRST_OUTPUT(einsum, eval_einsum(c, n))
