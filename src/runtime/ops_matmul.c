/* SPDX-License-Identifier: Apache-2.0 */
/* The matrix products (docs/analysis.md): MatMul, MatMulInteger,
 * QLinearMatMul (numpy's matmul: a 1-D operand promoted and its dim
 * removed again, the batch dims broadcast), Gemm (two matrices, each maybe
 * transposed) and Einsum. The inner dims a valid model makes equal are
 * recorded as equal; two known ones that differ are an error at run time,
 * and leave the output's dims unknown. */
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

AN_FIRST_OUTPUT(matmul, eval_matmul(c, n))
AN_FIRST_OUTPUT(gemm, eval_gemm(c, n))
AN_FIRST_OUTPUT(einsum, eval_einsum(c, n))
