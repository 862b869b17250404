/* SPDX-License-Identifier: Apache-2.0 */
/* The elementwise family: operators whose output has an input's dims or
 * the broadcast of their inputs' dims (unary math and activations, the
 * normalizations, comparisons and logic, Pow, Mod, the bitwise operators,
 * Sum, Mean, PRelu, CastLike, Dropout, the quantizers). Their elements are
 * floats, or integers no shape computation takes: no element values are
 * kept. Where a version's rule does not decide the output (an axis out of
 * range, a legacy broadcast, an attribute that contradicts an input), it
 * is left unknown. */
#include <string.h>

#include "analysis.h"

/* ---- shared rules -------------------------------------------------------------- */

/* Output k of n as x's dims with element type `type` (0: not known); its
 * rank stays unknown when x's is. Returns 0 when out of work or memory. */
static int like(an_ctx *c, const graph_node *n, size_t k, const slot_info *x, int32_t type) {
  slot_info *out = an_out(c, n, k);
  if (out == NULL) return 1;
  out->type = type;
  return x == NULL || !x->rank_known || an_set_dims(c, out, x->dims, x->rank);
}

/* Input 0's type, or 0 when absent. */
static int32_t type_of(const slot_info *x) { return x != NULL ? x->type : 0; }

/* The status of a rule that returned 0: the budget or memory ran out. */
static onnxshape_status done(int ok) { return ok ? ONNXSHAPE_OK : ONNXSHAPE_ERR_OUT_OF_MEMORY; }

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

/* ---- same dims and type ---------------------------------------------------------- */

/* The unary operators, activations and the normalizations whose output is
 * their input X (input 0) as it is, dims and type. */
onnxshape_status onnxshape__an_op_unary(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  return done(like(c, n, 0, x, type_of(x)));
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
  return done(like(c, n, 0, x, type_of(x)));
}

/* Trilu: X's dims; X of rank below 2 is an error. */
onnxshape_status onnxshape__an_op_trilu(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  if (x != NULL && x->rank_known && x->rank < 2) return ONNXSHAPE_OK;
  return done(like(c, n, 0, x, type_of(x)));
}

/* IsNaN, IsInf: bool of X's dims. */
onnxshape_status onnxshape__an_op_is_class(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return done(like(c, n, 0, in(c, n, 0), ONNXSHAPE_TYPE_BOOL));
}

/* CastLike: input 0's dims, target_type's (input 1's) element type. */
onnxshape_status onnxshape__an_op_cast_like(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return done(like(c, n, 0, in(c, n, 0), type_of(in(c, n, 1))));
}

/* Dropout: output as data; the optional mask of data's dims, of data's
 * type before 10 and bool from 10. */
onnxshape_status onnxshape__an_op_dropout(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  int32_t mask = n->version >= 10 ? ONNXSHAPE_TYPE_BOOL : type_of(x);
  return done(like(c, n, 0, x, type_of(x)) && like(c, n, 1, x, mask));
}

/* ---- broadcasting ------------------------------------------------------------------ */

/* Greater, Less, GreaterOrEqual, LessOrEqual, And, Or, Xor: bool of the
 * broadcast dims. */
onnxshape_status onnxshape__an_op_compare(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return done(broadcast_out(c, n, ONNXSHAPE_TYPE_BOOL));
}

/* Pow (the exponent's type may differ from 12), Mod, BitShift, BitwiseAnd,
 * BitwiseOr, BitwiseXor, Sum, Mean (any number of inputs): the first
 * input's type, the broadcast dims. */
onnxshape_status onnxshape__an_op_broadcast(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  return done(broadcast_out(c, n, type_of(in(c, n, 0))));
}

/* PRelu: slope broadcasts to X (unidirectionally): X's type and the
 * broadcast dims when they keep X's rank (onnxruntime broadcasts both
 * ways; a valid model gives X's dims either way). Before 7, X's dims. */
onnxshape_status onnxshape__an_op_prelu(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *x = in(c, n, 0);
  if (n->version < 7) return done(like(c, n, 0, x, type_of(x)));
  if (!broadcast_out(c, n, type_of(x))) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
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
  if (!like(c, n, 0, x, type_of(x))) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  if (n->version < 14 || an_attr_int(n, "training_mode", 0) != 1) return ONNXSHAPE_OK;
  const slot_info *mean = in(c, n, 3), *var = in(c, n, 4);
  return done(like(c, n, 1, mean, type_of(mean)) && like(c, n, 2, var, type_of(var)));
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
  if (!like(c, n, 0, x, type_of(x))) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t k = 1; k <= 2; k++) {
    slot_info *out = an_out(c, n, k);
    if (out == NULL) continue;
    if (!like(c, n, k, x, u)) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
    for (size_t d = (size_t)axis; out->rank_known && d < out->rank; d++) out->dims[d] = an_num(1);
  }
  return ONNXSHAPE_OK;
}

/* ---- quantization ------------------------------------------------------------------- */

/* QuantizeLinear: x's dims; the type y_zero_point's, else output_dtype's
 * (from 21), else uint8. An output_dtype other than y_zero_point's type
 * fails the node. */
onnxshape_status onnxshape__an_op_quantize(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const slot_info *zp = in(c, n, 2);
  int64_t dtype = n->version >= 21 ? an_attr_int(n, "output_dtype", 0) : 0;
  int32_t type = zp != NULL ? zp->type : dtype != 0 ? (int32_t)dtype : ONNXSHAPE_TYPE_UINT8;
  if (zp != NULL && dtype != 0 && dtype != zp->type) return ONNXSHAPE_OK;
  if (type < 0 || type > ONNXSHAPE_TYPE_LAST) type = 0;
  return done(like(c, n, 0, in(c, n, 0), type));
}

/* DequantizeLinear: x's dims; float before 19, then x_scale's type, or
 * output_dtype's from 23. */
onnxshape_status onnxshape__an_op_dequantize(an_ctx *c, const graph_node *n,
                                             onnxshape_diag *diag) {
  (void)diag;
  int64_t dtype = n->version >= 23 ? an_attr_int(n, "output_dtype", 0) : 0;
  int32_t type = n->version < 19 ? ONNXSHAPE_TYPE_FLOAT
                 : dtype != 0    ? (int32_t)dtype
                                 : type_of(in(c, n, 1));
  if (type < 0 || type > ONNXSHAPE_TYPE_LAST) type = 0;
  return done(like(c, n, 0, in(c, n, 0), type));
}

/* DynamicQuantizeLinear: y uint8 of x's dims, y_scale a float scalar,
 * y_zero_point a uint8 scalar. */
onnxshape_status onnxshape__an_op_dynamic_quantize(an_ctx *c, const graph_node *n,
                                                   onnxshape_diag *diag) {
  (void)diag;
  static const slot_info scalar = {0};
  slot_info rank0 = scalar;
  rank0.rank_known = 1;
  return done(like(c, n, 0, in(c, n, 0), ONNXSHAPE_TYPE_UINT8) &&
              like(c, n, 1, &rank0, ONNXSHAPE_TYPE_FLOAT) &&
              like(c, n, 2, &rank0, ONNXSHAPE_TYPE_UINT8));
}
