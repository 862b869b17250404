/* SPDX-License-Identifier: Apache-2.0 */
/* The elementwise family: operators whose output has an input's dims or
 * the broadcast of their inputs' dims (unary math and activations, the
 * normalizations, comparisons and logic, Pow, Mod, the bitwise operators,
 * Sum, Mean, PRelu, CastLike, Dropout, the quantizers). Element values are
 * kept for the integer operators shape computations use (comparisons,
 * logic, Mod, Neg, Abs, Clip: int_rule); the others' elements are floats (Sum
 * and Mean take floats only) or not needed. Where a version's rule does
 * not decide the output (an axis out of range, a legacy broadcast, an
 * attribute that contradicts an input), it is left unknown. */

#include "analysis.h"

/* ---- shared rules -------------------------------------------------------------- */


/* 1 when every one of the k inputs has a known rank and the same dims
 * (numbers or one expression each). */
static int same_dims(an_ctx *c, slot_info *const *ins, size_t k) {
  for (size_t i = 0; i < k; i++) {
    if (ins[i] == NULL || !ins[i]->rank_known || ins[i]->rank != ins[0]->rank) return 0;
    for (size_t d = 0; d < ins[0]->rank; d++) {
      if (!an_is_set(ins[0]->dims[d]) || !same_elem(c, ins[i]->dims[d], ins[0]->dims[d])) {
        return 0;
      }
    }
  }
  return 1;
}

/* The version from which op broadcasts multidirectionally: before it (the
 * `broadcast` and `axis` attributes of opset 1 to 6, Sum and Mean without
 * broadcasting before 8) only inputs of equal dims are evaluated. */
static int multidirectional_since(operator_id op) {
  return op == OP_SUM || op == OP_MEAN ? 8 : 7;
}

/* Output 0 of n as the broadcast of its inputs, element type `type`. */
static int broadcast_out(an_ctx *c, const graph_node *n, int32_t type) {
  slot_info *out = an_out(c, n, 0);
  size_t k = n->n_inputs;
  if (out == NULL || k == 0) return 1;
  slot_info *few[3];
  slot_info **ins = k <= 3 ? few : an_alloc(c, k, sizeof *ins);
  if (ins == NULL) return 0;
  for (size_t i = 0; i < k; i++) ins[i] = in(c, n, i);
  out->type = type;
  if (n->version < multidirectional_since(n->op)) {
    if (!an_charge(c, an_mul(k, ins[0] != NULL && ins[0]->rank_known ? ins[0]->rank : 0))) return 0;
    return !same_dims(c, ins, k) || an_set_dims(c, out, ins[0]->dims, ins[0]->rank);
  }
  return an_broadcast(c, out, ins, k);
}

/* ---- integer elements -------------------------------------------------------------- */

/* One element of the output from x and y (y unused by the unary rules),
 * elements of an integer or bool type `type`; unknown where not exact. */
typedef an_elem (*elem_rule)(an_ctx *c, const graph_node *n, an_elem x, an_elem y, int32_t type);

/* Greater, Less, GreaterOrEqual, LessOrEqual on numbers, or on one
 * expression (x compared with itself); And, Or, Xor on bools. */
static an_elem compare_elem(an_ctx *c, const graph_node *n, an_elem x, an_elem y, int32_t type) {
  (void)type;
  int logic = n->op == OP_AND || n->op == OP_OR || n->op == OP_XOR;
  if (!x.known || !y.known) {
    if (logic || !an_is_set(x) || !same_elem(c, x, y)) return an_unknown();
    return an_num(n->op == OP_GREATER_OR_EQUAL || n->op == OP_LESS_OR_EQUAL);
  }
  int64_t a = x.v, b = y.v;
  switch (n->op) {
    case OP_GREATER: return an_num(a > b);
    case OP_LESS: return an_num(a < b);
    case OP_GREATER_OR_EQUAL: return an_num(a >= b);
    case OP_LESS_OR_EQUAL: return an_num(a <= b);
    case OP_AND: return an_num(a != 0 && b != 0);
    case OP_OR: return an_num(a != 0 || b != 0);
    case OP_XOR: return an_num((a != 0) != (b != 0));
    default: return an_unknown();
  }
}

/* Mod: the remainder with the divisor's sign (fmod = 0) or the dividend's
 * (fmod = 1, C's fmod); a zero divisor is not determined. onnxruntime's
 * fmod goes through double: past 2^53, where that rounds, not evaluated. */
static an_elem mod_elem(an_ctx *c, const graph_node *n, an_elem x, an_elem y, int32_t type) {
  (void)c;
  (void)type;
  const int64_t exact = (int64_t)1 << 53;
  int fmod = an_attr_int(n, "fmod", 0) != 0;
  if (!x.known || !y.known || y.v == 0) return an_unknown();
  if (fmod && (x.v > exact || x.v < -exact || y.v > exact || y.v < -exact)) return an_unknown();
  if (y.v == -1) return an_num(0); /* INT64_MIN % -1 overflows in C */
  int64_t r = x.v % y.v;
  if (!fmod && r != 0 && (r < 0) != (y.v < 0)) r += y.v;
  return an_num(r);
}

/* Neg and Abs: exact, in the type's range; an int64 expression negated,
 * or kept by Abs when it is >= 0. */
static an_elem sign_elem(an_ctx *c, const graph_node *n, an_elem x, an_elem y, int32_t type) {
  (void)y;
  int neg = n->op == OP_NEG;
  if (x.known) {
    if (x.v == INT64_MIN) return an_unknown();
    return an_in_range(an_num(neg || x.v < 0 ? -x.v : x.v), type);
  }
  if (type != ONNXSHAPE_TYPE_INT64 || !an_is_set(x)) return an_unknown();
  if (neg) return an_expr_sub(c->x, an_num(0), x);
  return an_expr_nonneg(c->x, x) ? x : an_unknown();
}

/* Clip (integer types from 12): min(max(x, min), max), each bound a
 * one-element input or absent; int64 expressions through min and max. */
static an_elem clip_elem(an_ctx *c, const graph_node *n, an_elem x, an_elem y, int32_t type) {
  (void)y;
  if (n->version < 12) return an_unknown();
  for (size_t k = 1; k <= 2 && an_is_set(x); k++) {
    const slot_info *b = in(c, n, k);
    if (b == NULL) continue;
    an_elem v = b->vals_known && b->n_vals == 1 ? b->vals[0] : an_unknown();
    if (x.known && v.known) {
      x = (k == 1) == (x.v < v.v) ? v : x;
    } else if (type == ONNXSHAPE_TYPE_INT64 && an_is_set(v)) {
      x = k == 1 ? an_expr_max(c->x, x, v) : an_expr_min(c->x, x, v);
    } else {
      x = an_unknown();
    }
  }
  return x;
}

/* The rule of op's integer elements, or NULL (none kept). */
static elem_rule int_rule(operator_id op) {
  switch (op) {
    case OP_GREATER: case OP_LESS: case OP_GREATER_OR_EQUAL: case OP_LESS_OR_EQUAL:
    case OP_AND: case OP_OR: case OP_XOR: return compare_elem;
    case OP_MOD: return mod_elem;
    case OP_NEG: case OP_ABS: return sign_elem;
    case OP_CLIP: return clip_elem;
    default: return NULL;
  }
}

/* Output 0's elements by op's rule, folded over the inputs (applied once
 * to input 0 for a unary operator, whose rule reads any other input
 * itself), when the output is small and each input's elements are known,
 * of an integer or bool type, and as many as the output's or one (other
 * broadcasting is not followed). */
static int values_out(an_ctx *c, const graph_node *n, int unary) {
  elem_rule rule = int_rule(n->op);
  slot_info *out = an_out(c, n, 0);
  size_t count, k = unary ? 1 : n->n_inputs;
  if (rule == NULL || out == NULL || k == 0 || !is_int_type(out->type) || !small_count(out, &count)) {
    return 1;
  }
  for (size_t i = 0; i < k; i++) {
    const slot_info *s = in(c, n, i);
    if (s == NULL || !s->vals_known || !is_int_type(s->type) || (s->n_vals != count && s->n_vals != 1)) {
      return 1;
    }
  }
  if (!an_afford(c, n, an_mul(count, k))) return 1;
  if (!an_set_vals(c, out, count)) return 0;
  for (size_t f = 0; f < count; f++) {
    const slot_info *s = in(c, n, 0);
    an_elem acc = s->vals[s->n_vals == 1 ? 0 : f];
    if (unary) acc = rule(c, n, acc, acc, s->type);
    for (size_t i = 1; i < k; i++) {
      s = in(c, n, i);
      acc = rule(c, n, acc, s->vals[s->n_vals == 1 ? 0 : f], s->type);
    }
    out->vals[f] = acc;
  }
  return 1;
}

/* ---- same dims and type ---------------------------------------------------------- */

/* The unary operators, activations and the normalizations whose output is
 * their input X (input 0) as it is, dims and type. */
onnxshape_status onnxshape__an_op_unary(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  return an_done(an_like(c, n, 0, x, an_type_of(x)) && values_out(c, n, 1));
}

/* Softmax, LogSoftmax, Hardmax (axis 1 before 13, -1 from 13) and
 * LpNormalization (axis -1): X's dims when the axis is one of X's, else
 * nothing (the node fails). */
onnxshape_status onnxshape__an_op_unary_axis(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  int64_t def = n->op != OP_LP_NORMALIZATION && n->version < 13 ? 1 : -1;
  if (x != NULL && x->rank_known && an_norm_axis(an_attr_int(n, "axis", def), x->rank, 1) < 0) {
    return ONNXSHAPE_OK;
  }
  return an_done(an_like(c, n, 0, x, an_type_of(x)));
}

/* Trilu: X's dims; X of rank below 2 is an error. */
onnxshape_status onnxshape__an_op_trilu(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  if (x != NULL && x->rank_known && x->rank < 2) return ONNXSHAPE_OK;
  return an_done(an_like(c, n, 0, x, an_type_of(x)));
}

/* IsNaN, IsInf: bool of X's dims. */
onnxshape_status onnxshape__an_op_is_class(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return an_done(an_like(c, n, 0, in(c, n, 0), ONNXSHAPE_TYPE_BOOL));
}

/* CastLike: input 0's dims, target_type's (input 1's) element type. */
onnxshape_status onnxshape__an_op_cast_like(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return an_done(an_like(c, n, 0, in(c, n, 0), an_type_of(in(c, n, 1))));
}

/* Dropout: output as data; the optional mask of data's dims, of data's
 * type before 10 and bool from 10. */
onnxshape_status onnxshape__an_op_dropout(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  int32_t mask = n->version >= 10 ? ONNXSHAPE_TYPE_BOOL : an_type_of(x);
  return an_done(an_like(c, n, 0, x, an_type_of(x)) && an_like(c, n, 1, x, mask));
}

/* ---- broadcasting ------------------------------------------------------------------ */

/* Greater, Less, GreaterOrEqual, LessOrEqual, And, Or, Xor: bool of the
 * broadcast dims. */
onnxshape_status onnxshape__an_op_compare(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return an_done(broadcast_out(c, n, ONNXSHAPE_TYPE_BOOL) && values_out(c, n, 0));
}

/* Pow (the exponent's type may differ from 12), Mod, BitShift, BitwiseAnd,
 * BitwiseOr, BitwiseXor, Sum, Mean (any number of inputs): the first
 * input's type, the broadcast dims. */
onnxshape_status onnxshape__an_op_broadcast(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return an_done(broadcast_out(c, n, an_type_of(in(c, n, 0))) && values_out(c, n, 0));
}

/* PRelu: slope broadcasts to X (unidirectionally): X's type and the
 * broadcast dims when they keep X's rank (onnxruntime broadcasts both
 * ways; a valid model gives X's dims either way). Before 7, X's dims. */
onnxshape_status onnxshape__an_op_prelu(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  if (n->version < 7) return an_done(an_like(c, n, 0, x, an_type_of(x)));
  if (!broadcast_out(c, n, an_type_of(x))) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  slot_info *out = an_out(c, n, 0);
  if (out != NULL && out->rank_known && (x == NULL || !x->rank_known || out->rank != x->rank)) {
    out->rank_known = 0;
  }
  return ONNXSHAPE_OK;
}

/* ---- normalizations with statistics ------------------------------------------------ */

/* BatchNormalization: Y as X. From 14, in training mode, running_mean and
 * running_var as input_mean and input_var (shape [C], their type); the
 * extra outputs of earlier versions are left unknown. */
onnxshape_status onnxshape__an_op_batch_norm(an_ctx *c, const graph_node *n,
                                             onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  if (!an_like(c, n, 0, x, an_type_of(x))) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  if (n->version < 14 || an_attr_int(n, "training_mode", 0) != 1) return ONNXSHAPE_OK;
  const slot_info *mean = in(c, n, 3), *var = in(c, n, 4);
  return an_done(an_like(c, n, 1, mean, an_type_of(mean)) && an_like(c, n, 2, var, an_type_of(var)));
}

/* LayerNormalization: Y as X; Mean and InvStdDev of X's dims before axis
 * and 1 from it, of stash_type (float by default). An axis out of range
 * fails the node. */
onnxshape_status onnxshape__an_op_layer_norm(an_ctx *c, const graph_node *n,
                                             onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  int64_t axis = -1;
  if (x != NULL && x->rank_known) {
    axis = an_norm_axis(an_attr_int(n, "axis", -1), x->rank, 1);
    if (axis < 0) return ONNXSHAPE_OK;
  }
  int64_t stash = an_attr_int(n, "stash_type", ONNXSHAPE_TYPE_FLOAT);
  int32_t u = stash == ONNXSHAPE_TYPE_FLOAT ? ONNXSHAPE_TYPE_FLOAT : 0;
  if (!an_like(c, n, 0, x, an_type_of(x))) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t k = 1; k <= 2; k++) {
    slot_info *out = an_out(c, n, k);
    if (out == NULL) continue;
    if (!an_like(c, n, k, x, u)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    for (size_t d = (size_t)axis; out->rank_known && d < out->rank; d++) out->dims[d] = an_num(1);
  }
  return ONNXSHAPE_OK;
}

/* ---- quantization ------------------------------------------------------------------- */

/* 1 when t is one of QuantizeLinear-v's output types (output_dtype, from
 * 21): 8- and 16-bit integers, float8 and 4-bit integers, float4e2m1 from
 * 23, 2-bit integers from 25. */
static int quantized_type(int64_t t, int v) {
  return (t >= ONNXSHAPE_TYPE_UINT8 && t <= ONNXSHAPE_TYPE_INT16) ||
         (t >= ONNXSHAPE_TYPE_FLOAT8E4M3FN && t <= ONNXSHAPE_TYPE_INT4) ||
         (t == ONNXSHAPE_TYPE_FLOAT4E2M1 && v >= 23) ||
         ((t == ONNXSHAPE_TYPE_UINT2 || t == ONNXSHAPE_TYPE_INT2) && v >= 25);
}

/* QuantizeLinear: x's dims; the type y_zero_point's, else output_dtype's
 * (from 21), else uint8. An output_dtype that is not an output type, or
 * not y_zero_point's type, fails the node. */
onnxshape_status onnxshape__an_op_quantize(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *zp = in(c, n, 2);
  int64_t dtype = n->version >= 21 ? an_attr_int(n, "output_dtype", 0) : 0;
  if (dtype != 0 && (!quantized_type(dtype, n->version) || (zp != NULL && dtype != zp->type))) {
    return ONNXSHAPE_OK;
  }
  int32_t type = zp != NULL ? zp->type : dtype != 0 ? (int32_t)dtype : ONNXSHAPE_TYPE_UINT8;
  return an_done(an_like(c, n, 0, in(c, n, 0), type));
}

/* DequantizeLinear: x's dims; float before 19, then x_scale's type, or
 * output_dtype's from 23 (float, float16 or bfloat16; another fails the
 * node). */
onnxshape_status onnxshape__an_op_dequantize(an_ctx *c, const graph_node *n,
                                             onnxshape_diag *diag) {
  (void)diag;
  int64_t dtype = n->version >= 23 ? an_attr_int(n, "output_dtype", 0) : 0;
  if (dtype != 0 && dtype != ONNXSHAPE_TYPE_FLOAT && dtype != ONNXSHAPE_TYPE_FLOAT16 &&
      dtype != ONNXSHAPE_TYPE_BFLOAT16) {
    return ONNXSHAPE_OK;
  }
  int32_t type = n->version < 19 ? ONNXSHAPE_TYPE_FLOAT
                 : dtype != 0    ? (int32_t)dtype
                                 : an_type_of(in(c, n, 1));
  return an_done(an_like(c, n, 0, in(c, n, 0), type));
}

/* DynamicQuantizeLinear: y uint8 of x's dims, y_scale a float scalar,
 * y_zero_point a uint8 scalar. */
onnxshape_status onnxshape__an_op_dynamic_quantize(an_ctx *c, const graph_node *n,
                                                   onnxshape_diag *diag) {
  (void)diag;
  static const slot_info scalar = {0};
  slot_info rank0 = scalar;
  rank0.rank_known = 1;
  return an_done(an_like(c, n, 0, in(c, n, 0), ONNXSHAPE_TYPE_UINT8) &&
              an_like(c, n, 1, &rank0, ONNXSHAPE_TYPE_FLOAT) &&
              an_like(c, n, 2, &rank0, ONNXSHAPE_TYPE_UINT8));
}
