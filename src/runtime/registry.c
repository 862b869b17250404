/* SPDX-License-Identifier: Apache-2.0 */
/* Static analysis through the operator registry (src/core/operators.h):
 * each node's handler, by its row. */
#include <assert.h>
#include <string.h>

#include "analysis.h"

#define HANDLER(id, name, handler, flags, since) onnxshape__an_op_##handler,
static const an_op_fn handlers[OP_COUNT] = {ONNXSHAPE__OPERATORS(HANDLER)};
#undef HANDLER

/* The operators analysis does not evaluate: their outputs are what the
 * model declares (infer.c). */
onnxshape_status onnxshape__an_op_none(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)c;
  (void)n;
  (void)diag;
  return ONNXSHAPE_OK;
}

an_op_fn an_handler(operator_id op) {
  return (size_t)op < OP_COUNT ? handlers[op] : onnxshape__an_op_none;
}

int an_evaluates(const graph_node *n) {
  return n->version > 0 && an_handler(n->op) != onnxshape__an_op_none;
}

onnxshape_status an_stopped(an_ctx *c, const graph_node *n) {
  if (!c->out_of_work) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t i = 0; i < n->n_outputs; i++) {
    if (n->outputs[i] != NO_SLOT) memset(&c->slots[n->outputs[i]], 0, sizeof(slot_info));
  }
  count_stopped(c, n);
  return ONNXSHAPE_OK;
}

onnxshape_status an_eval(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  c->out_of_work = 0;
  /* Every node: its inputs and outputs looked at, and each input's dims
   * and known elements, which a handler may then look at a fixed number
   * of times without charging them again (a loop over an input is paid
   * before it runs, however the handler is written). */
  uint64_t units = 1 + (uint64_t)n->n_inputs + n->n_outputs;
  for (size_t k = 0; k < n->n_inputs; k++) {
    const slot_info *s = in(c, n, k);
    if (s != NULL) units += (s->rank_known ? (uint64_t)s->rank : 0) + (s->vals_known ? s->n_vals : 0);
  }
  onnxshape_status st = !an_charge(c, units)
                            ? ONNXSHAPE_ERR_OUT_OF_MEMORY
                        : an_evaluates(n) ? an_handler(n->op)(c, n, diag)
                                          : ONNXSHAPE_OK;
  if (st == ONNXSHAPE_ERR_OUT_OF_MEMORY && c->out_of_work) return an_stopped(c, n);
  /* Outputs computed in part (an expression the budget did not afford is
   * not known): counted all the same. */
  if (c->out_of_work) count_stopped(c, n);
  /* A sequence or an optional that a tensor operator copied from an input
   * (a model giving it one is not valid) and then changed as a tensor:
   * nothing known. */
  for (size_t i = 0; st == ONNXSHAPE_OK && i < n->n_outputs; i++) {
    slot_info *s = n->outputs[i] != NO_SLOT ? &c->slots[n->outputs[i]] : NULL;
    if (s != NULL && s->kind != 0 &&
        (s->type != 0 || s->rank_known || s->vals_known || s->value != NULL)) {
      memset(s, 0, sizeof *s);
    }
  }
#ifndef NDEBUG
  /* The lattice's invariants, in debug and sanitizer builds. */
  for (size_t i = 0; st == ONNXSHAPE_OK && i < n->n_outputs; i++) {
    assert(n->outputs[i] == NO_SLOT || an_slot_sound(&c->slots[n->outputs[i]]));
  }
#endif
  return st;
}
