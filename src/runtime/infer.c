/* SPDX-License-Identifier: Apache-2.0 */
/* What can be known of every value of a model without input data
 * (docs/analysis.md): the traversal of graphs, the inputs and their
 * bindings, the declarations, subgraphs and calls, and the published
 * result. A value has an element type, dims (each a number, a symbol or
 * unknown; or unknown rank) and, for integer and bool tensors of at most
 * MAX_ENUM elements, element values known the same way. One node's
 * evaluation is analysis.c's: Shape, Reshape and Size through the kernels'
 * own rule code, and the operators of src/onnx/aops.h exactly where the
 * ONNX specification determines the result; every other node's outputs take
 * what value_info or a graph output declaration says. Subgraphs see the
 * values around them. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/internal.h"
#include "../onnx/alloc.h"
#include "../onnx/arena.h"
#include "analysis.h"
#include "runtime.h"

struct onnxshape_inference {
  size_t n;
  onnxshape_value_info *infos;
  slot_info *slots;        /* by slot id */
  onnxshape__arena *arena; /* everything else, within the model's memory limit */
  onnxshape_infer_summary summary;
  onnxshape_op_count counts[ONNXSHAPE__OP_COUNT_MAX];
};

void onnxshape_inference_free(onnxshape_inference *inf) {
  if (inf == NULL) return;
  onnxshape__arena_release(inf->arena);
  onnxshape__free(inf->infos);
  onnxshape__free(inf->slots);
  onnxshape__free(inf);
}

size_t onnxshape_inference_count(const onnxshape_inference *inf) { return inf ? inf->n : 0; }

const onnxshape_value_info *onnxshape_inference_get(const onnxshape_inference *inf, size_t i) {
  return inf && i < inf->n ? &inf->infos[i] : NULL;
}

const onnxshape_infer_summary *onnxshape_inference_summary(const onnxshape_inference *inf) {
  return inf ? &inf->summary : NULL;
}

/* ---- one analysis ------------------------------------------------------ */

typedef struct analysis {
  const onnxshape_model *m;
  const onnxshape_infer_options *opts;
  an_ctx ctx;
  onnxshape__report_fn report;
  void *report_ctx;
  onnxshape_diag *diag;
  onnxshape_dim_binding *derived; /* symbols fixed by --input (a declared N bound to 2) */
  size_t n_derived, cap_derived;
} analysis;

static onnxshape_status out_of_memory(const an_ctx *c, onnxshape_diag *diag) {
  return onnxshape__out_of_memory(c->arena, "static inference beside the model", diag);
}

/* A symbol's binding (--dim), or the element as it is. */
static an_elem bind_symbol(const analysis *a, an_elem e) {
  if (e.known || e.param == NULL || a->opts == NULL) return e;
  for (size_t i = 0; i < a->opts->n_dims; i++) {
    if (strcmp(a->opts->dims[i].symbol, e.param) == 0) return an_num(a->opts->dims[i].value);
  }
  for (size_t i = 0; i < a->n_derived; i++) {
    if (strcmp(a->derived[i].symbol, e.param) == 0) return an_num(a->derived[i].value);
  }
  return e;
}

static int from_decl(analysis *a, slot_info *s, const value_decl *d) {
  if (d->has_type) s->type = d->elem_type;
  if (!d->has_shape) return 1;
  if (!an_set_rank(&a->ctx, s, d->rank)) return 0;
  for (size_t i = 0; i < d->rank; i++) {
    an_elem e = d->dims[i].value >= 0 ? an_num(d->dims[i].value) : an_sym(d->dims[i].param);
    s->dims[i] = bind_symbol(a, e);
  }
  return 1;
}

/* A graph input of the main graph: its declaration, then --input. */
static onnxshape_status bind_input(analysis *a, const value_decl *d, slot_info *s,
                                   unsigned char *used) {
  onnxshape_diag *diag = a->diag;
  if (!from_decl(a, s, d)) return out_of_memory(&a->ctx, diag);
  if (a->opts == NULL) return ONNXSHAPE_OK;
  int bound = 0;
  for (size_t b = 0; b < a->opts->n_inputs; b++) {
    const onnxshape_input_dims *in = &a->opts->inputs[b];
    if (strcmp(in->name, d->name) != 0) continue;
    if (bound++ > 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "input '{}' is bound twice",
                              ONNXSHAPE__ARGS(ARG_NAME(d->name)));
    }
    used[b] = 1;
    if (d->has_shape && d->rank != in->rank) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "input '{}' is declared with rank {}; the binding gives {} dims",
                              ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(d->rank),
                                              ARG_UINT(in->rank)));
    }
    slot_info declared = *s;
    if (!an_set_rank(&a->ctx, s, in->rank)) return out_of_memory(&a->ctx, diag);
    for (size_t i = 0; i < in->rank; i++) s->dims[i] = declared.rank_known ? declared.dims[i] : an_unknown();
    for (size_t i = 0; i < in->rank; i++) {
      if (in->dims[i] < 0) {
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                                "input '{}': dim {} = {} is negative",
                                ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i), ARG_INT(in->dims[i])));
      }
      an_elem sym = s->dims[i]; /* the declared dim, a --dim binding applied */
      if (sym.known && sym.v != in->dims[i]) {
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                                "input '{}': dim {} is {} (declared or bound by --dim); the "
                                "binding gives {}",
                                ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i), ARG_INT(sym.v),
                                                ARG_INT(in->dims[i])));
      }
      if (!sym.known && sym.param != NULL && a->n_derived < a->cap_derived) {
        /* the declared symbol takes the bound value everywhere */
        a->derived[a->n_derived++] = (onnxshape_dim_binding){sym.param, in->dims[i]};
      }
      s->dims[i] = an_num(in->dims[i]);
    }
  }
  return ONNXSHAPE_OK;
}

/* The values a graph defines before its nodes: inputs, initializers,
 * sparse initializers. */
static onnxshape_status graph_sources(analysis *a, const model_graph *g, unsigned char *used) {
  for (size_t i = 0; i < g->n_slots; i++) {
    const value_slot *vs = &g->slots[i];
    slot_info *s = &a->ctx.slots[vs->id];
    int ok = 1;
    if (vs->kind == SLOT_INPUT) {
      const value_decl *d = &g->inputs[vs->input_index];
      if (!d->has_type && !d->has_shape && vs->init != NULL) {
        /* A default can be overridden at run time: its value is not known. */
        ok = an_from_tensor(&a->ctx, s, &vs->init->view, 0);
      } else if (g->depth == 0) {
        onnxshape_status st = bind_input(a, d, s, used);
        if (st != ONNXSHAPE_OK) return st;
      } else {
        ok = from_decl(a, s, d);
      }
    } else if (vs->kind == SLOT_INITIALIZER) {
      ok = an_from_tensor(&a->ctx, s, &vs->init->view, 1);
    } else if (vs->kind == SLOT_SPARSE) {
      ok = from_decl(a, s, vs->decl);
    }
    if (!ok) return out_of_memory(&a->ctx, a->diag);
  }
  return ONNXSHAPE_OK;
}

/* A finding about node n of g (its message in diag). */
static void report_node(analysis *a, int rule, const char *message) {
  if (a->report != NULL) a->report(a->report_ctx, rule, message);
}

/* The computed value of slot id against its declaration: a contradiction
 * is a CONFLICT finding (the computed value stays). */
static void check_declared(analysis *a, const model_graph *g, const graph_node *n, size_t id) {
  const value_slot *vs = a->m->slot[id];
  const value_decl *d = vs->decl;
  const slot_info *s = &a->ctx.slots[id];
  if (d == NULL || a->report == NULL) return;
  onnxshape_diag nd = {n->label, {0}};
  /* A call has no version: "node 'c': output 'y' of function 'custom:F' ..." */
  const char *op = n->version > 0 ? n->op_type : NULL;
  char owner[ONNXSHAPE_DIAG_SIZE] = "";
  if (op == NULL) {
    (void)onnxshape__format(owner, sizeof owner, " of function '{}{}{}'",
                            ONNXSHAPE__ARGS(ONNXSHAPE__OP_ARGS(n->domain, n->op_type)));
  }
  if (d->has_type && s->type != 0 && d->elem_type != s->type) {
    (void)onnxshape__fail(&nd, ONNXSHAPE_ERR_INVALID_MODEL, op, n->version,
                          "output '{}'{} is declared {} but is {}",
                          ONNXSHAPE__ARGS(ARG_NAME(vs->name), ARG_TEXT(owner),
                                          ARG_STR(onnxshape_type_name(d->elem_type)),
                                          ARG_STR(onnxshape_type_name(s->type))));
  } else if (d->has_shape && s->rank_known && d->rank != s->rank) {
    (void)onnxshape__fail(&nd, ONNXSHAPE_ERR_INVALID_MODEL, op, n->version,
                          "output '{}'{} is declared with rank {} but has rank {}",
                          ONNXSHAPE__ARGS(ARG_NAME(vs->name), ARG_TEXT(owner), ARG_UINT(d->rank),
                                          ARG_UINT(s->rank)));
  } else {
    if (!d->has_shape || !s->rank_known) return;
    size_t k = 0;
    while (k < d->rank && !(d->dims[k].value >= 0 && s->dims[k].known &&
                            s->dims[k].v != d->dims[k].value)) {
      k++;
    }
    if (k == d->rank) return;
    (void)onnxshape__fail(&nd, ONNXSHAPE_ERR_INVALID_MODEL, op, n->version,
                          "output '{}'{} is declared with dim {} = {} but it is {}",
                          ONNXSHAPE__ARGS(ARG_NAME(vs->name), ARG_TEXT(owner), ARG_UINT(k),
                                          ARG_INT(d->dims[k].value), ARG_INT(s->dims[k].v)));
  }
  onnxshape__in_graph(nd.message, sizeof nd.message, g->path, NULL, nd.message);
  report_node(a, ONNXSHAPE_PROFILE_CONFLICT, nd.message);
}

static onnxshape_status analyse_graph(analysis *a, const model_graph *g, int certain,
                                      unsigned char *used);

/* The subgraphs of node n, then n's outputs. If: the branch a known
 * condition takes (certain when n is), else both (neither certain) and
 * their join. Loop, Scan and other operators: every subgraph (never
 * certain: it may run no time), and outputs from the declarations. */
static onnxshape_status analyse_subgraphs(analysis *a, const graph_node *n, int certain) {
  int is_if = n->kind == (node_kind)(NODE_AOP + (int)AOP_IF);
  int take = -1; /* If: the branch taken (0 then, 1 else), -1 not known */
  if (is_if && n->n_inputs >= 1 && n->inputs[0] != NO_SLOT) {
    const slot_info *c = &a->ctx.slots[n->inputs[0]];
    if (c->vals_known && c->n_vals == 1 && c->vals[0].known) take = c->vals[0].v != 0 ? 0 : 1;
  }
  const model_graph *branch[2] = {NULL, NULL};
  for (size_t k = 0; k < n->n_subgraphs; k++) {
    const node_subgraph *sg = &n->subgraphs[k];
    int which = !is_if ? -1 : strcmp(sg->attr, "then_branch") == 0 ? 0
                             : strcmp(sg->attr, "else_branch") == 0 ? 1 : -1;
    if (which >= 0) branch[which] = sg->graph;
    int sub_certain = certain && which >= 0 && which == take;
    if (which >= 0 && take >= 0 && which != take) continue; /* never runs */
    onnxshape_status st = analyse_graph(a, sg->graph, sub_certain, NULL);
    if (st != ONNXSHAPE_OK) return st;
  }
  if (!is_if || branch[0] == NULL || branch[1] == NULL) {
    return ONNXSHAPE_OK;
  }
  for (size_t i = 0; i < n->n_outputs; i++) {
    if (n->outputs[i] == NO_SLOT) continue;
    slot_info *out = &a->ctx.slots[n->outputs[i]];
    const slot_info *t = i < branch[0]->n_outputs ? &a->ctx.slots[branch[0]->output_slots[i]] : NULL;
    const slot_info *e = i < branch[1]->n_outputs ? &a->ctx.slots[branch[1]->output_slots[i]] : NULL;
    if (t == NULL || e == NULL) continue;
    int ok = take == 0 ? an_copy(&a->ctx, out, t)
             : take == 1 ? an_copy(&a->ctx, out, e)
                         : an_join(&a->ctx, out, t, e);
    if (!ok) return out_of_memory(&a->ctx, a->diag);
  }
  return ONNXSHAPE_OK;
}

/* A call of a model-local function: its body (loaded for this call) runs
 * on the call's inputs, certain when the call is; the call's outputs are
 * the body's. A formal input the call leaves out is unknown. */
static onnxshape_status analyse_call(analysis *a, const graph_node *n, int certain) {
  const model_graph *body = n->body;
  for (size_t k = 0; k < body->n_inputs; k++) {
    slot_info *in = &a->ctx.slots[body->input_slots[k]];
    if (k < n->n_inputs && n->inputs[k] != NO_SLOT &&
        !an_copy(&a->ctx, in, &a->ctx.slots[n->inputs[k]])) {
      return out_of_memory(&a->ctx, a->diag);
    }
  }
  onnxshape_status st = analyse_graph(a, body, certain, NULL);
  if (st != ONNXSHAPE_OK) return st;
  for (size_t k = 0; k < n->n_outputs && k < body->n_outputs; k++) {
    if (n->outputs[k] == NO_SLOT) continue;
    if (!an_copy(&a->ctx, &a->ctx.slots[n->outputs[k]], &a->ctx.slots[body->output_slots[k]])) {
      return out_of_memory(&a->ctx, a->diag);
    }
  }
  return ONNXSHAPE_OK;
}

static onnxshape_status analyse_node(analysis *a, const model_graph *g, const graph_node *n,
                                     int certain) {
  onnxshape_diag *diag = a->diag;
  const char *caller = diag != NULL ? diag->node : NULL;
  if (diag != NULL) diag->node = n->label;
  onnxshape_status st = an_eval(&a->ctx, n, diag);
  if (st == ONNXSHAPE_ERR_OUT_OF_MEMORY) {
    if (diag != NULL) diag->node = caller;
    return out_of_memory(&a->ctx, diag);
  }
  int failed = st != ONNXSHAPE_OK;
  if (failed) {
    /* A node that cannot succeed whatever the data. */
    char msg[ONNXSHAPE_DIAG_SIZE];
    const char *text = diag != NULL ? diag->message : onnxshape_status_text(st);
    onnxshape__in_graph(msg, sizeof msg, g->path, certain ? NULL : "(a subgraph that may not run)",
                        text);
    if (certain && a->report == NULL) {
      if (diag != NULL) {
        diag->node = caller;
        (void)onnxshape__format(diag->message, sizeof diag->message, "{}", ONNXSHAPE__ARGS(ARG_TEXT(msg)));
      }
      return st;
    }
    report_node(a, ONNXSHAPE_PROFILE_DOMAIN, msg);
    for (size_t i = 0; i < n->n_outputs; i++) {
      if (n->outputs[i] != NO_SLOT) memset(&a->ctx.slots[n->outputs[i]], 0, sizeof(slot_info));
    }
  }
  if (diag != NULL) diag->node = caller;
  st = analyse_subgraphs(a, n, certain);
  if (st == ONNXSHAPE_OK && n->body != NULL) st = analyse_call(a, n, certain);
  if (st != ONNXSHAPE_OK) return st;
  /* Outputs nothing computed: what the model declares. */
  for (size_t i = 0; i < n->n_outputs; i++) {
    size_t id = n->outputs[i];
    if (id == NO_SLOT) continue;
    slot_info *s = &a->ctx.slots[id];
    const value_decl *d = a->m->slot[id]->decl;
    if (an_evaluates(n) || n->body != NULL) {
      check_declared(a, g, n, id);
    } else if (d != NULL && !from_decl(a, s, d)) {
      return out_of_memory(&a->ctx, diag);
    }
  }
  if (a->report != NULL && !failed) an_portability(&a->ctx, n, g->path, a->report, a->report_ctx);
  return ONNXSHAPE_OK;
}

static onnxshape_status analyse_graph(analysis *a, const model_graph *g, int certain,
                                      unsigned char *used) {
  onnxshape_status st = graph_sources(a, g, used);
  for (size_t i = 0; i < g->n_nodes && st == ONNXSHAPE_OK; i++) {
    st = analyse_node(a, g, &g->nodes[i], certain);
  }
  return st;
}

/* ---- results ------------------------------------------------------------ */

static int is_kernel(const graph_node *n) {
  return n->kind == NODE_SHAPE || n->kind == NODE_RESHAPE || n->kind == NODE_SIZE;
}

/* Neither evaluated nor a call of a model-local function (whose body is). */
static int not_evaluated(const graph_node *n) { return !an_evaluates(n) && n->body == NULL; }

static void summarise(onnxshape_inference *inf, const onnxshape_model *m) {
  onnxshape_infer_summary *sum = &inf->summary;
  sum->size = sizeof *sum;
  op_count counts[ONNXSHAPE__OP_COUNT_MAX];
  size_t n_counts = 0, more = 0;
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_nodes; i++) {
      const graph_node *n = &g->nodes[i];
      if (not_evaluated(n)) onnxshape__count_op(n, counts, &n_counts, ONNXSHAPE__OP_COUNT_MAX, &more);
      if (!is_kernel(n)) continue;
      sum->shape_nodes += n->kind == NODE_SHAPE;
      sum->reshape_nodes += n->kind == NODE_RESHAPE;
      sum->size_nodes += n->kind == NODE_SIZE;
      const slot_info *s = &inf->slots[n->outputs[0]];
      if (!s->rank_known) {
        sum->unknown++;
      } else {
        int all = an_all_known(s->dims, s->rank);
        if (n->kind != NODE_RESHAPE) all = all && s->vals_known && an_all_known(s->vals, s->n_vals);
        if (all) {
          sum->resolved++;
        } else {
          sum->partial++;
        }
      }
    }
  }
  for (size_t i = 0; i < n_counts; i++) {
    inf->counts[i] = (onnxshape_op_count){counts[i].domain, counts[i].op, counts[i].count};
  }
  sum->n_not_evaluated = n_counts;
  sum->not_evaluated = inf->counts;
  sum->not_evaluated_more = more;
}

static int publish(onnxshape_inference *inf, const onnxshape_model *m) {
  inf->n = m->n_slots;
  inf->infos = onnxshape__calloc(m->n_slots + 1, sizeof *inf->infos);
  if (inf->infos == NULL) return 0;
  /* In the order of the graphs, each graph's values in their order. */
  size_t at = 0;
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    for (size_t i = 0; i < g->n_slots; i++) {
      const value_slot *vs = &g->slots[i];
      const slot_info *s = &inf->slots[vs->id];
      onnxshape_value_info *v = &inf->infos[at++];
      v->size = sizeof *v;
      v->name = vs->name;
      v->graph = g->path;
      v->type = s->type;
      v->rank_known = s->rank_known;
      v->rank = s->rank;
      v->value = s->value;
      if (vs->producer != NULL) {
        v->node = vs->producer->name;
        v->op = vs->producer->op_type;
        v->domain = vs->producer->domain;
        v->version = vs->producer->version;
      }
      if (s->vals_known && !an_all_unknown(s->vals, s->n_vals)) {
        onnxshape_elem *e = onnxshape__arena_alloc(inf->arena, (s->n_vals + 1) * sizeof *e);
        if (e == NULL) return 0;
        for (size_t j = 0; j < s->n_vals; j++) e[j] = (onnxshape_elem){s->vals[j].known, s->vals[j].v, s->vals[j].param};
        v->values = e;
        v->n_values = s->n_vals;
      }
      if (!s->rank_known) continue;
      int64_t *dims = onnxshape__arena_alloc(inf->arena, (s->rank + 1) * sizeof(int64_t));
      const char **params = onnxshape__arena_alloc(inf->arena, (s->rank + 1) * sizeof(char *));
      if (dims == NULL || params == NULL) return 0;
      for (size_t j = 0; j < s->rank; j++) {
        dims[j] = s->dims[j].known ? s->dims[j].v : -1;
        params[j] = s->dims[j].known ? NULL : s->dims[j].param;
      }
      v->dims = dims;
      v->params = (const char *const *)params;
    }
  }
  inf->n = at;
  summarise(inf, m);
  return 1;
}

/* Every binding names a graph input of the main graph. */
static onnxshape_status check_bindings(const onnxshape_infer_options *o, const unsigned char *used,
                                       onnxshape_diag *diag) {
  for (size_t b = 0; o != NULL && b < o->n_inputs; b++) {
    if (!used[b]) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_NOT_FOUND,
                              "the model has no graph input named '{}'",
                              ONNXSHAPE__ARGS(ARG_NAME(o->inputs[b].name)));
    }
  }
  for (size_t b = 0; o != NULL && b < o->n_dims; b++) {
    if (o->dims[b].value < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "dim '{}' = {} is negative",
                              ONNXSHAPE__ARGS(ARG_NAME(o->dims[b].symbol), ARG_INT(o->dims[b].value)));
    }
  }
  return ONNXSHAPE_OK;
}

/* Analyses the model; with `report`, every node that cannot succeed (and
 * every conflict and portability risk) is reported and analysis goes on;
 * without, a node certain to fail stops it with that node's error. Out of
 * memory always stops. */
static onnxshape_status infer_model(const onnxshape_model *m, const onnxshape_infer_options *opts,
                                    onnxshape_inference **out, onnxshape__report_fn report,
                                    void *ctx, onnxshape_diag *diag) {
  if (m == NULL || out == NULL ||
      (opts != NULL && ((opts->inputs == NULL && opts->n_inputs > 0) ||
                        (opts->dims == NULL && opts->n_dims > 0)))) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_infer: NULL argument", ONNXSHAPE__NO_ARGS);
  }
  onnxshape_inference *inf = onnxshape__calloc(1, sizeof *inf);
  if (inf == NULL) return onnxshape__out_of_memory(NULL, NULL, diag);
  inf->slots = onnxshape__calloc(m->n_slots + 1, sizeof *inf->slots);
  /* What the model itself takes counts against the same limit. */
  size_t limit = onnxshape__memory_limit(m->source_len);
  inf->arena = onnxshape__arena_new(limit > m->arena->taken ? limit - m->arena->taken : 0);
  size_t n_used = opts != NULL ? opts->n_inputs : 0;
  unsigned char *used = onnxshape__calloc(n_used + 1, 1);
  if (inf->slots == NULL || inf->arena == NULL || used == NULL) {
    onnxshape__free(used);
    onnxshape_inference_free(inf);
    return onnxshape__out_of_memory(NULL, NULL, diag);
  }
  analysis a = {m, opts, {inf->arena, inf->slots}, report, ctx, diag, NULL, 0, 0};
  size_t cap = 0;
  for (size_t b = 0; opts != NULL && b < opts->n_inputs; b++) cap += opts->inputs[b].rank;
  a.derived = onnxshape__arena_alloc(inf->arena, (cap + 1) * sizeof *a.derived);
  a.cap_derived = a.derived != NULL ? cap : 0;
  onnxshape_status st = analyse_graph(&a, &m->g, 1, used);
  if (st == ONNXSHAPE_OK) st = check_bindings(opts, used, diag);
  onnxshape__free(used);
  if (st == ONNXSHAPE_OK && !publish(inf, m)) st = out_of_memory(&a.ctx, diag);
  if (st != ONNXSHAPE_OK) {
    onnxshape_inference_free(inf);
    return st;
  }
  onnxshape__diag_clear(diag);
  *out = inf;
  return ONNXSHAPE_OK;
}

void onnxshape_infer_options_init(onnxshape_infer_options *opts) {
  if (opts == NULL) return;
  const onnxshape_infer_options init = ONNXSHAPE_INFER_OPTIONS_INIT;
  *opts = init;
}

/* The caller's options as this library's struct: the `size` bytes it was
 * compiled with, fields past them unset; a larger struct (a newer header)
 * only when the fields this library does not have are unset (zero). */
static onnxshape_status take_options(const onnxshape_infer_options *in,
                                     onnxshape_infer_options *out, onnxshape_diag *diag) {
  onnxshape_infer_options_init(out);
  if (in == NULL) return ONNXSHAPE_OK;
  const size_t least = offsetof(onnxshape_infer_options, n_dims) + sizeof in->n_dims;
  if (in->size < least) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "model_infer: options.size is {}; it must be at least {} "
                            "(initialize the options with ONNXSHAPE_INFER_OPTIONS_INIT)",
                            ONNXSHAPE__ARGS(ARG_UINT(in->size), ARG_UINT(least)));
  }
  const unsigned char *bytes = (const unsigned char *)in;
  for (size_t i = sizeof *out; i < in->size; i++) {
    if (bytes[i] != 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "model_infer: the options set a field at byte {}, which this "
                              "library ({} bytes of options) does not have",
                              ONNXSHAPE__ARGS(ARG_UINT(i), ARG_UINT(sizeof *out)));
    }
  }
  memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
  out->size = sizeof *out;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape_model_infer_with(const onnxshape_model *m,
                                            const onnxshape_infer_options *opts,
                                            onnxshape_inference **out, onnxshape_diag *diag) {
  onnxshape_infer_options taken;
  onnxshape_status st = take_options(opts, &taken, diag);
  if (st != ONNXSHAPE_OK) return st;
  return infer_model(m, &taken, out, NULL, NULL, diag);
}

onnxshape_status onnxshape_model_infer(const onnxshape_model *m, onnxshape_inference **out,
                                       onnxshape_diag *diag) {
  return infer_model(m, NULL, out, NULL, NULL, diag);
}

onnxshape_status onnxshape__model_infer_all(const onnxshape_model *m, onnxshape__report_fn report,
                                            void *ctx, onnxshape_diag *diag) {
  onnxshape_inference *inf = NULL;
  onnxshape_status st = infer_model(m, NULL, &inf, report, ctx, diag);
  onnxshape_inference_free(inf);
  return st;
}
