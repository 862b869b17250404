/* SPDX-License-Identifier: Apache-2.0 */
/* The bindings of an analysis (bindings.h, ANALYSIS-BINDINGS): --input and
 * --dim, checked against the model and each other and collected before any
 * graph is analysed, so that each applies to every input and declaration
 * whatever the order. */
#include <stdint.h>
#include <string.h>

#include "../core/internal.h"
#include "../onnx/arena.h"
#include "bindings.h"
#include "runtime.h"

/* The binding of symbol `sym`, or NULL. */
static const binding *binding_of(const an_bindings *a, const char *sym) {
  for (size_t i = 0; i < a->n_bound; i++) {
    if (strcmp(a->bound[i].symbol, sym) == 0) return &a->bound[i];
  }
  return NULL;
}

int onnxshape__each_symbol(const onnxshape_model *m, int (*visit)(void *ctx, const char *sym),
                       void *ctx) {
  for (size_t k = 0; k < m->n_graphs; k++) {
    const model_graph *g = m->graphs[k];
    const value_decl *lists[3] = {g->inputs, g->outputs, g->value_info};
    const size_t counts[3] = {g->n_inputs, g->n_outputs, g->n_value_info};
    for (size_t l = 0; l < 3; l++) {
      for (size_t i = 0; i < counts[l]; i++) {
        const value_decl *d = &lists[l][i];
        for (size_t j = 0; d->has_shape && j < d->rank; j++) {
          int r = d->dims[j].param != NULL ? visit(ctx, d->dims[j].param) : 0;
          if (r != 0) return r;
        }
      }
    }
    for (size_t i = 0; i < g->n_nodes; i++) { /* type attributes (Optional's) */
      for (size_t t_at = 0; t_at < g->nodes[i].n_attrs; t_at++) {
        for (const attr_type_info *t = g->nodes[i].attrs[t_at].tp; t != NULL; t = t->elem) {
          for (size_t j = 0; t->decl.has_shape && j < t->decl.rank; j++) {
            int r = t->decl.dims[j].param != NULL ? visit(ctx, t->decl.dims[j].param) : 0;
            if (r != 0) return r;
          }
        }
      }
    }
    for (size_t i = 0; i < g->n_slots; i++) {
      const value_decl *d = g->slots[i].kind == SLOT_SPARSE ? g->slots[i].decl : NULL;
      for (size_t j = 0; d != NULL && j < d->rank; j++) {
        int r = d->dims[j].param != NULL ? visit(ctx, d->dims[j].param) : 0;
        if (r != 0) return r;
      }
    }
  }
  return 0;
}

static int is_symbol(void *ctx, const char *sym) { return strcmp(ctx, sym) == 0; }

/* The model's distinct symbols, for a message: as many as fit. */
typedef struct symbols {
  const char *seen[8];
  size_t n;
  int more;
} symbols;

static int collect_symbol(void *ctx, const char *sym) {
  symbols *s = ctx;
  for (size_t i = 0; i < s->n; i++) {
    if (strcmp(s->seen[i], sym) == 0) return 0;
  }
  if (s->n == sizeof s->seen / sizeof s->seen[0]) {
    s->more = 1;
    return 1;
  }
  s->seen[s->n++] = sym;
  return 0;
}

static size_t symbol_item(const void *ctx, size_t k, char *out, size_t cap) {
  const symbols *s = ctx;
  return onnxshape__format(out, cap, "{}", ONNXSHAPE__ARGS(ARG_NAME(s->seen[k])));
}

/* --dim SYMBOL=VALUE: a symbol some declaration names, bound once, >= 0. */
static onnxshape_status take_dim(an_bindings *a, const onnxshape_model *m,
                                 const onnxshape_dim_binding *b, onnxshape_diag *diag) {
  if (b->symbol == NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "model_infer: NULL symbol",
                            ONNXSHAPE__NO_ARGS);
  }
  if (b->value < 0) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "dim '{}' = {} is negative",
                            ONNXSHAPE__ARGS(ARG_NAME(b->symbol), ARG_INT(b->value)));
  }
  if (binding_of(a, b->symbol) != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "dim '{}' is bound twice",
                            ONNXSHAPE__ARGS(ARG_NAME(b->symbol)));
  }
  if (!onnxshape__each_symbol(m, is_symbol, (void *)(uintptr_t)b->symbol)) {
    symbols all = {{NULL}, 0, 0};
    (void)onnxshape__each_symbol(m, collect_symbol, &all);
    if (all.n == 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "the model has no symbol '{}' (no declaration names a symbolic dim)",
                              ONNXSHAPE__ARGS(ARG_NAME(b->symbol)));
    }
    char list[160];
    onnxshape__fit_list(list, sizeof list, all.n, symbol_item, &all, 0, "symbols");
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "the model has no symbol '{}' (its symbols{}: {})",
                            ONNXSHAPE__ARGS(ARG_NAME(b->symbol),
                                            ARG_STR(all.more ? " include" : ""), ARG_TEXT(list)));
  }
  a->bound[a->n_bound++] = (binding){b->symbol, b->value, NULL};
  return ONNXSHAPE_OK;
}

/* --input NAME=DIMS: a tensor input of the main graph, bound once, of its
 * declared rank; each declared number kept, each declared symbol bound
 * (consistently with --dim and the other inputs). */
static onnxshape_status take_input(an_bindings *a, const onnxshape_model *m,
                                   const onnxshape_input_dims *in, onnxshape_diag *diag) {
  const model_graph *g = &m->g;
  if (in->name == NULL || (in->dims == NULL && in->rank > 0)) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "model_infer: NULL input name or dims", ONNXSHAPE__NO_ARGS);
  }
  long id = onnxshape__graph_find_slot(g, in->name);
  if (id < 0 || m->slot[id]->kind != SLOT_INPUT || m->slot[id]->graph != g) {
    return onnxshape__no_such_input(g, in->name, diag);
  }
  size_t k = m->slot[id]->input_index;
  const value_decl *d = &g->inputs[k];
  if (a->input_binding[k] != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT, "input '{}' is bound twice",
                            ONNXSHAPE__ARGS(ARG_NAME(d->name)));
  }
  if (d->not_tensor != NULL) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "input '{}' is {}; only a tensor input takes dims",
                            ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_STR(d->not_tensor)));
  }
  if (d->has_shape && d->rank != in->rank) {
    return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                            "input '{}' is declared with rank {}; the binding gives {} dims",
                            ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(d->rank),
                                            ARG_UINT(in->rank)));
  }
  for (size_t i = 0; i < in->rank; i++) {
    int64_t v = in->dims[i];
    if (v < 0) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "input '{}': dim {} = {} is negative",
                              ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i), ARG_INT(v)));
    }
    if (!d->has_shape) continue;
    const decl_dim *dd = &d->dims[i];
    if (dd->value >= 0 && dd->value != v) {
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "input '{}': dim {} is declared {}; the binding gives {}",
                              ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i),
                                              ARG_INT(dd->value), ARG_INT(v)));
    }
    if (dd->value >= 0 || dd->param == NULL) continue;
    const binding *b = binding_of(a, dd->param);
    if (b == NULL) {
      a->bound[a->n_bound++] = (binding){dd->param, v, d->name};
    } else if (b->value != v) {
      if (b->input == NULL) {
        return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                                "input '{}': dim {} is {}, which --dim binds to {}; the binding "
                                "gives {}",
                                ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i),
                                                ARG_NAME(dd->param), ARG_INT(b->value),
                                                ARG_INT(v)));
      }
      return onnxshape__error(diag, ONNXSHAPE_ERR_INVALID_ARGUMENT,
                              "input '{}': dim {} is {}, which the binding of input '{}' makes "
                              "{}; this binding gives {}",
                              ONNXSHAPE__ARGS(ARG_NAME(d->name), ARG_UINT(i),
                                              ARG_NAME(dd->param), ARG_NAME(b->input),
                                              ARG_INT(b->value), ARG_INT(v)));
    }
  }
  a->input_binding[k] = in;
  return ONNXSHAPE_OK;
}

onnxshape_status onnxshape__take_bindings(const onnxshape_model *m, const onnxshape_infer_options *o,
                                          onnxshape__arena *arena, an_bindings *a,
                                          onnxshape_diag *diag) {
  size_t room = o->n_dims;
  for (size_t b = 0; b < o->n_inputs; b++) {
    room += o->inputs[b].rank;
    if (room < o->inputs[b].rank) return ONNXSHAPE_ERR_OUT_OF_MEMORY; /* wrapped */
  }
  if (room > SIZE_MAX / 2 / sizeof *a->bound) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  a->n_bound = 0;
  a->bound = onnxshape__arena_alloc(arena, (room + 1) * sizeof *a->bound);
  a->input_binding = onnxshape__arena_alloc(arena, (m->g.n_inputs + 1) * sizeof *a->input_binding);
  if (a->bound == NULL || a->input_binding == NULL) return ONNXSHAPE_ERR_OUT_OF_MEMORY;
  for (size_t b = 0; b < o->n_dims; b++) {
    onnxshape_status st = take_dim(a, m, &o->dims[b], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  for (size_t b = 0; b < o->n_inputs; b++) {
    onnxshape_status st = take_input(a, m, &o->inputs[b], diag);
    if (st != ONNXSHAPE_OK) return st;
  }
  return ONNXSHAPE_OK;
}
