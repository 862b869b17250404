/* SPDX-License-Identifier: Apache-2.0 */
/* Control flow: If's outputs from its branches (infer.c analyses the
 * branches before the node: the one a known condition takes, else both). */
#include <string.h>

#include "analysis.h"

int an_if_taken(an_ctx *c, const graph_node *n) {
  const slot_info *cond = in(c, n, 0);
  if (cond == NULL || !cond->vals_known || cond->n_vals != 1 || !cond->vals[0].known) return -1;
  return cond->vals[0].v != 0 ? 0 : 1;
}

/* If: the outputs of the branch taken, or what both branches have in
 * common when the condition is not known. */
onnxshape_status onnxshape__an_op_branches(an_ctx *c, const graph_node *n, onnxshape_diag *diag) {
  (void)diag;
  const model_graph *branch[2] = {NULL, NULL};
  for (size_t k = 0; k < n->n_subgraphs; k++) {
    const node_subgraph *sg = &n->subgraphs[k];
    if (strcmp(sg->attr, "then_branch") == 0) branch[0] = sg->graph;
    if (strcmp(sg->attr, "else_branch") == 0) branch[1] = sg->graph;
  }
  if (branch[0] == NULL || branch[1] == NULL) return ONNXSHAPE_OK;
  int take = an_if_taken(c, n);
  for (size_t i = 0; i < n->n_outputs; i++) {
    if (n->outputs[i] == NO_SLOT) continue;
    slot_info *out = &c->slots[n->outputs[i]];
    const slot_info *t = i < branch[0]->n_outputs ? &c->slots[branch[0]->output_slots[i]] : NULL;
    const slot_info *e = i < branch[1]->n_outputs ? &c->slots[branch[1]->output_slots[i]] : NULL;
    if (t == NULL || e == NULL) continue;
    int ok = take == 0 ? an_copy(c, out, t) : take == 1 ? an_copy(c, out, e) : an_join(c, out, t, e);
    if (!ok) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  }
  return ONNXSHAPE_OK;
}
